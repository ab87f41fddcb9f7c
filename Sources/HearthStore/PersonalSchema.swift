import GRDB

/// Tables for the user's own data. Lists and nested values (tags, phones, a recurrence rule) are JSON text;
/// what queries filter or sort on has a column of its own.
enum PersonalSchema {
  static func create(_ db: Database) throws {
    try db.create(table: "calendarEvent") { t in
      t.primaryKey("id", .text)
      t.column("title", .text).notNull()
      t.column("calendar", .text).notNull()
      t.column("zone", .text).notNull()
      t.column("isAllDay", .boolean).notNull()
      t.column("start", .text).notNull()
      t.column("end", .text).notNull()
      // Approximate instants (floating times read as UTC) that bound the series, for candidate queries;
      // `lastEndsAt` is NULL for a series without end.
      t.column("startsAt", .double).notNull().indexed()
      t.column("lastEndsAt", .double)
      t.column("location", .text)
      t.column("notes", .text)
      t.column("isBusy", .boolean).notNull()
      t.column("recurrence", .text)
      t.column("exceptions", .text).notNull()
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    try db.create(table: "reminder") { t in
      t.primaryKey("id", .text)
      t.column("title", .text).notNull()
      t.column("notes", .text)
      t.column("due", .text)
      t.column("dueAt", .double).indexed()
      t.column("priority", .text).notNull()
      t.column("list", .text).notNull()
      t.column("completedAt", .double)
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    try db.create(table: "note") { t in
      t.primaryKey("id", .text)
      t.column("title", .text).notNull()
      t.column("body", .text).notNull()
      t.column("tags", .text).notNull()
      t.column("isPinned", .boolean).notNull()
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull().indexed()
    }
    try db.create(virtualTable: "note_fts", using: FTS5()) { t in
      t.synchronize(withTable: "note")
      t.tokenizer = .porter(wrapping: .unicode61())
      t.column("title")
      t.column("body")
    }
    try db.create(table: "habit") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull()
      t.column("schedule", .text).notNull()
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    try db.create(table: "habitLog") { t in
      t.primaryKey("id", .text)
      t.column("habitID", .text).notNull().references("habit", onDelete: .cascade).indexed()
      t.column("at", .double).notNull()
      t.column("note", .text)
    }
    try db.create(table: "contact") { t in
      t.primaryKey("id", .text)
      t.column("fullName", .text).notNull()
      t.column("givenName", .text)
      t.column("familyName", .text)
      t.column("phones", .text).notNull()
      t.column("emails", .text).notNull()
      t.column("birthday", .text)
      t.column("organization", .text)
      t.column("notes", .text)
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    try db.create(virtualTable: "contact_fts", using: FTS5()) { t in
      t.synchronize(withTable: "contact")
      t.tokenizer = .unicode61(diacritics: .remove)
      t.column("fullName")
      t.column("givenName")
      t.column("familyName")
      t.column("organization")
    }
  }
}
