import GRDB

/// The database schema. Migrations are append-only: once shipped, one is never edited; changes go in a new
/// migration with a new name.
enum Schema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-sessions-messages") { db in
      try db.create(table: "session") { t in
        t.primaryKey("id", .text)
        t.column("title", .text).notNull()
        t.column("createdAt", .double).notNull()
        t.column("updatedAt", .double).notNull().indexed()
        t.column("isPinned", .boolean).notNull().defaults(to: false)
        t.column("isArchived", .boolean).notNull().defaults(to: false)
        t.column("model", .text)
        t.column("droppedMessageCount", .integer).notNull().defaults(to: 0)
        t.column("summary", .text)
      }
      try db.create(table: "message") { t in
        t.primaryKey("id", .text)
        t.column("sessionID", .text).notNull().references("session", onDelete: .cascade)
        t.column("position", .integer).notNull()
        t.column("role", .text).notNull()
        t.column("content", .text).notNull()
        t.column("thinking", .text).notNull().defaults(to: "")
        t.column("state", .text).notNull()
        t.column("stopReason", .text)
        t.column("error", .text)
        t.column("promptTokens", .integer)
        t.column("generatedTokens", .integer)
        t.column("timeToFirstTokenMs", .double)
        t.column("generationTokensPerSecond", .double)
        t.column("attachments", .text).notNull().defaults(to: "[]")
        t.column("createdAt", .double).notNull()
        t.column("updatedAt", .double).notNull()
        t.uniqueKey(["sessionID", "position"])
      }
      try db.create(index: "message_state", on: "message", columns: ["state"])
      try db.create(virtualTable: "session_fts", using: FTS5()) { t in
        t.synchronize(withTable: "session")
        t.tokenizer = .porter(wrapping: .unicode61())
        t.column("title")
      }
      try db.create(virtualTable: "message_fts", using: FTS5()) { t in
        t.synchronize(withTable: "message")
        t.tokenizer = .porter(wrapping: .unicode61())
        t.column("content")
      }
    }
    migrator.registerMigration("v2-settings") { db in
      try db.create(table: "setting") { t in
        t.primaryKey("key", .text)
        t.column("value", .text).notNull()
      }
    }
    migrator.registerMigration("v3-personal-data") { db in
      try PersonalSchema.create(db)
    }
    migrator.registerMigration("v4-action-log") { db in
      try db.create(table: "actionRecord") { t in
        t.primaryKey("id", .text)
        t.column("sessionID", .text).indexed()
        t.column("messageID", .text).indexed()
        t.column("kind", .text).notNull()
        t.column("action", .text)
        t.column("block", .text).notNull()
        t.column("state", .text).notNull()
        t.column("summary", .text).notNull()
        t.column("itemKind", .text)
        t.column("itemID", .text)
        t.column("before", .text)
        t.column("after", .text)
        t.column("result", .text)
        t.column("reason", .text)
        t.column("createdAt", .double).notNull().indexed()
        t.column("updatedAt", .double).notNull()
      }
    }
    migrator.registerMigration("v5-memory") { db in
      try MemorySchema.create(db)
    }
    migrator.registerMigration("v6-memory-vocabulary") { db in
      // How many chunks hold each (stemmed) word: lets a keyword search leave out words too common to tell
      // chunks apart. A view over the keyword index; it stores nothing.
      try db.execute(sql: "CREATE VIRTUAL TABLE memoryChunk_vocab USING fts5vocab(memoryChunk_fts, 'row')")
    }
    migrator.registerMigration("v7-telemetry-provider") { db in
      try db.alter(table: "message") { t in t.add(column: "provider", .text) }
      try TelemetrySchema.create(db)
    }
    migrator.registerMigration("v8-stored-responses") { db in
      try ResponseSchema.create(db)
    }
    migrator.registerMigration("v9-message-branches") { db in
      try BranchRows.create(db)
    }
    migrator.registerMigration("v10-imported-sessions") { db in
      // Sessions read from a file: Hearth did not write what they hold, so it is never trusted as its own.
      try db.create(table: "importedSession") { t in
        t.primaryKey("sessionID", .text).references("session", onDelete: .cascade)
      }
    }
    migrator.registerMigration("v11-action-source") { db in
      // Who asked for an action that was not the assistant's own answer (an MCP client), for the audit log.
      try db.alter(table: "actionRecord") { t in t.add(column: "source", .text) }
    }
    migrator.registerMigration("v12-notices") { db in
      try NoticeSchema.create(db)
    }
    migrator.registerMigration("v13-automations") { db in
      try AutomationSchema.create(db)
    }
    migrator.registerMigration("v14-attachments") { db in
      // The text read from files attached to messages, given to the model as data with them.
      try AttachmentSchema.create(db)
    }
    migrator.registerMigration("v15-repeating-reminders") { db in
      try db.alter(table: "reminder") { t in t.add(column: "recurrence", .text) }
    }
    migrator.registerMigration("v16-facts") { db in
      try FactRow.create(db)
    }
    migrator.registerMigration("v17-accounts") { db in
      try SyncedItemRow.createTables(db)
    }
    migrator.registerMigration("v18-personas") { db in
      try PersonaRow.create(db)
    }
    migrator.registerMigration("v19-sync-checks") { db in
      // A daily listing beside the sync token catches a server that keeps its tokens badly.
      try db.alter(table: "syncCollection") { t in
        t.add(column: "checkedAt", .double)
        t.add(column: "tokenMissedChanges", .boolean).notNull().defaults(to: false)
      }
    }
    migrator.registerMigration("v20-paired-devices") { db in
      // Phones and other computers let in with a pairing code, each with a secret of its own, and the browsers
      // that asked for notifications.
      try DeviceRow.create(db)
      try PushSubscriptionRow.create(db)
    }
    migrator.registerMigration("v21-attachment-images") { db in
      // An attached image's bytes, for its thumbnail and full-size view in the chat.
      try db.alter(table: "attachment") { t in t.add(column: "content", .blob) }
    }
    migrator.registerMigration("v22-chat-templates") { db in
      try ChatTemplateRow.create(db)
    }
    migrator.registerMigration("v23-served-collections") { db in
      // Hearth as a CalDAV/CardDAV server: the journal its sync tokens count, the bodies clients stored, and
      // the calendars they made empty.
      try ServedMemberRow.create(db)
    }
    return migrator
  }
}
