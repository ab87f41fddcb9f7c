import Foundation
import GRDB
public import HearthCore

/// What one import wrote.
public struct ImportCounts: Sendable, Hashable, Codable {
  /// Items that were new.
  public var added: Int
  /// Items whose id was already there, replaced by the file's version.
  public var replaced: Int

  public init(added: Int = 0, replaced: Int = 0) {
    self.added = added
    self.replaced = replaced
  }
}

/// Generic storage for the item kinds; each kind's public API is a thin layer over these.
extension HearthDatabase {
  func fetchItem<Row: ItemRow>(_ type: Row.Type, id: String) throws(StoreError) -> Row.Item? {
    try read { db in try Row.fetchOne(db, key: id)?.item() }
  }

  func fetchItems<Row: ItemRow>(
    _ type: Row.Type, _ request: @escaping @Sendable (Database) throws -> [Row]
  )
    throws(StoreError) -> [Row.Item]
  {
    try read { db in try request(db).map { try $0.item() } }
  }
}

extension ItemKind {
  var table: String { rowType.databaseTableName }

  /// The row type that stores this kind.
  var rowType: any ItemRow.Type {
    switch self {
    case .event: EventRow.self
    case .reminder: ReminderRow.self
    case .note: NoteRow.self
    case .habit: HabitRow.self
    case .habitLog: HabitLogRow.self
    case .contact: ContactRow.self
    case .fact: FactRow.self
    }
  }
}

extension HearthDatabase {
  /// Ids of `kind` equal to `reference` or, failing that, starting with it (at most `limit`).
  public func itemIDs(_ kind: ItemKind, matching reference: String, limit: Int = 5) throws(StoreError) -> [String] {
    try read { db in
      if try String.fetchOne(db, sql: "SELECT id FROM \(kind.table) WHERE id = ?", arguments: [reference]) != nil {
        return [reference]
      }
      let escaped = reference.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_")
      return try String.fetchAll(
        db, sql: "SELECT id FROM \(kind.table) WHERE id LIKE ? ESCAPE '\\' LIMIT ?", arguments: [escaped + "%", limit])
    }
  }
}
