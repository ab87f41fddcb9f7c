public import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  /// The messages of a session, in order.
  public func messages(in sessionID: UUID) throws(StoreError) -> [StoredMessage] {
    try read { db in
      let rows = try Row.fetchCursor(
        db,
        MessageRow.select(MessageRow.orderedColumns).filter(Column("sessionID") == sessionID.uuidString)
          .order(Column("position")))
      var messages: [StoredMessage] = []
      messages.reserveCapacity(
        try MessageRow.filter(Column("sessionID") == sessionID.uuidString).fetchCount(db))
      while let row = try rows.next() {
        messages.append(MessageRow.message(fromOrderedRow: row, sessionID: sessionID))
      }
      return messages
    }
  }

  /// The last `count` messages of a session, in order: what a turn needs of a long conversation's end.
  public func lastMessages(in sessionID: UUID, count: Int) throws(StoreError) -> [StoredMessage] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        MessageRow.select(MessageRow.orderedColumns).filter(Column("sessionID") == sessionID.uuidString)
          .order(Column("position").desc).limit(max(0, count)))
      return rows.reversed().map { MessageRow.message(fromOrderedRow: $0, sessionID: sessionID) }
    }
  }

  /// Adds a message at the end of a session and marks the session as updated; the message's `index` is set
  /// here, in the same transaction, so concurrent writers never collide.
  @discardableResult
  public func appendMessage(_ message: StoredMessage) throws(StoreError) -> StoredMessage {
    let result: StoredMessage? = try write { db in
      guard var session = try SessionRow.fetchOne(db, key: message.sessionID.uuidString) else { return nil }
      let last = try Int.fetchOne(
        db, sql: "SELECT MAX(position) FROM message WHERE sessionID = ?", arguments: [message.sessionID.uuidString])
      var stored = message
      stored.index = (last ?? -1) + 1
      try MessageRow(stored).insert(db)
      session.updatedAt = max(session.updatedAt, stored.updatedAt.timeIntervalSince1970)
      try session.update(db)
      return stored
    }
    guard let result else { throw .sessionNotFound(message.sessionID.uuidString) }
    return result
  }

  /// Saves a message's changed fields.
  public func updateMessage(_ message: StoredMessage) throws(StoreError) {
    let found = try write { db in
      guard try MessageRow.exists(db, key: message.id.uuidString) else { return false }
      try MessageRow(message).update(db)
      return true
    }
    if !found { throw .messageNotFound(message.id.uuidString) }
  }

  /// The session a message belongs to; `nil` when there is no such message.
  public func session(ofMessage id: UUID) throws(StoreError) -> UUID? {
    try read { db in try MessageRow.fetchOne(db, key: id.uuidString).flatMap { UUID(uuidString: $0.sessionID) } }
  }

  /// Deletes one message.
  public func deleteMessage(_ id: UUID) throws(StoreError) {
    let deleted = try write { db in try MessageRow.deleteOne(db, key: id.uuidString) }
    if !deleted { throw .messageNotFound(id.uuidString) }
  }

  /// Number of messages in a session, or in all sessions.
  public func messageCount(in sessionID: UUID? = nil) throws(StoreError) -> Int {
    try read { db in
      var request = MessageRow.all()
      if let sessionID { request = request.filter(Column("sessionID") == sessionID.uuidString) }
      return try request.fetchCount(db)
    }
  }
}
