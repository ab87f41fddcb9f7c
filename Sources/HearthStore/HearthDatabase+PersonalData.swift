public import Foundation
import GRDB
public import HearthCore

// Calendar events and reminders.
extension HearthDatabase {
  /// The event with this id, if any.
  public func event(_ id: String) throws(StoreError) -> CalendarEvent? { try fetchItem(EventRow.self, id: id) }

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

  public func insertEvent(_ event: CalendarEvent) throws(StoreError) { try insertItem(EventRow(event)) }
  @discardableResult public func updateEvent(_ event: CalendarEvent) throws(StoreError) -> CalendarEvent {
    try updateItem(EventRow(event))
  }
  @discardableResult public func deleteEvent(_ id: String) throws(StoreError) -> CalendarEvent {
    try deleteItem(EventRow.self, id: id)
  }
  public func importEvents(_ events: [CalendarEvent]) throws(StoreError) -> ImportCounts {
    try importItems(events.map(EventRow.init))
  }

  /// The reminder with this id, if any.
  public func reminder(_ id: String) throws(StoreError) -> Reminder? { try fetchItem(ReminderRow.self, id: id) }

  /// Reminders, open ones first, then by due time (undated last) and priority.
  public func reminders(list: String? = nil, includeCompleted: Bool = true) throws(StoreError) -> [Reminder] {
    try fetchItems(ReminderRow.self) { db in
      var request = ReminderRow.all()
      if let list { request = request.filter(Column("list") == list) }
      if !includeCompleted { request = request.filter(Column("completedAt") == nil) }
      return try request.order(
        sql:
          "completedAt IS NOT NULL, dueAt IS NULL, dueAt, CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END, createdAt"
      ).fetchAll(db)
    }
  }

  public func insertReminder(_ reminder: Reminder) throws(StoreError) { try insertItem(ReminderRow(reminder)) }
  @discardableResult public func updateReminder(_ reminder: Reminder) throws(StoreError) -> Reminder {
    try updateItem(ReminderRow(reminder))
  }
  @discardableResult public func deleteReminder(_ id: String) throws(StoreError) -> Reminder {
    try deleteItem(ReminderRow.self, id: id)
  }
  public func importReminders(_ reminders: [Reminder]) throws(StoreError) -> ImportCounts {
    try importItems(reminders.map(ReminderRow.init))
  }
}

// Notes and contacts, with full-text search.
extension HearthDatabase {
  public func note(_ id: String) throws(StoreError) -> Note? { try fetchItem(NoteRow.self, id: id) }

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
          SELECT note.*, snippet(note_fts, 1, '[', ']', '…', 12) AS excerpt FROM note_fts
          JOIN note ON note.rowid = note_fts.rowid WHERE note_fts MATCH ? ORDER BY bm25(note_fts, 5.0, 1.0) LIMIT ?
          """, arguments: [pattern, limit]
      ).map { row in (try NoteRow(row: row).item(), row["excerpt"] as String? ?? "") }
    }
  }

  public func insertNote(_ note: Note) throws(StoreError) { try insertItem(NoteRow(note)) }
  @discardableResult public func updateNote(_ note: Note) throws(StoreError) -> Note { try updateItem(NoteRow(note)) }
  @discardableResult public func deleteNote(_ id: String) throws(StoreError) -> Note {
    try deleteItem(NoteRow.self, id: id)
  }
  public func importNotes(_ notes: [Note]) throws(StoreError) -> ImportCounts {
    try importItems(notes.map(NoteRow.init))
  }

  public func contact(_ id: String) throws(StoreError) -> Contact? { try fetchItem(ContactRow.self, id: id) }

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

  public func insertContact(_ contact: Contact) throws(StoreError) { try insertItem(ContactRow(contact)) }
  @discardableResult public func updateContact(_ contact: Contact) throws(StoreError) -> Contact {
    try updateItem(ContactRow(contact))
  }
  @discardableResult public func deleteContact(_ id: String) throws(StoreError) -> Contact {
    try deleteItem(ContactRow.self, id: id)
  }
  public func importContacts(_ contacts: [Contact]) throws(StoreError) -> ImportCounts {
    try importItems(contacts.map(ContactRow.init))
  }
}

// Habits and their logs.
extension HearthDatabase {
  public func habit(_ id: String) throws(StoreError) -> Habit? { try fetchItem(HabitRow.self, id: id) }

  public func habits() throws(StoreError) -> [Habit] {
    try fetchItems(HabitRow.self) { db in try HabitRow.order(Column("createdAt")).fetchAll(db) }
  }

  public func insertHabit(_ habit: Habit) throws(StoreError) { try insertItem(HabitRow(habit)) }
  @discardableResult public func updateHabit(_ habit: Habit) throws(StoreError) -> Habit {
    try updateItem(HabitRow(habit))
  }
  /// Deletes a habit and its logs.
  @discardableResult public func deleteHabit(_ id: String) throws(StoreError) -> Habit {
    try deleteItem(HabitRow.self, id: id)
  }

  /// A habit's logs since `since` (all when `nil`), oldest first.
  public func habitLogs(_ habitID: String, since: Date? = nil) throws(StoreError) -> [HabitLog] {
    try fetchItems(HabitLogRow.self) { db in
      var request = HabitLogRow.filter(Column("habitID") == habitID)
      if let since { request = request.filter(Column("at") >= since.timeIntervalSince1970) }
      return try request.order(Column("at")).fetchAll(db)
    }
  }

  public func habitLog(_ id: String) throws(StoreError) -> HabitLog? { try fetchItem(HabitLogRow.self, id: id) }

  /// Records a log; the habit must exist.
  public func insertHabitLog(_ log: HabitLog) throws(StoreError) {
    try write { db in
      guard try HabitRow.exists(db, key: log.habitID) else {
        throw StoreError.itemNotFound(kind: "habit", id: log.habitID)
      }
      try HabitLogRow(log).insert(db)
    }
  }

  @discardableResult public func deleteHabitLog(_ id: String) throws(StoreError) -> HabitLog {
    try deleteItem(HabitLogRow.self, id: id)
  }
}
