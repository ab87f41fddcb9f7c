import Foundation
import HearthCore
import Hummingbird

/// A request body whose fields are all known: one naming a field the API does not have is refused, never
/// silently ignored. The fields it may have are its coding keys, the very names it decodes, so the list
/// can not drift from the type: a property left out of `CodingKeys` does not compile (it has no default).
protocol StrictInput: Decodable {
  /// The names the body decodes: every one a field it may have.
  associatedtype CodingKeys: CodingKey & CaseIterable & RawRepresentable<String>
  /// The fields the body may have: its coding keys, and any a type adds that it decodes elsewhere.
  static var fields: Set<String> { get }
  /// Fields holding objects, with the fields those may have.
  static var nested: [String: Set<String>] { get }
}

extension StrictInput {
  static var fields: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)) }
  static var nested: [String: Set<String>] { [:] }
}

extension RequestReader {
  /// Decodes a JSON body, refusing fields the input does not know; with `allowingEmpty`, no body at all reads
  /// as `{}` (an action whose parameters are all optional).
  static func decodeStrict<Value: StrictInput>(
    _ type: Value.Type, from request: Request, limit: Int, allowingEmpty: Bool = false
  ) async throws
    -> Value
  {
    var data = try await bytes(of: request, limit: limit)
    if allowingEmpty, data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { data = Data("{}".utf8) }
    // A field the input does not know is named before the body is read, so a misspelt field is refused as
    // what it is rather than as the field it should have been.
    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    if let key = (object ?? [:]).keys.sorted().first(where: { !Value.fields.contains($0) }) {
      // What else is wrong is said too: a misspelt field is usually also a missing one.
      var message = "unknown field \(key)"
      do { _ = try decode(type, from: data) } catch let error as APIError { message += "; \(error.message)" }
      throw APIError.invalidRequest(message, parameter: key)
    }
    for (field, allowed) in Value.nested {
      guard let inner = object?[field] as? [String: Any] else { continue }
      if let key = inner.keys.sorted().first(where: { !allowed.contains($0) }) {
        throw APIError.invalidRequest("unknown field \(field).\(key)", parameter: "\(field).\(key)")
      }
    }
    return try decode(type, from: data)
  }
}

struct EventInput: StrictInput {
  var title: String
  var start: LocalDateTime
  var end: LocalDateTime
  var zone: EventZone?
  var isAllDay: Bool?
  var location: String?
  var notes: String?
  var calendar: String?
  var isBusy: Bool?
  var recurrence: RecurrenceInput?
  var exceptions: [LocalDateTime]?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case title, start, end, zone, isAllDay = "is_all_day", location, notes, calendar, isBusy = "is_busy", recurrence,
      exceptions
  }
  static let nested: [String: Set<String>] = ["recurrence": RecurrenceInput.fields]

  /// The event with these fields; `base` keeps its id and creation time.
  func event(replacing base: CalendarEvent? = nil) -> CalendarEvent {
    CalendarEvent(
      id: base?.id ?? UUID().uuidString, title: title.trimmingCharacters(in: .whitespacesAndNewlines), start: start,
      end: end, zone: zone ?? .floating, isAllDay: isAllDay ?? false, location: location.flatMap(Self.nonEmpty),
      notes: notes.flatMap(Self.nonEmpty), calendar: calendar.flatMap(Self.nonEmpty) ?? CalendarEvent.defaultCalendar,
      isBusy: isBusy ?? true, recurrence: recurrence?.rule, exceptions: exceptions ?? [],
      createdAt: base?.createdAt ?? Date()
    )
  }

  static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}

struct ReminderInput: StrictInput {
  var title: String
  var notes: String?
  /// `2026-12-01` (a day) or `2026-12-01T17:00` (a time on `zone`'s clock, the user's own by default).
  var due: String?
  var zone: EventZone?
  var priority: ReminderPriority?
  var list: String?
  var completed: Bool?
  var recurrence: RecurrenceInput?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case title, notes, due, zone, priority, list, completed, recurrence
  }
  static let nested: [String: Set<String>] = EventInput.nested

  func reminder(replacing base: Reminder? = nil) throws -> Reminder {
    var parsedDue: ReminderDue?
    if let due, !due.isEmpty {
      if let date = LocalDate(parsing: due) {
        parsedDue = ReminderDue(date: date)
      } else if let time = LocalDateTime(parsing: due) {
        parsedDue = ReminderDue(time: time, zone: zone ?? .floating)
      } else {
        throw APIError.invalidRequest(
          "due must be a date (2026-12-01) or a date-time (2026-12-01T17:00)", parameter: "due")
      }
    }
    if zone != nil, parsedDue?.isDateOnly != false {
      throw APIError.invalidRequest("zone needs a due time (2026-12-01T17:00), not only a day", parameter: "zone")
    }
    if recurrence != nil, parsedDue == nil {
      throw APIError.invalidRequest("a repeating reminder needs a due date to repeat from", parameter: "recurrence")
    }
    let completedAt = completed == true ? (base?.completedAt ?? Date()) : nil
    return Reminder(
      id: base?.id ?? UUID().uuidString, title: title.trimmingCharacters(in: .whitespacesAndNewlines),
      notes: notes.flatMap(EventInput.nonEmpty), due: parsedDue, priority: priority ?? .none,
      list: list.flatMap(EventInput.nonEmpty) ?? Reminder.defaultList, completedAt: completedAt,
      recurrence: recurrence?.rule, createdAt: base?.createdAt ?? Date())
  }
}

struct NoteInput: StrictInput {
  var title: String
  var body: String?
  var tags: [String]?
  var isPinned: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable { case title, body, tags, isPinned = "is_pinned" }

  func note(replacing base: Note? = nil) -> Note {
    Note(
      id: base?.id ?? UUID().uuidString, title: title.trimmingCharacters(in: .whitespacesAndNewlines), body: body ?? "",
      tags: tags ?? [], isPinned: isPinned ?? false, createdAt: base?.createdAt ?? Date())
  }
}

struct HabitInput: StrictInput {
  var name: String
  var schedule: Habit.Schedule?

  enum CodingKeys: String, CodingKey, CaseIterable { case name, schedule }

  func habit(replacing base: Habit? = nil) -> Habit {
    Habit(
      id: base?.id ?? UUID().uuidString, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
      schedule: schedule ?? .daily, createdAt: base?.createdAt ?? Date())
  }
}

struct HabitLogInput: StrictInput {
  /// When it was done, on the user's clock (default: now).
  var at: LocalDateTime?
  var note: String?

  enum CodingKeys: String, CodingKey, CaseIterable { case at, note }
}

struct ContactInput: StrictInput {
  var fullName: String
  var givenName: String?
  var familyName: String?
  var phones: [LabeledValue]?
  var emails: [LabeledValue]?
  var birthday: Birthday?
  var organization: String?
  var notes: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case fullName = "full_name", givenName = "given_name", familyName = "family_name", phones, emails, birthday,
      organization, notes
  }

  func contact(replacing base: Contact? = nil) -> Contact {
    Contact(
      id: base?.id ?? UUID().uuidString, fullName: fullName.trimmingCharacters(in: .whitespacesAndNewlines),
      givenName: givenName.flatMap(EventInput.nonEmpty), familyName: familyName.flatMap(EventInput.nonEmpty),
      phones: phones ?? [], emails: emails ?? [], birthday: birthday,
      organization: organization.flatMap(EventInput.nonEmpty), notes: notes.flatMap(EventInput.nonEmpty),
      createdAt: base?.createdAt ?? Date())
  }
}

struct WorkingHoursInput: StrictInput {
  var hours: WorkingHours
  enum CodingKeys: String, CodingKey, CaseIterable { case hours }
}

struct CompletionInput: StrictInput {
  var done: Bool
  enum CodingKeys: String, CodingKey, CaseIterable { case done }
}

/// A repeat rule as the API spells it (`by_weekday`, `by_month_day`, `week_start`); the stored ``Recurrence``
/// keeps its own names.
struct RecurrenceInput: Decodable {
  var rule: Recurrence

  enum CodingKeys: String, CodingKey, CaseIterable {
    case frequency, interval, count, until
    case byWeekday = "by_weekday", byMonthDay = "by_month_day", weekStart = "week_start"
  }

  /// The fields a rule may have.
  static var fields: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)) }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rule = Recurrence(
      frequency: try container.decode(Recurrence.Frequency.self, forKey: .frequency),
      interval: try container.decodeIfPresent(Int.self, forKey: .interval) ?? 1,
      count: try container.decodeIfPresent(Int.self, forKey: .count),
      until: try container.decodeIfPresent(LocalDateTime.self, forKey: .until),
      byWeekday: try container.decodeIfPresent([Recurrence.WeekdayRule].self, forKey: .byWeekday) ?? [],
      byMonthDay: try container.decodeIfPresent([Int].self, forKey: .byMonthDay) ?? [],
      weekStart: try container.decodeIfPresent(Weekday.self, forKey: .weekStart) ?? .monday)
  }
}
