public import Foundation
import GRDB
public import HearthCore

/// A response of OpenAI's Responses API kept so that a later request can continue from it
/// (`previous_response_id`): the conversation it answered (without its instructions, which do not carry over)
/// and its answer.
public struct StoredResponse: Sendable, Hashable {
  public var id: String
  public var createdAt: Date
  public var model: String
  /// The conversation the response answered, oldest first, ending with its answer.
  public var conversation: [ChatMessage]

  /// Creates a stored response.
  public init(id: String, createdAt: Date, model: String, conversation: [ChatMessage]) {
    self.id = id
    self.createdAt = createdAt
    self.model = model
    self.conversation = conversation
  }
}

enum ResponseSchema {
  static func create(_ db: Database) throws {
    try db.create(table: "storedResponse") { t in
      t.autoIncrementedPrimaryKey("seq")
      t.column("id", .text).notNull().unique()
      t.column("createdAt", .double).notNull()
      t.column("model", .text).notNull()
      t.column("conversation", .blob).notNull()
    }
  }
}

private struct ResponseRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "storedResponse"
  var id: String
  var createdAt: Double
  var model: String
  var conversation: Data
}

private struct StoredTurn: Codable {
  var role: String
  var content: String
}

extension HearthDatabase {
  /// The most stored responses kept; older ones are dropped as new ones arrive.
  public static let storedResponseCapacity = 1_000
  /// How long a stored response is kept, as OpenAI keeps them.
  public static let storedResponseLifetime: TimeInterval = 30 * 24 * 3600

  /// Keeps `response`, dropping the oldest beyond ``storedResponseCapacity`` and those past
  /// ``storedResponseLifetime``.
  public func storeResponse(_ response: StoredResponse) throws(StoreError) {
    let turns = response.conversation.map { StoredTurn(role: $0.role.rawValue, content: $0.content) }
    // Strings and role names always encode.
    let row = ResponseRow(
      id: response.id, createdAt: response.createdAt.timeIntervalSince1970, model: response.model,
      conversation: (try? JSONEncoder().encode(turns)) ?? Data())
    try write { db in
      try row.insert(db)
      try db.execute(
        sql: "DELETE FROM storedResponse WHERE seq <= ? OR createdAt < ?",
        arguments: [
          db.lastInsertedRowID - Int64(Self.storedResponseCapacity),
          Date().timeIntervalSince1970 - Self.storedResponseLifetime,
        ])
    }
  }

  /// The stored response `id`, if it is kept.
  /// - Throws: ``StoreError/corrupt(path:detail:)`` when its conversation cannot be read back, rather than
  ///   continuing from a conversation with turns missing.
  public func storedResponse(id: String) throws(StoreError) -> StoredResponse? {
    let row = try read { db in try ResponseRow.filter(Column("id") == id).fetchOne(db) }
    guard let row else { return nil }
    let damaged = StoreError.corrupt(path: path, detail: "the stored response \(id) cannot be read back")
    guard let turns = try? JSONDecoder().decode([StoredTurn].self, from: row.conversation) else { throw damaged }
    var conversation: [ChatMessage] = []
    for turn in turns {
      guard let role = ChatMessage.Role(rawValue: turn.role) else { throw damaged }
      conversation.append(ChatMessage(role: role, content: turn.content))
    }
    return StoredResponse(
      id: row.id, createdAt: Date(timeIntervalSince1970: row.createdAt), model: row.model,
      conversation: conversation)
  }

  /// Forgets the stored response `id`; returns whether it was kept.
  @discardableResult
  public func deleteStoredResponse(id: String) throws(StoreError) -> Bool {
    try write { db in try ResponseRow.filter(Column("id") == id).deleteAll(db) > 0 }
  }
}
