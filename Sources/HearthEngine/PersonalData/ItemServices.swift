public import Foundation
public import HearthCore
public import HearthInterchange
import HearthStore

/// The user's reminders.
public struct ReminderService: Sendable {
  let context: ItemContext

  public func reminder(_ reference: String) throws -> Reminder {
    let id = try context.resolve(.reminder, reference)
    guard let reminder = try context.database.reminder(id) else {
      throw StoreError.itemNotFound(kind: "reminder", id: id)
    }
    return reminder
  }

  /// Reminders, open first, then by due time.
  public func list(list: String? = nil, includeCompleted: Bool = true) throws -> [Reminder] {
    try context.database.reminders(list: list, includeCompleted: includeCompleted)
  }

  /// Open reminders due by the end of `day` (overdue ones included).
  public func due(by day: LocalDate) throws -> [Reminder] {
    let end = LocalDateTime(startOf: day.adding(days: 1)).instant(in: context.timeZone)
    return try list(includeCompleted: false).filter {
      ($0.due?.instant(local: context.timeZone) ?? .distantFuture) < end
    }
  }

  public func create(_ reminder: Reminder) throws -> Reminder {
    let reminder = try context.created(reminder)
    try context.database.insertReminder(reminder)
    return reminder
  }

  public func update(_ reminder: Reminder) throws -> Reminder {
    let reminder = try context.changed(reminder)
    try context.database.updateReminder(reminder)
    return reminder
  }

  /// Marks a reminder done (or open again).
  public func complete(_ reference: String, done: Bool = true) throws -> Reminder {
    var reminder = try reminder(reference)
    reminder.completedAt = done ? (reminder.completedAt ?? context.now()) : nil
    return try update(reminder)
  }

  @discardableResult
  public func delete(_ reference: String) throws -> Reminder {
    try context.database.deleteReminder(try context.resolve(.reminder, reference))
  }

  /// Imports the to-dos (VTODO) of an iCalendar file.
  public func importFile(_ data: Data) throws -> ImportSummary {
    let contents = try ICalendar.read(data, local: context.timeZone)
    return try context.importItems(
      contents.reminders, kind: "reminder", name: \.title,
      write: { reminders throws(StoreError) in try context.database.importReminders(reminders) })
  }

  /// The reminders as an iCalendar file of to-dos.
  public func exportFile() throws -> String { ICalendar.write(events: [], reminders: try list()) }
}

/// The user's Markdown notes.
public struct NoteService: Sendable {
  let context: ItemContext

  public func note(_ reference: String) throws -> Note {
    let id = try context.resolve(.note, reference)
    guard let note = try context.database.note(id) else { throw StoreError.itemNotFound(kind: "note", id: id) }
    return note
  }

  /// Notes, pinned first, newest change first.
  public func list(tag: String? = nil) throws -> [Note] { try context.database.notes(tag: tag) }

  /// Notes matching every word of `query` (prefixes count), with an excerpt.
  public func search(_ query: String, limit: Int = 20) throws -> [(note: Note, excerpt: String)] {
    try context.database.searchNotes(query, limit: limit)
  }

  public func create(_ note: Note) throws -> Note {
    let note = try context.created(Self.normalized(note))
    try context.database.insertNote(note)
    return note
  }

  public func update(_ note: Note) throws -> Note {
    let note = try context.changed(Self.normalized(note))
    try context.database.updateNote(note)
    return note
  }

  static func normalized(_ note: Note) -> Note {
    var note = note
    note.tags = Note.normalized(note.tags)
    return note
  }

  /// Adds text to the end of a note, on a new paragraph.
  public func append(_ text: String, to reference: String) throws -> Note {
    var note = try note(reference)
    note.body = note.body.isEmpty ? text : note.body.trimmingCharacters(in: .newlines) + "\n\n" + text
    return try update(note)
  }

  @discardableResult
  public func delete(_ reference: String) throws -> Note {
    try context.database.deleteNote(try context.resolve(.note, reference))
  }

  /// Imports a folder of Markdown files.
  public func importFolder(_ folder: URL) throws -> ImportSummary {
    let parsed = try MarkdownNotes.readFolder(folder)
    return try context.importItems(
      parsed, kind: "note", name: \.title,
      write: { notes throws(StoreError) in try context.database.importNotes(notes) })
  }

  /// Imports one Markdown file; `name` is its file name (the title when the file gives none).
  public func importFile(_ data: Data, name: String) throws -> ImportSummary {
    let text = try InterchangeLimits.text(of: data, format: "Markdown")
    var parsed = ParsedFile<Note>()
    do {
      let (note, dropped) = try MarkdownNotes.read(text, path: name)
      parsed.items = [(note, 1)]
      for key in dropped { parsed.droppedProperties["front matter \(key)", default: 0] += 1 }
    } catch {
      parsed.skipped = [SkippedItem(line: error.line, item: name, reason: error.reason)]
    }
    return try context.importItems(
      parsed, kind: "note", name: \.title,
      write: { notes throws(StoreError) in try context.database.importNotes(notes) })
  }

  /// Writes every note into `folder` as `Title.md`; refuses to overwrite a file unless `replacing`.
  /// - Returns: the files written.
  public func exportFolder(_ folder: URL, replacing: Bool = false) throws -> [URL] {
    let notes = try list()
    let files = MarkdownNotes.fileNames(for: notes).map { folder.appendingPathComponent($0) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    if !replacing, let existing = files.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      throw ExportError.fileExists(existing.path)
    }
    for (note, file) in zip(notes, files) {
      try MarkdownNotes.write(note).write(to: file, atomically: true, encoding: .utf8)
    }
    return files
  }
}

/// Why an export was refused.
public enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
  case fileExists(String)

  public var description: String {
    switch self {
    case .fileExists(let path): "\(path) exists already; choose an empty folder or allow replacing"
    }
  }
}

/// The user's contacts.
public struct ContactService: Sendable {
  let context: ItemContext

  public func contact(_ reference: String) throws -> Contact {
    let id = try context.resolve(.contact, reference)
    guard let contact = try context.database.contact(id) else { throw StoreError.itemNotFound(kind: "contact", id: id) }
    return contact
  }

  public func list() throws -> [Contact] { try context.database.contacts() }

  /// Contacts whose names or organisation start with every word of `query`.
  public func search(_ query: String, limit: Int = 20) throws -> [Contact] {
    try context.database.searchContacts(query, limit: limit)
  }

  public func create(_ contact: Contact) throws -> Contact {
    let contact = try context.created(contact)
    try context.database.insertContact(contact)
    return contact
  }

  public func update(_ contact: Contact) throws -> Contact {
    let contact = try context.changed(contact)
    try context.database.updateContact(contact)
    return contact
  }

  @discardableResult
  public func delete(_ reference: String) throws -> Contact {
    try context.database.deleteContact(try context.resolve(.contact, reference))
  }

  /// Imports a vCard file (3.0 or 4.0).
  public func importFile(_ data: Data) throws -> ImportSummary {
    try context.importItems(
      try VCard.read(data), kind: "contact", name: \.fullName,
      write: { contacts throws(StoreError) in try context.database.importContacts(contacts) })
  }

  public func exportFile(version: VCard.Version = .v4) throws -> String { VCard.write(try list(), version: version) }
}
