public import Foundation
import GRDB
public import HearthCore

/// An `actionRecord` row: the audit log of actions.
struct ActionRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "actionRecord"
  var id: String
  var sessionID: String?
  var messageID: String?
  var kind: String
  var action: String?
  var block: String
  var state: String
  var summary: String
  var itemKind: String?
  var itemID: String?
  var before: String?
  var after: String?
  var result: String?
  var reason: String?
  var source: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ record: ActionRecord) {
    id = record.id.uuidString
    sessionID = record.sessionID?.uuidString
    messageID = record.messageID?.uuidString
    kind = record.kind
    action = record.action
    block = record.block
    state = record.state.rawValue
    summary = record.summary
    itemKind = record.itemKind?.rawValue
    itemID = record.itemID
    before = record.before.map(JSONColumn.encode)
    after = record.after.map(JSONColumn.encode)
    result = record.result
    reason = record.reason
    source = record.source
    createdAt = record.createdAt.timeIntervalSince1970
    updatedAt = record.updatedAt.timeIntervalSince1970
  }

  func record() throws -> ActionRecord {
    ActionRecord(
      id: UUID(uuidString: id) ?? UUID(), sessionID: sessionID.flatMap(UUID.init(uuidString:)),
      messageID: messageID.flatMap(UUID.init(uuidString:)), kind: kind, action: action, block: block,
      state: ActionRecord.State(rawValue: state) ?? .failed, summary: summary,
      itemKind: itemKind.flatMap(ItemKind.init(rawValue:)), itemID: itemID,
      before: try before.map { try JSONColumn.decode(JSONValue.self, $0) },
      after: try after.map { try JSONColumn.decode(JSONValue.self, $0) }, result: result, reason: reason,
      source: source, createdAt: Date(timeIntervalSince1970: createdAt),
      updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}

extension HearthDatabase {
  /// Adds or replaces an action record.
  public func saveAction(_ record: ActionRecord) throws(StoreError) {
    try write { db in try ActionRow(record).save(db) }
  }

  public func action(_ id: UUID) throws(StoreError) -> ActionRecord? {
    try read { db in try ActionRow.fetchOne(db, key: id.uuidString)?.record() }
  }

  /// Action records, newest first; of one session, one message or in one state when given.
  public func actions(
    session: UUID? = nil, message: UUID? = nil, state: ActionRecord.State? = nil, limit: Int = 200
  ) throws(StoreError) -> [ActionRecord] {
    try read { db in
      var request = ActionRow.all()
      if let session { request = request.filter(Column("sessionID") == session.uuidString) }
      if let state { request = request.filter(Column("state") == state.rawValue) }
      if let message { request = request.filter(Column("messageID") == message.uuidString) }
      return try request.order(Column("createdAt").desc, Column("rowid").desc).limit(limit).fetchAll(db).map {
        try $0.record()
      }
    }
  }

  /// Replaces a record only if its stored state is still `expected`; `false` when another writer moved it.
  public func updateAction(_ record: ActionRecord, expecting expected: ActionRecord.State) throws(StoreError) -> Bool {
    try write { db in
      try db.execute(
        sql:
          "UPDATE actionRecord SET state = ?, summary = ?, before = ?, after = ?, result = ?, reason = ?, updatedAt = ? WHERE id = ? AND state = ?",
        arguments: [
          record.state.rawValue, record.summary, record.before.map(JSONColumn.encode),
          record.after.map(JSONColumn.encode),
          record.result, record.reason, record.updatedAt.timeIntervalSince1970, record.id.uuidString, expected.rawValue,
        ])
      return db.changesCount == 1
    }
  }
}
