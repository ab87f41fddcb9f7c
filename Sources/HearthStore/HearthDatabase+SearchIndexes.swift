import GRDB

extension HearthDatabase {
  /// The full-text indexes, each kept in step with the table it indexes by triggers.
  public static let searchIndexes = ["session_fts", "message_fts", "note_fts", "contact_fts", "memoryChunk_fts"]

  /// Checks each full-text index against the rows it indexes (FTS5's own integrity check, content included) and
  /// rebuilds from those rows every index that does not match them: an index is derived data, so nothing of the
  /// user's is lost by rebuilding it. SQLite's `integrity_check` does not look inside these indexes.
  /// - Returns: the indexes that were rebuilt; empty when all of them matched.
  /// - Throws: ``StoreError`` when an index cannot be read or rebuilt (the database itself is then damaged).
  @discardableResult
  public func repairSearchIndexes() throws(StoreError) -> [String] {
    // The check is an INSERT of FTS5's: it needs a writing connection, and the rebuild follows in the same
    // transaction, so no write of another process falls between them.
    try write { db in
      let damaged = try Self.searchIndexes.filter { index in
        do {
          try db.execute(sql: "INSERT INTO \(index)(\(index), rank) VALUES ('integrity-check', 1)")
          return false
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
          return true
        }
      }
      for index in damaged { try db.execute(sql: "INSERT INTO \(index)(\(index)) VALUES ('rebuild')") }
      return damaged
    }
  }
}
