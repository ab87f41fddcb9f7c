import Foundation
import GRDB
public import HearthCore

/// One of the user's items, whatever its kind: what an action writes, and what the audit log keeps of it
/// before and after.
public enum StoredItem: Sendable, Hashable {
  case event(CalendarEvent)
  case reminder(Reminder)
  case note(Note)
  case habit(Habit)
  case habitLog(HabitLog)
  case contact(Contact)
  case fact(Fact)

  public var kind: ItemKind {
    switch self {
    case .event: .event
    case .reminder: .reminder
    case .note: .note
    case .habit: .habit
    case .habitLog: .habitLog
    case .contact: .contact
    case .fact: .fact
    }
  }

  /// The item's id, read from the item itself (building its row would encode every field).
  public var id: String {
    switch self {
    case .event(let item): item.id
    case .reminder(let item): item.id
    case .note(let item): item.id
    case .habit(let item): item.id
    case .habitLog(let item): item.id
    case .contact(let item): item.id
    case .fact(let item): item.id
    }
  }

  var row: any ItemRow {
    switch self {
    case .event(let item): EventRow(item)
    case .reminder(let item): ReminderRow(item)
    case .note(let item): NoteRow(item)
    case .habit(let item): HabitRow(item)
    case .habitLog(let item): HabitLogRow(item)
    case .contact(let item): ContactRow(item)
    case .fact(let item): FactRow(item)
    }
  }

  init<Row: ItemRow>(_ row: Row) throws {
    switch try row.item() as Any {
    case let item as CalendarEvent: self = .event(item)
    case let item as Reminder: self = .reminder(item)
    case let item as Note: self = .note(item)
    case let item as Habit: self = .habit(item)
    case let item as HabitLog: self = .habitLog(item)
    case let item as Contact: self = .contact(item)
    case let item as Fact: self = .fact(item)
    default: throw StoreError.itemNotFound(kind: Row.kind, id: row.id)
    }
  }
}

/// A change to one item, written in the same transaction as the audit record that describes it.
public enum ItemWrite: Sendable, Hashable {
  /// Adds a new item; an id that exists is refused.
  case insert(StoredItem)
  /// Replaces an item; one that is gone is refused.
  case update(StoredItem)
  /// Writes the item as given, adding it back when it is gone (undo, restore).
  case put(StoredItem)
  /// Removes the item when it is still there.
  case remove(ItemKind, id: String)
  /// Deletes the item as the user asked: as ``remove(_:id:)``, and a fact with the earlier versions it took
  /// the place of, so that none of them holds again.
  case delete(ItemKind, id: String)
}

extension HearthDatabase {
  /// The item of `kind` with this id, `nil` when there is none.
  public func item(_ kind: ItemKind, id: String) throws(StoreError) -> StoredItem? {
    try read { db in try Self.fetch(kind.rowType, id: id, in: db) }
  }

  /// Saves `record` and makes `change` in one transaction: both or, on a failure, neither. With `expected`,
  /// only while the stored record is still in that state; `false` (nothing written) when another writer
  /// moved it first, so a change is never made twice.
  /// - Throws: `StoreError` when the change is refused (an insert of an id that exists, an update of an item
  ///   that is gone, a check-in of a habit that is gone) or the database fails.
  @discardableResult
  public func commitAction(
    _ record: ActionRecord, writing change: ItemWrite? = nil, expecting expected: ActionRecord.State? = nil
  ) throws(StoreError) -> Bool {
    try write { db in
      if let expected {
        let state = try String.fetchOne(
          db, sql: "SELECT state FROM actionRecord WHERE id = ?", arguments: [record.id.uuidString])
        guard state == expected.rawValue else { return false }
      }
      if let change { try Self.apply(change, in: db) }
      try ActionRow(record).save(db)
      return true
    }
  }

  /// The item of this type with this id, `nil` when there is none.
  public func item<Item: StorableItem>(_ type: Item.Type = Item.self, id: String) throws(StoreError) -> Item? {
    try item(Item.kind, id: id).flatMap(Item.init)
  }

  /// Makes one change in a transaction of its own.
  /// - Throws: `StoreError` when the change is refused (an insert of an id that exists, an update of an item
  ///   that is gone, a check-in of a habit that is gone) or the database fails.
  public func write(_ change: ItemWrite) throws(StoreError) {
    try write { db in try Self.apply(change, in: db) }
  }

  /// Adds a new item; an id that exists is refused.
  public func insert(_ item: some StorableItem) throws(StoreError) { try write(.insert(item.stored)) }

  /// Replaces an item, returning the version it replaced; one that is gone is refused.
  @discardableResult
  public func update<Item: StorableItem>(_ item: Item) throws(StoreError) -> Item {
    try replacing(Item.kind, id: item.id) { db in try Self.apply(.update(item.stored), in: db) }
  }

  /// Deletes an item (a habit with its check-ins), returning what was deleted; one that is gone is refused.
  @discardableResult
  public func delete<Item: StorableItem>(_ type: Item.Type, id: String) throws(StoreError) -> Item {
    try replacing(Item.kind, id: id) { db in try Self.apply(.remove(Item.kind, id: id), in: db) }
  }

  /// Writes many items in one transaction, replacing those whose id is there: all of them or, on a
  /// failure, none.
  public func importItems<Item: StorableItem>(_ items: [Item]) throws(StoreError) -> ImportCounts {
    try write { db in
      var counts = ImportCounts()
      for item in items {
        if try Self.put(item.stored.row, in: db) { counts.replaced += 1 } else { counts.added += 1 }
      }
      return counts
    }
  }

  /// Runs `change` on the stored item of `kind` and returns it as it was before.
  private func replacing<Item: StorableItem>(
    _ kind: ItemKind, id: String, _ change: @escaping @Sendable (Database) throws -> Void
  ) throws(StoreError) -> Item {
    try write { db in
      guard let old = try Self.fetch(kind.rowType, id: id, in: db).flatMap(Item.init) else {
        throw StoreError.itemNotFound(kind: kind.rowType.kind, id: id)
      }
      try change(db)
      return old
    }
  }

  static func fetch<Row: ItemRow>(_ type: Row.Type, id: String, in db: Database) throws -> StoredItem? {
    try Row.fetchOne(db, key: id).map { try StoredItem($0) }
  }

  static func apply(_ change: ItemWrite, in db: Database) throws {
    switch change {
    case .insert(let item): try insert(item.row, in: db)
    case .update(let item): try update(item.row, in: db)
    case .put(let item): _ = try put(item.row, in: db)
    case .remove(.fact, let id): try FactRow.removeKeepingHistory(id, in: db)
    case .remove(let kind, let id): try remove(kind.rowType, id: id, in: db)
    case .delete(.fact, let id): try FactRow.deleteWithHistory(id, in: db)
    case .delete(let kind, let id): try remove(kind.rowType, id: id, in: db)
    }
  }

  private static func insert<Row: ItemRow>(_ row: Row, in db: Database) throws {
    guard try !Row.exists(db, key: row.id) else { throw StoreError.duplicateItem(kind: Row.kind, id: row.id) }
    try requireHabit(of: row, in: db)
    try row.insert(db)
  }

  private static func update<Row: ItemRow>(_ row: Row, in db: Database) throws {
    guard try Row.exists(db, key: row.id) else { throw StoreError.itemNotFound(kind: Row.kind, id: row.id) }
    try row.update(db)
  }

  /// Writes `row`, replacing the stored one or adding it; whether it replaced one.
  private static func put<Row: ItemRow>(_ row: Row, in db: Database) throws -> Bool {
    if try Row.exists(db, key: row.id) {
      try row.update(db)
      return true
    }
    try requireHabit(of: row, in: db)
    try row.insert(db)
    return false
  }

  private static func remove<Row: ItemRow>(_ type: Row.Type, id: String, in db: Database) throws {
    _ = try Row.deleteOne(db, key: id)
  }

  /// A check-in needs its habit: said in words rather than as a foreign-key failure.
  private static func requireHabit(of row: some ItemRow, in db: Database) throws {
    guard let log = row as? HabitLogRow, try !HabitRow.exists(db, key: log.habitID) else { return }
    throw StoreError.itemNotFound(kind: "habit", id: log.habitID)
  }
}
