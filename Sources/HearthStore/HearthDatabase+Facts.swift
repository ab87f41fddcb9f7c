import Foundation
import GRDB
public import HearthCore

/// The facts the user told Hearth: one row each, the one a later statement replaced kept beside it as history.
struct FactRow: ItemRow {
  static let databaseTableName = "fact"
  static let kind = "fact"
  var id: String
  var text: String
  var sessionID: String?
  var messageID: String?
  var expires: String?
  var isPinned: Bool
  var replaces: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ fact: Fact) {
    id = fact.id
    text = fact.text
    sessionID = fact.sessionID?.uuidString
    messageID = fact.messageID?.uuidString
    expires = fact.expires?.description
    isPinned = fact.isPinned
    replaces = fact.replaces
    createdAt = seconds(fact.createdAt)
    updatedAt = seconds(fact.updatedAt)
  }

  func item() throws -> Fact {
    var expiry: LocalDate?
    if let expires {
      guard let day = LocalDate(parsing: expires) else {
        throw StoreError.invalidImport("fact \(id) has an unreadable expiry \(expires)")
      }
      expiry = day
    }
    return Fact(
      id: id, text: text, sessionID: sessionID.flatMap(UUID.init(uuidString:)),
      messageID: messageID.flatMap(UUID.init(uuidString:)), expires: expiry, isPinned: isPinned, replaces: replaces,
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }

  /// Removes one fact (its creation undone) and hands what it replaced to the facts that replaced it, so that
  /// in "Porto ← Ghent ← Lisbon" undoing Ghent leaves Lisbon in Porto's place.
  static func removeKeepingHistory(_ id: String, in db: Database) throws {
    let replaced = try FactRow.fetchOne(db, key: id)?.replaces
    try db.execute(sql: "UPDATE fact SET replaces = ? WHERE replaces = ?", arguments: [replaced, id])
    _ = try FactRow.deleteOne(db, key: id)
  }

  /// Deletes the fact and every earlier fact it replaced, following the chain back.
  static func deleteWithHistory(_ id: String, in db: Database) throws {
    var next: String? = id
    var seen: Set<String> = []
    while let current = next, seen.insert(current).inserted {
      next = try FactRow.fetchOne(db, key: current)?.replaces
      _ = try FactRow.deleteOne(db, key: current)
    }
  }

  static func create(_ db: Database) throws {
    try db.create(table: "fact") { t in
      t.primaryKey("id", .text)
      t.column("text", .text).notNull()
      t.column("sessionID", .text)
      t.column("messageID", .text)
      t.column("expires", .text)
      t.column("isPinned", .boolean).notNull()
      // No foreign key: the fact replaced may be forgotten later, and this one must stay.
      t.column("replaces", .text).indexed()
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull().indexed()
    }
  }
}

extension HearthDatabase {
  /// The facts kept, pinned first, newest first: none a later fact replaced (one replaced only by facts whose
  /// last day passed before `asOf` holds again: "I'm vegan until Easter" gives way back to "I'm vegetarian"),
  /// or every one `includingHistory`; with `on`, only those whose last day has not passed.
  public func facts(
    on day: LocalDate? = nil, includingHistory: Bool = false, asOf: LocalDate? = nil
  ) throws(StoreError) -> [Fact] {
    let all = try fetchItems(FactRow.self) { db in
      try FactRow.order(Column("isPinned").desc, Column("updatedAt").desc, Column("createdAt").desc).fetchAll(db)
    }
    let reference = day ?? asOf
    let replaced = Set(all.filter { reference.map($0.holds(on:)) ?? true }.compactMap(\.replaces))
    return all.filter { fact in
      (includingHistory || !replaced.contains(fact.id)) && (day.map { fact.holds(on: $0) } ?? true)
    }
  }

  /// The facts that took the place of `id`, newest first: its later versions.
  public func facts(replacing id: String) throws(StoreError) -> [Fact] {
    try fetchItems(FactRow.self) { db in
      try FactRow.filter(Column("replaces") == id).order(Column("createdAt").desc).fetchAll(db)
    }
  }
}
