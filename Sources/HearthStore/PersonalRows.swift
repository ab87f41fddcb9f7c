import Foundation
import GRDB
import HearthCore

/// A table row holding one item of the user's data.
protocol ItemRow: Codable, FetchableRecord, PersistableRecord, Sendable {
  associatedtype Item: Sendable
  /// How people call the item, for messages: "event", "contact".
  static var kind: String { get }
  var id: String { get }
  init(_ item: Item)
  func item() throws -> Item
}

enum JSONColumn {
  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Encoding plain value types into JSON cannot fail.
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }

  static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
    try JSONDecoder().decode(type, from: Data(text.utf8))
  }
}

/// Times are kept to the second, the precision every exchange format has.
func seconds(_ date: Date) -> Double { date.timeIntervalSince1970.rounded(.down) }

struct EventRow: ItemRow {
  static let databaseTableName = "calendarEvent"
  static let kind = "event"
  var id: String
  var title: String
  var calendar: String
  var zone: String
  var isAllDay: Bool
  var start: String
  var end: String
  var startsAt: Double
  var lastEndsAt: Double?
  var location: String?
  var notes: String?
  var isBusy: Bool
  var recurrence: String?
  var exceptions: String
  var createdAt: Double
  var updatedAt: Double

  init(_ event: CalendarEvent) {
    id = event.id
    title = event.title
    calendar = event.calendar
    zone = event.zone.description
    isAllDay = event.isAllDay
    start = event.start.description
    end = event.end.description
    let utc = TimeZone(identifier: "UTC")!
    let clock = event.isAllDay ? utc : event.zone.resolved(local: utc)
    startsAt = event.start.instant(in: clock).timeIntervalSince1970
    lastEndsAt = Self.lastEnd(of: event, clock: clock)
    location = event.location
    notes = event.notes
    isBusy = event.isBusy
    recurrence = event.recurrence.map(JSONColumn.encode)
    exceptions = JSONColumn.encode(event.exceptions)
    createdAt = seconds(event.createdAt)
    updatedAt = seconds(event.updatedAt)
  }

  /// The end of the series' last occurrence, `nil` when it never ends.
  static func lastEnd(of event: CalendarEvent, clock: TimeZone) -> Double? {
    guard let rule = event.recurrence else { return event.end.instant(in: clock).timeIntervalSince1970 }
    if let until = rule.until { return until.adding(seconds: event.duration).instant(in: clock).timeIntervalSince1970 }
    guard rule.count != nil else { return nil }
    let all = event.occurrences(overlapping: DateInterval(start: .distantPast, end: .distantFuture), local: clock)
    return (all.last?.endsAt ?? event.end.instant(in: clock)).timeIntervalSince1970
  }

  func item() throws -> CalendarEvent {
    guard let zone = EventZone(parsing: zone), let start = LocalDateTime(parsing: start),
      let end = LocalDateTime(parsing: end)
    else { throw StoreError.invalidImport("event \(id) has an unreadable time") }
    return CalendarEvent(
      id: id, title: title, start: start, end: end, zone: zone, isAllDay: isAllDay, location: location, notes: notes,
      calendar: calendar, isBusy: isBusy, recurrence: try recurrence.map { try JSONColumn.decode(Recurrence.self, $0) },
      exceptions: try JSONColumn.decode([LocalDateTime].self, exceptions),
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}

struct ReminderRow: ItemRow {
  static let databaseTableName = "reminder"
  static let kind = "reminder"
  var id: String
  var title: String
  var notes: String?
  var due: String?
  var dueAt: Double?
  var priority: String
  var list: String
  var completedAt: Double?
  var recurrence: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ reminder: Reminder) {
    id = reminder.id
    title = reminder.title
    notes = reminder.notes
    due = reminder.due.map(JSONColumn.encode)
    dueAt = reminder.due?.instant(local: TimeZone(identifier: "UTC")!).timeIntervalSince1970
    priority = reminder.priority.rawValue
    list = reminder.list
    completedAt = reminder.completedAt.map(seconds)
    recurrence = reminder.recurrence.map(JSONColumn.encode)
    createdAt = seconds(reminder.createdAt)
    updatedAt = seconds(reminder.updatedAt)
  }

  func item() throws -> Reminder {
    Reminder(
      id: id, title: title, notes: notes, due: try due.map { try JSONColumn.decode(ReminderDue.self, $0) },
      priority: ReminderPriority(rawValue: priority) ?? .none, list: list,
      completedAt: completedAt.map(Date.init(timeIntervalSince1970:)),
      recurrence: try recurrence.map { try JSONColumn.decode(Recurrence.self, $0) },
      createdAt: Date(timeIntervalSince1970: createdAt),
      updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}

struct NoteRow: ItemRow {
  static let databaseTableName = "note"
  static let kind = "note"
  var id: String
  var title: String
  var body: String
  var tags: String
  var isPinned: Bool
  var createdAt: Double
  var updatedAt: Double

  init(_ note: Note) {
    id = note.id
    title = note.title
    body = note.body
    tags = JSONColumn.encode(note.tags)
    isPinned = note.isPinned
    createdAt = seconds(note.createdAt)
    updatedAt = seconds(note.updatedAt)
  }

  func item() throws -> Note {
    Note(
      id: id, title: title, body: body, tags: try JSONColumn.decode([String].self, tags), isPinned: isPinned,
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}

struct HabitRow: ItemRow {
  static let databaseTableName = "habit"
  static let kind = "habit"
  var id: String
  var name: String
  var schedule: String
  var createdAt: Double
  var updatedAt: Double

  init(_ habit: Habit) {
    id = habit.id
    name = habit.name
    schedule = habit.schedule.description
    createdAt = seconds(habit.createdAt)
    updatedAt = seconds(habit.updatedAt)
  }

  func item() throws -> Habit {
    guard let schedule = Habit.Schedule(parsing: schedule) else {
      throw StoreError.invalidImport("habit \(id) has an unreadable schedule \(schedule)")
    }
    return Habit(
      id: id, name: name, schedule: schedule, createdAt: Date(timeIntervalSince1970: createdAt),
      updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}

struct HabitLogRow: ItemRow {
  static let databaseTableName = "habitLog"
  static let kind = "habit log"
  var id: String
  var habitID: String
  var at: Double
  var note: String?

  init(_ log: HabitLog) {
    id = log.id
    habitID = log.habitID
    at = log.at.timeIntervalSince1970
    note = log.note
  }

  func item() throws -> HabitLog {
    HabitLog(id: id, habitID: habitID, at: Date(timeIntervalSince1970: at), note: note)
  }
}

struct ContactRow: ItemRow {
  static let databaseTableName = "contact"
  static let kind = "contact"
  var id: String
  var fullName: String
  var givenName: String?
  var familyName: String?
  var phones: String
  var emails: String
  var birthday: String?
  var organization: String?
  var notes: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ contact: Contact) {
    id = contact.id
    fullName = contact.fullName
    givenName = contact.givenName
    familyName = contact.familyName
    phones = JSONColumn.encode(contact.phones)
    emails = JSONColumn.encode(contact.emails)
    birthday = contact.birthday?.description
    organization = contact.organization
    notes = contact.notes
    createdAt = seconds(contact.createdAt)
    updatedAt = seconds(contact.updatedAt)
  }

  func item() throws -> Contact {
    Contact(
      id: id, fullName: fullName, givenName: givenName, familyName: familyName,
      phones: try JSONColumn.decode([LabeledValue].self, phones),
      emails: try JSONColumn.decode([LabeledValue].self, emails),
      birthday: birthday.flatMap { Birthday(parsing: $0) }, organization: organization, notes: notes,
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }
}
