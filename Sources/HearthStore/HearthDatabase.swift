public import Foundation
import GRDB

/// The user's database: one SQLite file per profile, in WAL mode with full synchronous writes, migrated
/// when opened. Several processes may open the same file; writers wait for each other (busy timeout).
public final class HearthDatabase: Sendable {
  /// The file path (`:memory:` for ``inMemory()``).
  public let path: String
  let writer: any DatabaseWriter

  /// Opens (creating if needed) the database at `path`.
  /// - Throws: ``StoreError`` — a damaged file is reported, never reset.
  public init(path: String, busyTimeout: TimeInterval = 5) throws(StoreError) {
    self.path = path
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.foreignKeysEnabled = true
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    do {
      try Self.createPrivately(path: path)
    } catch {
      throw .unavailable(path: path, detail: "\(error)")
    }
    writer = try Self.open(path: path, configuration: configuration, patience: busyTimeout)
  }

  private init(path: String, writer: any DatabaseWriter) {
    (self.path, self.writer) = (path, writer)
  }

  /// A database of the same schema that lives in memory only and is gone with the object: the store of a turn
  /// that is not kept (`hearth ask --no-save`), so that it runs the very steps a kept one does.
  /// - Throws: ``StoreError`` when SQLite cannot open or migrate it.
  public static func inMemory() throws(StoreError) -> HearthDatabase {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    do {
      let queue = try DatabaseQueue(configuration: configuration)
      try Schema.migrator.migrate(queue)
      return HearthDatabase(path: ":memory:", writer: queue)
    } catch {
      throw translate(error, path: ":memory:")
    }
  }

  /// The database holds the user's chats, data and keys: a folder created for it is the user's alone (0700)
  /// and the file is readable by the user only (0600; SQLite gives its journal files the same mode),
  /// whatever the umask. An existing file is narrowed to 0600 too.
  private static func createPrivately(path: String) throws {
    let manager = FileManager.default
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !manager.fileExists(atPath: folder) {
      try manager.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    if !manager.fileExists(atPath: path) {
      // An empty file is an empty SQLite database; made here, it gets its mode before it holds anything.
      guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        throw CocoaError(.fileWriteNoPermission)
      }
    } else {
      // A file from before is narrowed where the file system allows modes at all; one that does not (a FAT
      // drive) keeps what it has rather than leaving the user without their data.
      try? manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
  }

  /// Opens and migrates, retrying while another process holds the file: switching to WAL and migrating
  /// need exclusive moments that SQLite reports as busy at once instead of waiting. Two processes opening
  /// a new profile together may both start the same migration (GRDB's migrator checks what is applied
  /// before its transaction); the loser's transaction rolls back and it tries again, finding it applied.
  private static func open(
    path: String, configuration: Configuration, patience: TimeInterval
  ) throws(StoreError)
    -> DatabasePool
  {
    let deadline = Date().addingTimeInterval(patience)
    while true {
      do {
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB switches its writer to `synchronous = NORMAL` when it enables WAL, after `prepareDatabase`
        // has run; the user's data gets FULL, so a committed answer survives a power cut.
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        try migrate(pool, path: path)
        return pool
      } catch let error as StoreError {
        throw error
      } catch is ConcurrentMigration where Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
      } catch let race as ConcurrentMigration {
        throw translate(race.underlying, path: path)
      } catch {
        let translated = translate(error, path: path)
        guard case .locked = translated, Date() < deadline else { throw translated }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
  }

  private static func migrate(_ writer: DatabasePool, path: String) throws {
    let migrator = Schema.migrator
    let (superseded, unknown) = try writer.read { db in
      let known = Set(migrator.migrations)
      let applied = try migrator.appliedIdentifiers(db)
      return (try migrator.hasBeenSuperseded(db), applied.subtracting(known))
    }
    if superseded { throw StoreError.newerVersion(path: path, unknownMigrations: Array(unknown)) }
    do {
      try migrator.migrate(writer)
    } catch let error as DatabaseError where [.SQLITE_ERROR, .SQLITE_CONSTRAINT].contains(error.resultCode) {
      // "table … already exists" / a duplicate migration id: another process applied it first.
      throw ConcurrentMigration(underlying: error)
    }
  }

  /// A migration that failed because another process ran the same one at the same moment.
  private struct ConcurrentMigration: Error {
    var underlying: DatabaseError
  }

  /// Maps SQLite failures to what the user needs to know.
  static func translate(_ error: any Error, path: String) -> StoreError {
    guard let error = error as? DatabaseError else {
      return .unavailable(path: path, detail: "\(error)")
    }
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
    case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path)
    case .SQLITE_FULL: return .diskFull(path: path)
    case .SQLITE_READONLY: return .readOnly(path: path)
    case .SQLITE_IOERR, .SQLITE_CANTOPEN: return inputOutputFailure(error, path: path)
    default: return .unavailable(path: path, detail: error.message ?? "\(error)")
    }
  }

  /// SQLite says only "disk I/O error" when the write-ahead log or its index cannot grow on a full disk, or a
  /// file cannot be made on a read-only one: the folder's file system tells which.
  private static func inputOutputFailure(_ error: DatabaseError, path: String) -> StoreError {
    let folder = (path as NSString).deletingLastPathComponent
    let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder)
    if let free = attributes?[.systemFreeSize] as? NSNumber, free.int64Value < 1 << 20 { return .diskFull(path: path) }
    if !FileManager.default.isWritableFile(atPath: folder) { return .readOnly(path: path) }
    return .unavailable(path: path, detail: error.message ?? "\(error)")
  }

  /// Runs a read, translating errors.
  func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try writer.read(body)
    } catch let error as StoreError {
      throw error
    } catch {
      throw Self.translate(error, path: path)
    }
  }

  /// Runs a write transaction, translating errors.
  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try writer.write(body)
    } catch let error as StoreError {
      throw error
    } catch {
      throw Self.translate(error, path: path)
    }
  }

  /// SQLite's own consistency check; `["ok"]` when the file is sound.
  public func integrityCheck() throws(StoreError) -> [String] {
    try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }
}
