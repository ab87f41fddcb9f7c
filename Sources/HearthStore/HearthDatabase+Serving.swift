public import Foundation
import GRDB
public import HearthCore

/// A member of a collection Hearth serves over CalDAV/CardDAV that a client stored: the name it chose, the body
/// as it sent it and the item read from that body, so what comes back is what it stored, apart from what changed
/// since.
public struct ServedMember: Sendable, Hashable {
  public var itemKind: ItemKind
  public var itemID: String
  /// The collection's name: a calendar, a reminder list, or "" for the address book.
  public var collection: String
  /// The member's name in its collection (`abc.ics`).
  public var href: String
  /// The body as the client stored it.
  public var original: String
  /// The item read from `original`, as JSON: what `original` says, to patch in what changed since.
  public var snapshot: String

  public init(
    itemKind: ItemKind, itemID: String, collection: String, href: String, original: String, snapshot: String
  ) {
    (self.itemKind, self.itemID, self.collection, self.href) = (itemKind, itemID, collection, href)
    (self.original, self.snapshot) = (original, snapshot)
  }
}

/// A collection a client made: what it is called, the path segment the client chose, its color.
public struct MadeCollection: Sendable, Hashable {
  public var name: String
  public var segment: String
  public var color: String?
  /// Where the client shows it among the others (Apple's `calendar-order`), as it wrote it.
  public var order: String?

  public init(name: String, segment: String, color: String?, order: String? = nil) {
    (self.name, self.segment, self.color, self.order) = (name, segment, color, order)
  }
}

/// One entry of the journal of changes to served items, written by the database itself on every insert, update
/// and delete, whichever surface made it: what a sync token counts.
public struct ServedChange: Sendable, Hashable {
  public var sequence: Int64
  public var itemID: String
  /// The member's name when a client had named it and the item was deleted (its mapping is gone with it).
  public var href: String?
}

struct ServedMemberRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "servedMember"
  var itemKind: String
  var itemID: String
  var collection: String
  var href: String
  var original: String
  var snapshot: String

  init(_ member: ServedMember) {
    (itemKind, itemID, collection, href) = (member.itemKind.rawValue, member.itemID, member.collection, member.href)
    (original, snapshot) = (member.original, member.snapshot)
  }

  var member: ServedMember? {
    ItemKind(rawValue: itemKind).map {
      ServedMember(
        itemKind: $0, itemID: itemID, collection: collection, href: href, original: original, snapshot: snapshot)
    }
  }

  /// The column that names an item's collection, per served kind.
  static let collectionColumns: [(kind: ItemKind, table: String, column: String)] = [
    (.event, "calendarEvent", "calendar"), (.reminder, "reminder", "list"), (.contact, "contact", "''"),
  ]

  static func create(_ db: Database) throws {
    // App passwords: devices that reach the CalDAV and CardDAV routes only.
    try db.alter(table: "device") { t in t.add(column: "scope", .text) }
    try db.create(table: "servedChange") { t in
      t.autoIncrementedPrimaryKey("sequence")
      t.column("itemKind", .text).notNull()
      t.column("itemID", .text).notNull()
      t.column("collection", .text).notNull()
      t.column("href", .text)
      // Random per entry, and part of every sync token: a token from a journal that was rewound (a backup
      // restored) names a sequence whose entry is another, so it is refused rather than skipping changes.
      t.column("nonce", .blob).notNull().defaults(sql: "(randomblob(8))")
    }
    try db.create(
      index: "servedChangeByCollection", on: "servedChange", columns: ["itemKind", "collection", "sequence"])
    try db.create(table: "servedMember") { t in
      t.column("itemKind", .text).notNull()
      t.column("itemID", .text).notNull()
      t.column("collection", .text).notNull()
      t.column("href", .text).notNull()
      t.column("original", .text).notNull()
      t.column("snapshot", .text).notNull()
      t.primaryKey(["itemKind", "itemID"])
      t.uniqueKey(["itemKind", "collection", "href"])
    }
    try db.create(table: "servedCollection") { t in
      t.column("itemKind", .text).notNull()
      t.column("name", .text).notNull()
      t.column("segment", .text).notNull()
      t.column("color", .text)
      t.column("sortOrder", .text)
      t.column("createdAt", .double).notNull()
      t.primaryKey(["itemKind", "name"])
    }
    // Triggers, so that a change from any surface (web, CLI, assistant, sync, restore) moves the sync token;
    // an item moved to another collection is a change in both.
    for (kind, table, column) in collectionColumns {
      let new = column == "''" ? "''" : "NEW.\(column)"
      let old = column == "''" ? "''" : "OLD.\(column)"
      let name = kind.rawValue.capitalized
      try db.execute(
        sql: """
          CREATE TRIGGER served\(name)Inserted AFTER INSERT ON \(table) BEGIN
            INSERT INTO servedChange(itemKind, itemID, collection) VALUES ('\(kind.rawValue)', NEW.id, \(new));
          END;
          CREATE TRIGGER served\(name)Updated AFTER UPDATE ON \(table) BEGIN
            INSERT INTO servedChange(itemKind, itemID, collection) VALUES ('\(kind.rawValue)', NEW.id, \(new));
            INSERT INTO servedChange(itemKind, itemID, collection, href)
              SELECT '\(kind.rawValue)', OLD.id, \(old),
                (SELECT href FROM servedMember WHERE itemKind = '\(kind.rawValue)' AND itemID = OLD.id)
              WHERE \(old) <> \(new);
            UPDATE OR IGNORE servedMember SET collection = \(new)
              WHERE itemKind = '\(kind.rawValue)' AND itemID = NEW.id;
            -- A name the target collection already holds for another member: the moved one takes its own.
            DELETE FROM servedMember WHERE itemKind = '\(kind.rawValue)' AND itemID = NEW.id AND collection <> \(new);
          END;
          CREATE TRIGGER served\(name)Deleted AFTER DELETE ON \(table) BEGIN
            INSERT INTO servedChange(itemKind, itemID, collection, href)
              VALUES ('\(kind.rawValue)', OLD.id, \(old),
                (SELECT href FROM servedMember WHERE itemKind = '\(kind.rawValue)' AND itemID = OLD.id));
            DELETE FROM servedMember WHERE itemKind = '\(kind.rawValue)' AND itemID = OLD.id;
          END;
          """)
    }
  }
}

extension HearthDatabase {
  /// The newest change to any served item with its nonce, (0, empty) before the first: the server-wide sync token.
  public func latestServedChange() throws(StoreError) -> (sequence: Int64, nonce: Data) {
    try read { db in
      let row = try Row.fetchOne(db, sql: "SELECT sequence, nonce FROM servedChange ORDER BY sequence DESC LIMIT 1")
      return (row?["sequence"] ?? 0, row?["nonce"] ?? Data())
    }
  }

  /// Drops the journal's entries older than its newest `keeping`: a sync token that names a dropped entry is no
  /// longer current, so its client starts over rather than missing changes. How many were dropped.
  @discardableResult
  public func pruneServedChanges(keeping: Int) throws(StoreError) -> Int {
    try write { db in
      try db.execute(
        sql: "DELETE FROM servedChange WHERE sequence <= (SELECT MAX(sequence) FROM servedChange) - ?",
        arguments: [keeping])
      return db.changesCount
    }
  }

  /// Whether the journal holds every change ever made (nothing pruned): what a token of an empty journal needs.
  public func servedJournalIsWhole() throws(StoreError) -> Bool {
    try read { db in (try Int64.fetchOne(db, sql: "SELECT MIN(sequence) FROM servedChange") ?? 1) == 1 }
  }

  /// The nonce of the journal's entry `sequence`, `nil` when there is none.
  public func servedChangeNonce(_ sequence: Int64) throws(StoreError) -> Data? {
    try read { db in
      try Data.fetchOne(db, sql: "SELECT nonce FROM servedChange WHERE sequence = ?", arguments: [sequence])
    }
  }

  /// The newest change to an item of `kind` in `collection`, 0 before the first: the collection's tag.
  public func latestServedChange(_ kind: ItemKind, collection: String) throws(StoreError) -> Int64 {
    try read { db in
      try Int64.fetchOne(
        db, sql: "SELECT MAX(sequence) FROM servedChange WHERE itemKind = ? AND collection = ?",
        arguments: [kind.rawValue, collection]) ?? 0
    }
  }

  /// The changes to items of `kind` in `collection` after `sequence`, the latest per item, oldest first.
  public func servedChanges(
    _ kind: ItemKind, collection: String, after sequence: Int64
  ) throws(StoreError) -> [ServedChange] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT MAX(sequence) AS sequence, itemID, (SELECT href FROM servedChange AS named
            WHERE named.itemKind = c.itemKind AND named.itemID = c.itemID AND named.collection = c.collection
              AND named.href IS NOT NULL AND named.sequence > ? ORDER BY sequence DESC LIMIT 1) AS href
          FROM servedChange AS c WHERE itemKind = ? AND collection = ? AND sequence > ?
          GROUP BY itemID ORDER BY sequence
          """,
        arguments: [sequence, kind.rawValue, collection, sequence]
      ).map { ServedChange(sequence: $0["sequence"], itemID: $0["itemID"], href: $0["href"]) }
    }
  }

  /// The names of the collections of `kind` that hold items, with those created empty, sorted.
  public func servedCollections(_ kind: ItemKind) throws(StoreError) -> [String] {
    guard let (_, table, column) = ServedMemberRow.collectionColumns.first(where: { $0.kind == kind }) else {
      return []
    }
    return try read { db in
      let used = try String.fetchAll(db, sql: "SELECT DISTINCT \(column) FROM \(table)")
      let made = try String.fetchAll(
        db, sql: "SELECT name FROM servedCollection WHERE itemKind = ?", arguments: [kind.rawValue])
      return Set(used + made).sorted()
    }
  }

  /// A collection a client made (its name, the path segment it chose, its color), `nil` when no client made it.
  public func servedCollection(_ kind: ItemKind, name: String) throws(StoreError) -> MadeCollection? {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT name, segment, color, sortOrder FROM servedCollection WHERE itemKind = ? AND name = ?",
        arguments: [kind.rawValue, name]
      ).map { MadeCollection(name: $0["name"], segment: $0["segment"], color: $0["color"], order: $0["sortOrder"]) }
    }
  }

  /// Keeps a collection a client made, empty or not, with the path segment it chose and its color.
  public func addServedCollection(_ kind: ItemKind, _ made: MadeCollection, now: Date) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO servedCollection(itemKind, name, segment, color, sortOrder, createdAt)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [kind.rawValue, made.name, made.segment, made.color, made.order, now.timeIntervalSince1970])
    }
  }

  /// The items of `kind` in `collection`.
  public func items(_ kind: ItemKind, inCollection collection: String) throws(StoreError) -> [StoredItem] {
    try read { db in
      switch kind {
      case .event:
        try EventRow.filter(Column("calendar") == collection).fetchAll(db).map { .event(try $0.item()) }
      case .reminder:
        try ReminderRow.filter(Column("list") == collection).fetchAll(db).map { .reminder(try $0.item()) }
      case .contact:
        collection.isEmpty ? try ContactRow.fetchAll(db).map { .contact(try $0.item()) } : []
      default: []
      }
    }
  }

  /// The member a client named `href` in `collection`, `nil` when no client named one so.
  public func servedMember(_ kind: ItemKind, collection: String, href: String) throws(StoreError) -> ServedMember? {
    try read { db in
      try ServedMemberRow.filter(
        Column("itemKind") == kind.rawValue && Column("collection") == collection && Column("href") == href
      ).fetchOne(db)?.member
    }
  }

  /// The stored body of an item, `nil` when no client stored it.
  public func servedMember(_ kind: ItemKind, id: String) throws(StoreError) -> ServedMember? {
    try read { db in try ServedMemberRow.fetchOne(db, key: ["itemKind": kind.rawValue, "itemID": id])?.member }
  }

  /// Writes an item a client stored with its body, in one transaction, and only while the item is still
  /// `expected` (`nil`: while there is none): `false`, with nothing written, when another writer changed it first.
  /// The member's snapshot is `snapshot` of the item as the store reads it back, so that what the store rounds
  /// (times to the second) is not taken later for a change.
  @discardableResult
  public func storeServed(
    _ item: StoredItem, member: ServedMember, expecting expected: StoredItem?,
    snapshot: @escaping @Sendable (StoredItem) throws -> String
  ) throws(StoreError) -> Bool {
    try write { db in
      let current = try Self.fetch(item.kind.rowType, id: item.id, in: db)
      guard current == expected else { return false }
      try Self.apply(expected == nil ? .insert(item) : .update(item), in: db)
      var member = member
      if let stored = try Self.fetch(item.kind.rowType, id: item.id, in: db) { member.snapshot = try snapshot(stored) }
      try ServedMemberRow(member).save(db)
      return true
    }
  }

  /// Deletes an item a client removed, only while it is still `expected`: `false` when another writer changed it.
  @discardableResult
  public func removeServed(_ expected: StoredItem) throws(StoreError) -> Bool {
    try write { db in
      guard try Self.fetch(expected.kind.rowType, id: expected.id, in: db) == expected else { return false }
      try Self.apply(.remove(expected.kind, id: expected.id), in: db)
      return true
    }
  }
}

extension HearthDatabase {
  /// Deletes a calendar or reminder list a client removed, with every item in it, in one transaction; how many
  /// items went with it.
  @discardableResult
  public func removeServedCollection(_ kind: ItemKind, name: String) throws(StoreError) -> Int {
    guard let (_, table, column) = ServedMemberRow.collectionColumns.first(where: { $0.kind == kind }),
      kind != .contact
    else { return 0 }
    return try write { db in
      try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [name])
      let removed = db.changesCount
      try db.execute(
        sql: "DELETE FROM servedCollection WHERE itemKind = ? AND name = ?", arguments: [kind.rawValue, name])
      return removed
    }
  }
}
