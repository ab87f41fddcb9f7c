public import Foundation
import GRDB
public import HearthCore

enum AttachmentSchema {
  static func create(_ db: Database) throws {
    try db.create(table: "attachment") { t in
      t.primaryKey("id", .text)
      t.column("sessionID", .text).notNull().indexed().references("session", onDelete: .cascade)
      t.column("messageID", .text).indexed()
      t.column("name", .text).notNull()
      t.column("mediaType", .text).notNull()
      t.column("byteCount", .integer).notNull()
      t.column("reading", .text).notNull()
      t.column("text", .text).notNull()
      t.column("createdAt", .double).notNull()
    }
  }
}

private struct AttachmentRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "attachment"
  /// Every column but an image's bytes, which only ``HearthDatabase/attachmentContent(_:)`` reads.
  static var databaseSelection: [any SQLSelectable] {
    [
      Column("id"), Column("sessionID"), Column("messageID"), Column("name"), Column("mediaType"), Column("byteCount"),
      Column("reading"), Column("text"), Column("createdAt"),
    ]
  }
  var id: String
  var sessionID: String
  var messageID: String?
  var name: String
  var mediaType: String
  var byteCount: Int
  var reading: String
  var text: String
  var createdAt: Double

  init(_ attachment: StoredAttachment) {
    id = attachment.id.uuidString
    sessionID = attachment.sessionID.uuidString
    messageID = attachment.messageID?.uuidString
    name = attachment.name
    mediaType = attachment.mediaType
    byteCount = attachment.byteCount
    reading = attachment.reading
    text = attachment.text
    createdAt = attachment.createdAt.timeIntervalSince1970
  }

  var attachment: StoredAttachment? {
    guard let id = UUID(uuidString: id), let session = UUID(uuidString: sessionID) else { return nil }
    return StoredAttachment(
      id: id, sessionID: session, messageID: messageID.flatMap(UUID.init(uuidString:)), name: name,
      mediaType: mediaType, byteCount: byteCount, reading: reading, text: text,
      createdAt: Date(timeIntervalSince1970: createdAt))
  }
}

extension HearthDatabase {
  /// Keeps an attachment waiting to be sent, with the file's bytes when it is an image (`content`, shown as the
  /// message's thumbnail); ones left waiting for a day are let go first.
  public func saveAttachment(_ attachment: StoredAttachment, content: Data? = nil) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "DELETE FROM attachment WHERE messageID IS NULL AND createdAt < ?",
        arguments: [attachment.createdAt.timeIntervalSince1970 - 86_400])
      try AttachmentRow(attachment).insert(db)
      if let content {
        try db.execute(
          sql: "UPDATE attachment SET content = ? WHERE id = ?", arguments: [content, attachment.id.uuidString])
      }
    }
  }

  /// Replaces the text read from an attachment that waits to be sent (an image read again with its message).
  /// - Throws: ``StoreError/itemNotFound(kind:id:)`` when no attachment with this id waits.
  public func updateAttachmentText(_ id: UUID, to text: String) throws(StoreError) {
    let changed = try write { db in
      try AttachmentRow.filter(key: id.uuidString).filter(Column("messageID") == nil)
        .updateAll(db, Column("text").set(to: text))
    }
    guard changed == 1 else { throw .itemNotFound(kind: "attachment", id: id.uuidString) }
  }

  /// The bytes kept of an attached image; `nil` for an attachment without them (a document, or an image
  /// attached before they were kept) or none with this id.
  public func attachmentContent(_ id: UUID) throws(StoreError) -> Data? {
    try read { db in
      try Data.fetchOne(db, sql: "SELECT content FROM attachment WHERE id = ?", arguments: [id.uuidString])
    }
  }

  /// The attachment with this id.
  public func attachment(_ id: UUID) throws(StoreError) -> StoredAttachment? {
    try read { db in try AttachmentRow.fetchOne(db, key: id.uuidString)?.attachment }
  }

  /// The attachments of the session's messages (and those waiting to be sent), oldest first.
  public func attachments(in sessionID: UUID) throws(StoreError) -> [StoredAttachment] {
    try read { db in
      try AttachmentRow.filter(Column("sessionID") == sessionID.uuidString).order(Column("createdAt"))
        .fetchAll(db).compactMap(\.attachment)
    }
  }

  /// Gives waiting attachments of `sessionID` to `messageID`, in one transaction: all of them or none.
  /// - Throws: ``StoreError/itemNotFound(kind:id:)`` for an id that is no attachment waiting in this session.
  public func bindAttachments(_ ids: [UUID], to messageID: UUID, in sessionID: UUID) throws(StoreError) {
    try write { db in
      for id in ids {
        let updated = try AttachmentRow.filter(key: id.uuidString)
          .filter(Column("sessionID") == sessionID.uuidString && Column("messageID") == nil)
          .updateAll(db, Column("messageID").set(to: messageID.uuidString))
        guard updated == 1 else { throw StoreError.itemNotFound(kind: "attachment", id: id.uuidString) }
      }
    }
  }

  /// Lets go of an attachment that waits to be sent; `false` when there is none such.
  @discardableResult
  public func removeWaitingAttachment(_ id: UUID) throws(StoreError) -> Bool {
    try write { db in
      try AttachmentRow.filter(key: id.uuidString).filter(Column("messageID") == nil).deleteAll(db) == 1
    }
  }
}
