public import Foundation
import GRDB
public import HearthCore

/// What the memory keeps about chats: the sources each answer drew on, and the chats whose memory is off.
extension HearthDatabase {
  /// Records the sources an answer drew on.
  public func setCitations(_ citations: [Citation], for messageID: UUID) throws(StoreError) {
    try write { db in try CitationRows.store(citations, for: messageID, db) }
  }

  /// The sources each of these messages drew on; messages without any are absent.
  public func citations(for messageIDs: [UUID]) throws(StoreError) -> [UUID: [Citation]] {
    guard !messageIDs.isEmpty else { return [:] }
    return try read { db in try CitationRows.fetch(messageIDs, db) }
  }

  /// Whether answers in a chat may draw on the memory (on unless the user turned it off).
  public func usesMemory(_ sessionID: UUID) throws(StoreError) -> Bool {
    try read { db in
      try Int.fetchOne(
        db, sql: "SELECT 1 FROM sessionWithoutMemory WHERE sessionID = ?", arguments: [sessionID.uuidString]) == nil
    }
  }

  /// Turns the memory on or off for a chat.
  /// - Throws: ``StoreError/sessionNotFound(_:)`` for an unknown chat.
  public func setUsesMemory(_ uses: Bool, for sessionID: UUID) throws(StoreError) {
    _ = try session(sessionID)
    try write { db in
      if uses {
        try db.execute(sql: "DELETE FROM sessionWithoutMemory WHERE sessionID = ?", arguments: [sessionID.uuidString])
      } else {
        try db.execute(
          sql: "INSERT OR IGNORE INTO sessionWithoutMemory (sessionID) VALUES (?)", arguments: [sessionID.uuidString])
      }
    }
  }
}

/// The `messageCitations` rows, inside a transaction the caller holds.
enum CitationRows {
  static func store(_ citations: [Citation], for messageID: UUID, _ db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO messageCitations (messageID, citations) VALUES (?, ?)",
      arguments: [messageID.uuidString, JSONColumn.encode(citations)])
  }

  static func fetch(_ messageIDs: [UUID], _ db: Database) throws -> [UUID: [Citation]] {
    guard !messageIDs.isEmpty else { return [:] }
    let rows = try Row.fetchAll(
      db,
      sql:
        "SELECT messageID, citations FROM messageCitations WHERE messageID IN (\(messageIDs.map { _ in "?" }.joined(separator: ",")))",
      arguments: StatementArguments(messageIDs.map(\.uuidString)))
    var found: [UUID: [Citation]] = [:]
    for row in rows {
      guard let id = UUID(uuidString: row["messageID"]) else { continue }
      found[id] = try JSONColumn.decode([Citation].self, row["citations"])
    }
    return found
  }
}
