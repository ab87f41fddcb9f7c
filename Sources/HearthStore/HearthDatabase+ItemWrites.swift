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

  public var kind: ItemKind {
    switch self {
    case .event: .event
    case .reminder: .reminder
    case .note: .note
    case .habit: .habit
    case .habitLog: .habitLog
    case .contact: .contact
    }
  }

  public var id: String { row.id }

  var row: any ItemRow {
    switch self {
    case .event(let item): EventRow(item)
    case .reminder(let item): ReminderRow(item)
    case .note(let item): NoteRow(item)
    case .habit(let item): HabitRow(item)
    case .habitLog(let item): HabitLogRow(item)
    case .contact(let item): ContactRow(item)
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

  private static func fetch<Row: ItemRow>(_ type: Row.Type, id: String, in db: Database) throws -> StoredItem? {
    try Row.fetchOne(db, key: id).map { try StoredItem($0) }
  }

  private static func apply(_ change: ItemWrite, in db: Database) throws {
    switch change {
    case .insert(let item): try insert(item.row, in: db)
    case .update(let item): try update(item.row, in: db)
    case .put(let item): try put(item.row, in: db)
    case .remove(let kind, let id): try remove(kind.rowType, id: id, in: db)
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

  private static func put<Row: ItemRow>(_ row: Row, in db: Database) throws {
    if try Row.exists(db, key: row.id) {
      try row.update(db)
    } else {
      try requireHabit(of: row, in: db)
      try row.insert(db)
    }
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
