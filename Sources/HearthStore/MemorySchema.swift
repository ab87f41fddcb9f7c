import GRDB

/// Tables of the assistant's memory: what was indexed (sources), the pieces it was cut into with their
/// vectors (chunks), a keyword index over the pieces, and which embedding model made the vectors.
enum MemorySchema {
  static func create(_ db: Database) throws {
    try db.create(table: "memorySource") { t in
      t.primaryKey("id", .text)
      t.column("collection", .text).notNull().indexed()
      t.column("title", .text).notNull()
      t.column("location", .text).notNull()
      t.column("contentHash", .text).notNull()
      t.column("byteCount", .integer).notNull()
      t.column("chunkCount", .integer).notNull()
      t.column("indexedAt", .double).notNull()
    }
    // The integer row id is what the vector index and the keyword index share.
    try db.create(table: "memoryChunk") { t in
      t.autoIncrementedPrimaryKey("rowid")
      t.column("id", .text).notNull().unique()
      t.column("sourceID", .text).notNull().indexed().references("memorySource", onDelete: .cascade)
      t.column("collection", .text).notNull()
      t.column("ordinal", .integer).notNull()
      t.column("heading", .text).notNull()
      t.column("text", .text).notNull()
      t.column("start", .integer).notNull()
      t.column("end", .integer).notNull()
      t.column("tokenCount", .integer).notNull()
      // Little-endian float32, L2-normalised.
      t.column("vector", .blob).notNull()
    }
    try db.create(virtualTable: "memoryChunk_fts", using: FTS5()) { t in
      t.synchronize(withTable: "memoryChunk")
      t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove))
      t.column("heading")
      t.column("text")
    }
    // The sources an answer drew on, and chats whose user turned memory off.
    try db.create(table: "messageCitations") { t in
      t.primaryKey("messageID", .text).references("message", onDelete: .cascade)
      t.column("citations", .text).notNull()
    }
    try db.create(table: "sessionWithoutMemory") { t in
      t.primaryKey("sessionID", .text).references("session", onDelete: .cascade)
    }
    // Whatever removes a chat or a note (the user, pruning by the history policy, another process) takes its
    // memory with it: a forgotten chat must not be recalled.
    try db.execute(
      sql: """
        CREATE TRIGGER memoryForgetsSession AFTER DELETE ON session BEGIN
          DELETE FROM memorySource WHERE id = 'chat:' || OLD.id;
        END;
        CREATE TRIGGER memoryForgetsNote AFTER DELETE ON note BEGIN
          DELETE FROM memorySource WHERE id = 'note:' || OLD.id;
        END;
        """)
    try db.create(table: "memoryIndex") { t in
      t.primaryKey("key", .text)
      t.column("value", .text).notNull()
    }
  }
}
