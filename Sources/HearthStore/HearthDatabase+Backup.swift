import Foundation
import GRDB

extension HearthDatabase {
  /// Copies the database, as it stands at one moment, into a new file at `path` with SQLite's online backup:
  /// other connections and processes go on reading and writing meanwhile, and the copy holds every committed
  /// transaction up to that moment and nothing of one still open.
  /// The copy is one self-contained file (rollback journal, not WAL), ready to be read by ``inspectCopy(at:)``.
  /// - Returns: the copy's rows per table (``rowCounts()``).
  /// - Throws: ``StoreError``: ``StoreError/diskFull(path:)`` when the copy does not fit (the partial copy is
  ///   removed).
  @discardableResult
  public func snapshot(to path: String) throws(StoreError) -> [String: Int] {
    let manager = FileManager.default
    guard !manager.fileExists(atPath: path) else {
      throw .unavailable(path: path, detail: "a file of that name is already there")
    }
    // The copy holds the user's data: readable by the user only from its first byte.
    guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
      throw .unavailable(path: path, detail: "the file could not be created in its folder")
    }
    do {
      let copy = try DatabaseQueue(path: path)
      try writer.backup(to: copy)
      try copy.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        try db.execute(sql: "PRAGMA synchronous = FULL")
      }
      let counts = try copy.read { db in try Self.rowCounts(db) }
      try copy.close()
      return counts
    } catch {
      for suffix in ["", "-journal"] { try? manager.removeItem(atPath: path + suffix) }
      throw Self.translate(error, path: path)
    }
  }

  /// SQLite's quick check (pages and indexes, not every constraint): `["ok"]` when sound. Fast enough for every
  /// start; ``integrityCheck()`` is the full one.
  public func quickCheck() throws(StoreError) -> [String] {
    try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
  }

  /// SQLite's quick check of the database file at `path`, through a read-only connection opened before any
  /// other: nothing is written to the file (opening the profile for use writes to it), so a damaged one is found
  /// before a byte of it changes. A missing or empty file is sound: there is nothing to damage.
  public static func quickCheck(fileAt path: String) throws(StoreError) -> [String] {
    guard holdsBytes(path) else { return ["ok"] }
    return try readOnly(path) { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
  }

  /// Whether there is a file at `path` with anything in it (SQLite reads an empty file as an empty database).
  static func holdsBytes(_ path: String) -> Bool {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0
  }

  /// A saved setting read through a read-only connection (see ``quickCheck(fileAt:)``); `nil` when the file
  /// cannot say.
  public static func setting<Value: Decodable>(fileAt path: String, _ key: String, as type: Value.Type) -> Value? {
    let text = try? readOnly(path) { db in
      try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    }
    return text.flatMap { $0 }.flatMap { try? JSONDecoder().decode(type, from: Data($0.utf8)) }
  }

  static func readOnly<T>(_ path: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
    var configuration = Configuration()
    configuration.readonly = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? queue.close() }
      return try queue.inDatabase(body)
    } catch {
      throw translate(error, path: path)
    }
  }

  /// Rows in each ordinary table, the full-text indexes' own tables among them: what a backup records to compare
  /// a restore with.
  public func rowCounts() throws(StoreError) -> [String: Int] {
    try read { db in try Self.rowCounts(db) }
  }

  /// A copy made by ``snapshot(to:)`` (or restored from a backup), opened read-only and checked in full
  /// without being migrated or changed: SQLite's integrity check and the rows per table.
  public static func inspectCopy(at path: String) throws(StoreError) -> (integrity: [String], rowCounts: [String: Int])
  {
    var configuration = Configuration()
    configuration.readonly = true
    do {
      let copy = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? copy.close() }
      return try copy.read { db in
        (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try rowCounts(db))
      }
    } catch {
      throw translate(error, path: path)
    }
  }

  private static func rowCounts(_ db: Database) throws -> [String: Int] {
    let tables = try String.fetchAll(
      db,
      sql: """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
        """)
    var counts: [String: Int] = [:]
    for table in tables {
      counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
    }
    return counts
  }

  /// Every row of every ordinary table, in rowid order, as text: for tests that compare two databases item for
  /// item.
  public func allRows() throws(StoreError) -> [String: [[String]]] {
    try read { db in
      let tables = try String.fetchAll(
        db,
        sql: """
          SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
          AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND sql NOT LIKE '%WITHOUT ROWID%'
          """)
      var all: [String: [[String]]] = [:]
      for table in tables {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
        all[table] = rows.map { row in row.databaseValues.map(\.description) }
      }
      return all
    }
  }
}

extension HearthDatabase {
  /// Points the memory's uploaded documents at their new folder after a restore into another profile folder:
  /// their sources are named by their path (`file:/…/documents/x.md`), and so are the chunks and the citations
  /// that lead to them. Returns how many sources moved.
  @discardableResult
  public func relocateDocuments(from old: String, to new: String) throws(StoreError) -> Int {
    guard old != new else { return 0 }
    return try write { db in
      try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
      // SQLite counts characters as code points.
      let prefix = old + "/"
      let moved = try String.fetchAll(
        db, sql: "SELECT id FROM memorySource WHERE substr(location, 1, ?) = ?",
        arguments: [prefix.unicodeScalars.count, prefix])
      let oldID = "file:" + old
      let newID = "file:" + new
      for id in moved {
        let relocated = id.hasPrefix(oldID + "/") ? newID + id.dropFirst(oldID.count) : id
        try db.execute(
          sql: "UPDATE memorySource SET id = ?, location = ? || substr(location, ?) WHERE id = ?",
          arguments: [relocated, new, old.unicodeScalars.count + 1, id])
        try db.execute(sql: "UPDATE memoryChunk SET sourceID = ? WHERE sourceID = ?", arguments: [relocated, id])
      }
      // Citations keep the source's id and its location in JSON, with or without escaped slashes; the folder
      // followed by a slash is in both.
      for (from, to) in [(old + "/", new + "/"), (Self.escaped(old) + "\\/", Self.escaped(new) + "\\/")] {
        try db.execute(
          sql: "UPDATE messageCitations SET citations = replace(citations, ?, ?) WHERE instr(citations, ?) > 0",
          arguments: [from, to, from])
      }
      return moved.count
    }
  }

  private static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "/", with: "\\/") }
}
