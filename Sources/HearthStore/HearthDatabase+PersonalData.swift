public import Foundation
import GRDB
public import HearthCore

// Calendar events and reminders.
extension HearthDatabase {
  /// Events whose series may touch `range` (a superset: floating times are placed with a day's margin);
  /// expand them with ``CalendarEvent/occurrences(overlapping:local:)``. Without a range: every event.
  public func events(touching range: DateInterval? = nil) throws(StoreError) -> [CalendarEvent] {
    try fetchItems(EventRow.self) { db in
      guard let range else { return try EventRow.order(Column("startsAt")).fetchAll(db) }
      let margin = 2.0 * 86_400
      return try EventRow.filter(
        Column("startsAt") < range.end.timeIntervalSince1970 + margin
          && (Column("lastEndsAt") == nil || Column("lastEndsAt") > range.start.timeIntervalSince1970 - margin)
      ).order(Column("startsAt")).fetchAll(db)
    }
  }

  /// Reminders, open ones first, then by due time (undated last) and priority.
  public func reminders(list: String? = nil, includeCompleted: Bool = true) throws(StoreError) -> [Reminder] {
    try fetchItems(ReminderRow.self) { db in
      var request = ReminderRow.all()
      // "my home list" finds the list "Home".
      if let list { request = request.filter(sql: "list = ? COLLATE NOCASE", arguments: [list]) }
      if !includeCompleted { request = request.filter(Column("completedAt") == nil) }
      return try request.order(
        sql:
          "completedAt IS NOT NULL, dueAt IS NULL, dueAt, CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END, createdAt"
      ).fetchAll(db)
    }
  }

}

// Notes and contacts, with full-text search.
extension HearthDatabase {
  /// Notes, pinned first, most recently changed first; only those with `tag` when given.
  public func notes(tag: String? = nil) throws(StoreError) -> [Note] {
    let notes = try fetchItems(NoteRow.self) { db in
      try NoteRow.order(Column("isPinned").desc, Column("updatedAt").desc).fetchAll(db)
    }
    guard let tag else { return notes }
    return notes.filter { $0.tags.contains { $0.caseInsensitiveCompare(tag) == .orderedSame } }
  }

  /// Notes whose title or body has every word of `query` (stemmed), best first, with an excerpt.
  public func searchNotes(_ query: String, limit: Int = 20) throws(StoreError) -> [(note: Note, excerpt: String)] {
    guard let pattern = FTS5Pattern(matchingAllPrefixesIn: query), limit > 0 else { return [] }
    return try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT note.*, snippet(note_fts, 1, ?, ?, '…', 12) AS excerpt FROM note_fts
          JOIN note ON note.rowid = note_fts.rowid WHERE note_fts MATCH ? ORDER BY bm25(note_fts, 5.0, 1.0) LIMIT ?
          """, arguments: [SearchExcerpt.openMark, SearchExcerpt.closeMark, pattern, limit]
      ).map { row in
        let note = try NoteRow(row: row).item()
        // The words around the match as the note reads, not its Markdown.
        return (note, SearchExcerpt.make(shown: MarkdownText.plain(note.body), snippet: row["excerpt"] ?? ""))
      }
    }
  }

  /// Contacts by name.
  public func contacts() throws(StoreError) -> [Contact] {
    try fetchItems(ContactRow.self) { db in
      try ContactRow.order(Column("fullName").collating(.localizedCaseInsensitiveCompare)).fetchAll(db)
    }
  }

  /// Contacts whose names or organisation start with every word of `query` ("ann mar" finds Anna Martin;
  /// accents are ignored), best first.
  public func searchContacts(_ query: String, limit: Int = 20) throws(StoreError) -> [Contact] {
    guard let pattern = FTS5Pattern(matchingAllPrefixesIn: query), limit > 0 else { return [] }
    return try read { db in
      try ContactRow.fetchAll(
        db,
        sql: """
          SELECT contact.* FROM contact_fts JOIN contact ON contact.rowid = contact_fts.rowid
          WHERE contact_fts MATCH ? ORDER BY bm25(contact_fts) LIMIT ?
          """, arguments: [pattern, limit]
      ).map { try $0.item() }
    }
  }

}

// Habits and their logs.
extension HearthDatabase {
  public func habits() throws(StoreError) -> [Habit] {
    try fetchItems(HabitRow.self) { db in try HabitRow.order(Column("createdAt")).fetchAll(db) }
  }

  /// A habit's logs since `since` (all when `nil`), oldest first.
  public func habitLogs(_ habitID: String, since: Date? = nil) throws(StoreError) -> [HabitLog] {
    try fetchItems(HabitLogRow.self) { db in
      var request = HabitLogRow.filter(Column("habitID") == habitID)
      if let since { request = request.filter(Column("at") >= since.timeIntervalSince1970) }
      return try request.order(Column("at")).fetchAll(db)
    }
  }

}
