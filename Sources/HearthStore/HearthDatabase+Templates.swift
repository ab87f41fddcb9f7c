public import Foundation
import GRDB
public import HearthCore

/// A `chatTemplate` row: one way to start a chat.
struct ChatTemplateRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "chatTemplate"
  var id: String
  var name: String
  var instructions: String?
  var firstMessage: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ template: ChatTemplate) {
    id = template.id.uuidString
    name = template.name
    instructions = template.instructions
    firstMessage = template.firstMessage
    createdAt = template.createdAt.timeIntervalSince1970
    updatedAt = template.updatedAt.timeIntervalSince1970
  }

  func template() throws(StoreError) -> ChatTemplate {
    guard let uuid = UUID(uuidString: id) else { throw .corrupt(path: "chatTemplate", detail: "template id \(id)") }
    return ChatTemplate(
      id: uuid, name: name, instructions: instructions, firstMessage: firstMessage,
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }

  static func create(_ db: Database) throws {
    try db.create(table: "chatTemplate") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull().unique().collate(.nocase)
      t.column("instructions", .text)
      t.column("firstMessage", .text)
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    // The instructions a chat was started with, copied from its template: the chat keeps them when the
    // template is changed or deleted.
    try db.create(table: "sessionInstructions") { t in
      t.primaryKey("sessionID", .text).references("session", onDelete: .cascade)
      t.column("text", .text).notNull()
    }
  }
}

extension HearthDatabase {
  /// Every template, by name.
  public func chatTemplates() throws(StoreError) -> [ChatTemplate] {
    let rows = try read { db in try ChatTemplateRow.order(sql: "name COLLATE NOCASE").fetchAll(db) }
    return try rows.map { row throws(StoreError) in try row.template() }
  }

  /// The template with `id`, or `nil`.
  public func chatTemplate(_ id: UUID) throws(StoreError) -> ChatTemplate? {
    try read { db in try ChatTemplateRow.fetchOne(db, key: id.uuidString) }.map { row throws(StoreError) in
      try row.template()
    }
  }

  /// The template named `name` (whatever the case), or `nil`.
  public func chatTemplate(named name: String) throws(StoreError) -> ChatTemplate? {
    try read { db in
      try ChatTemplateRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db)
    }.map { row throws(StoreError) in try row.template() }
  }

  /// Adds `template`, or replaces the one with its id; `false` when another template has its name (nothing
  /// is written then).
  public func saveChatTemplate(_ template: ChatTemplate) throws(StoreError) -> Bool {
    let row = ChatTemplateRow(template)
    return try write { db in
      let taken = try ChatTemplateRow.filter(
        sql: "name = ? COLLATE NOCASE AND id != ?", arguments: [row.name, row.id]
      ).fetchCount(db)
      guard taken == 0 else { return false }
      try row.save(db)
      return true
    }
  }

  /// Deletes the template with `id`; chats started from it keep its instructions. `false` when there was none.
  public func deleteChatTemplate(_ id: UUID) throws(StoreError) -> Bool {
    try write { db in try ChatTemplateRow.deleteOne(db, key: id.uuidString) }
  }

  /// The instructions `sessionID` was started with (from a template), or `nil`.
  public func instructions(ofSession sessionID: UUID) throws(StoreError) -> String? {
    try read { db in
      try String.fetchOne(
        db, sql: "SELECT text FROM sessionInstructions WHERE sessionID = ?", arguments: [sessionID.uuidString])
    }
  }

  /// Creates `session`, answered by `instructions` in place of Hearth's opening, in one transaction.
  @discardableResult
  public func createSession(_ session: ChatSession, instructions: String) throws(StoreError) -> ChatSession {
    try write { db in
      try SessionRow(session).insert(db)
      try db.execute(
        sql: "INSERT INTO sessionInstructions (sessionID, text) VALUES (?, ?)",
        arguments: [session.id.uuidString, instructions])
    }
    return session
  }
}
