public import HearthCore

/// Why the database could not be used.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// The file is not a SQLite database, or is damaged.
  case corrupt(path: String, detail: String)
  /// Another process holds the database longer than the busy timeout.
  case locked(path: String)
  /// A newer version of Hearth has migrated this database.
  case newerVersion(path: String, unknownMigrations: [String])
  /// The database could not be opened or written.
  case unavailable(path: String, detail: String)
  /// The disk holding the database is full: the write was rolled back whole, and works again once there is space.
  case diskFull(path: String)
  /// The database's file or folder cannot be written (a read-only file system or permissions).
  case readOnly(path: String)
  /// A session does not exist.
  case sessionNotFound(String)
  /// A message does not exist.
  case messageNotFound(String)
  /// An import file is not a valid export.
  case invalidImport(String)
  /// No item of this kind (event, reminder, note, habit, contact) has the id.
  case itemNotFound(kind: String, id: String)
  /// An item of this kind with the id exists already.
  case duplicateItem(kind: String, id: String)

  public var description: String {
    switch self {
    case .corrupt(let path, let detail):
      "the database \(path) is damaged or not a Hearth database (\(detail)); Hearth stopped there: run hearth doctor, and restore a backup (hearth backup list)"
    case .locked(let path):
      "the database \(path) is locked by another process; try again"
    case .newerVersion(let path, let migrations):
      "the database \(path) was written by a newer version of Hearth (\(migrations.sorted().joined(separator: ", "))); upgrade Hearth to open it"
    case .unavailable(let path, let detail):
      "cannot use the database \(path): \(detail)"
    case .diskFull(let path):
      "the disk holding \(path) is full: nothing was written and nothing was lost; free some space and try again"
    case .readOnly(let path):
      "the database \(path) cannot be written (a read-only file system, or its permissions); nothing was changed"
    case .sessionNotFound(let id): "no session \(id)"
    case .messageNotFound(let id): "no message \(id)"
    case .invalidImport(let detail): "cannot import: \(detail)"
    case .itemNotFound(let kind, let id): "no \(kind) with id \(id)"
    case .duplicateItem(let kind, let id): "a \(kind) with id \(id) exists already"
    }
  }
}

extension StoreError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .sessionNotFound, .messageNotFound, .itemNotFound: ErrorCategory(.notFound)
    case .duplicateItem: ErrorCategory(.conflict, code: "duplicate_item")
    case .invalidImport: ErrorCategory(.invalid)
    case .locked: ErrorCategory(.unavailable, code: "database_locked")
    case .diskFull: ErrorCategory(.unavailable, code: "disk_full")
    case .readOnly: ErrorCategory(.unavailable, code: "read_only")
    case .corrupt, .newerVersion, .unavailable: ErrorCategory(.internalFailure, code: "database_error")
    }
  }
}
