public import Foundation
public import HearthCore
public import HearthInterchange
import HearthStore

/// The user's reminders.
public typealias ReminderService = ItemService<Reminder>

extension ItemService where Item == Reminder {
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

  /// Marks a reminder done (or open again). A repeating one done is due again at its next time instead.
  public func complete(_ reference: String, done: Bool = true) throws -> Reminder {
    var reminder = try item(reference)
    if done {
      reminder = reminder.completing(at: context.now())
    } else {
      reminder.completedAt = nil
    }
    return try update(reminder)
  }

  /// Imports the to-dos (VTODO) of an iCalendar file.
  public func importFile(_ data: Data) throws -> ImportSummary {
    try importing(try ICalendar.read(data, local: context.timeZone).reminders, name: \.title)
  }

  /// The reminders as an iCalendar file of to-dos.
  public func exportFile() throws -> String { ICalendar.write(events: [], reminders: try list()) }
}

/// The user's Markdown notes.
public typealias NoteService = ItemService<Note>

extension ItemService where Item == Note {
  /// Notes, pinned first, newest change first.
  public func list(tag: String? = nil) throws -> [Note] { try context.database.notes(tag: tag) }

  /// Notes matching every word of `query` (prefixes count), with an excerpt.
  public func search(_ query: String, limit: Int = 20) throws -> [(note: Note, excerpt: String)] {
    try context.database.searchNotes(query, limit: limit)
  }

  /// Adds text to the end of a note, on a new paragraph.
  public func append(_ text: String, to reference: String) throws -> Note {
    var note = try item(reference)
    note.body = note.body.isEmpty ? text : note.body.trimmingCharacters(in: .newlines) + "\n\n" + text
    return try update(note)
  }

  /// Imports a folder of Markdown files.
  public func importFolder(_ folder: URL) throws -> ImportSummary {
    try importing(try MarkdownNotes.readFolder(folder), name: \.title)
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
    return try importing(parsed, name: \.title)
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
public typealias ContactService = ItemService<Contact>

extension ItemService where Item == Contact {
  public func list() throws -> [Contact] { try context.database.contacts() }

  /// Contacts whose names or organisation start with every word of `query`, or — for a query of digits — whose
  /// phone numbers hold those digits, however they are written ("612 34" finds +33 6 12 34 56 78), and with or
  /// without the trunk 0 a number dialled at home starts with ("06 12 34" finds it too).
  public func search(_ query: String, limit: Int = 20) throws -> [Contact] {
    let digits = query.filter(\.isNumber)
    let dialled = digits.count >= 3 && query.allSatisfy { $0.isNumber || " +-().".contains($0) }
    guard dialled else { return try context.database.searchContacts(query, limit: limit) }
    let wanted = Self.withoutTrunkZero(digits)
    return Array(
      try list().filter { contact in
        contact.phones.contains { phone in
          let number = phone.value.filter(\.isNumber)
          return number.contains(digits) || (wanted.count >= 3 && Self.withoutTrunkZero(number).contains(wanted))
        }
      }
      .prefix(limit))
  }

  /// A national number's digits without the 0 dialled before it at home (`0612…` → `612…`).
  static func withoutTrunkZero(_ digits: String) -> String {
    digits.hasPrefix("0") && !digits.hasPrefix("00") ? String(digits.dropFirst()) : digits
  }

  /// Imports a vCard file (3.0 or 4.0).
  public func importFile(_ data: Data) throws -> ImportSummary {
    try importing(try VCard.read(data), name: \.fullName)
  }

  public func exportFile(version: VCard.Version = .v4) throws -> String { VCard.write(try list(), version: version) }
}
