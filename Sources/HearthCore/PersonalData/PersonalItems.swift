public import Foundation

/// Why an item of the user's data was refused.
public enum PersonalDataError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A field breaks a rule; the message says which rule.
  case invalid(field: String, String)
  /// No item of that kind has this identifier.
  case notFound(kind: String, id: String)
  /// An item with this identifier exists already.
  case duplicate(kind: String, id: String)

  public var description: String {
    switch self {
    case .invalid(let field, let message): "\(field): \(message)"
    case .notFound(let kind, let id): "no \(kind) with id \(id)"
    case .duplicate(let kind, let id): "a \(kind) with id \(id) exists already"
    }
  }
}

/// An item of the user's data: checked before it is stored, and stamped with when it was made and changed.
/// The kinds of the user's own items, as the audit log, the store and the surfaces name them.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Codable {
  case event, reminder, note, habit, contact
  /// One check-in of a habit.
  case habitLog
  /// Something the user told Hearth about themselves (``Fact``).
  case fact

  /// How people call it in messages.
  public var noun: String { self == .habitLog ? "habit check-in" : rawValue }
}

public protocol PersonalItem: Identifiable<String>, Sendable {
  var createdAt: Date { get set }
  var updatedAt: Date { get set }
  /// The first rule the item breaks, naming its field.
  func validate() throws(PersonalDataError)
}

extension CalendarEvent: PersonalItem {}
extension Reminder: PersonalItem {}
extension Note: PersonalItem {}
extension Habit: PersonalItem {}
extension Contact: PersonalItem {}

/// A reminder's urgency, as people say it; iCalendar's 1…9 scale maps onto it (1–4 high, 5 medium, 6–9 low).
public enum ReminderPriority: String, Sendable, Codable, CaseIterable, Comparable {
  case none, low, medium, high

  /// From iCalendar's `PRIORITY` (0 = none).
  public init(iCalendarValue value: Int) {
    switch value {
    case 1...4: self = .high
    case 5: self = .medium
    case 6...9: self = .low
    default: self = .none
    }
  }

  /// The value written to iCalendar's `PRIORITY`.
  public var iCalendarValue: Int {
    switch self {
    case .none: 0
    case .high: 1
    case .medium: 5
    case .low: 9
    }
  }

  public static func < (lhs: ReminderPriority, rhs: ReminderPriority) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// When a reminder is due: a day, or a time on a clock.
public struct ReminderDue: Hashable, Sendable, Codable, CustomStringConvertible {
  public var time: LocalDateTime
  /// Due on a day rather than at a time (`time` is then midnight).
  public var isDateOnly: Bool
  public var zone: EventZone

  public init(date: LocalDate) {
    time = LocalDateTime(startOf: date)
    isDateOnly = true
    zone = .floating
  }

  public init(time: LocalDateTime, zone: EventZone = .floating) {
    self.time = time
    isDateOnly = false
    self.zone = zone
  }

  /// The moment it becomes due: the end of the day for a date, else the time.
  public func instant(local: TimeZone) -> Date {
    isDateOnly
      ? LocalDateTime(startOf: time.date.adding(days: 1)).instant(in: local).addingTimeInterval(-1)
      : time.instant(in: zone.resolved(local: local))
  }

  public var description: String { isDateOnly ? time.date.description : time.shortDescription }
}

/// Something to do, with an optional due date.
public struct Reminder: Hashable, Sendable, Codable, Identifiable {
  public var id: String
  public var title: String
  public var notes: String?
  public var due: ReminderDue?
  public var priority: ReminderPriority
  /// The list it is on ("Reminders", "Shopping", …).
  public var list: String
  public var completedAt: Date?
  /// How it comes back: completing a repeating reminder moves its due time to the next one (see
  /// ``completing(at:)``). Needs a due time, which is the first of the series.
  public var recurrence: Recurrence?
  public var createdAt: Date
  public var updatedAt: Date

  /// The list a reminder goes on when none is named.
  public static let defaultList = "Reminders"

  public init(
    id: String = UUID().uuidString, title: String, notes: String? = nil, due: ReminderDue? = nil,
    priority: ReminderPriority = .none, list: String = Reminder.defaultList, completedAt: Date? = nil,
    recurrence: Recurrence? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.due = due
    self.priority = priority
    self.list = list
    self.completedAt = completedAt
    self.recurrence = recurrence
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  public var isCompleted: Bool { completedAt != nil }

  public func validate() throws(PersonalDataError) {
    if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .invalid(field: "title", "is empty") }
    if list.trimmingCharacters(in: .whitespaces).isEmpty { throw .invalid(field: "list", "is empty") }
    if let recurrence {
      guard let due else { throw .invalid(field: "recurrence", "needs a due date to repeat from") }
      try recurrence.validate(start: due.time)
    }
  }
}

/// A Markdown note.
public struct Note: Hashable, Sendable, Codable, Identifiable {
  public var id: String
  public var title: String
  public var body: String
  public var tags: [String]
  public var isPinned: Bool
  public var createdAt: Date
  public var updatedAt: Date

  public init(
    id: String = UUID().uuidString, title: String, body: String = "", tags: [String] = [], isPinned: Bool = false,
    createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.body = body
    self.tags = Self.normalized(tags)
    self.isPinned = isPinned
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// Tags trimmed, without a leading `#`, without empties and repeats, in their first order.
  public static func normalized(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    return tags.map { $0.trimmingCharacters(in: .whitespaces) }
      .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
      .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
  }

  public func validate() throws(PersonalDataError) {
    if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .invalid(field: "title", "is empty") }
    if let tag = tags.first(where: { $0.contains(where: { $0 == "," || $0.isNewline }) }) {
      throw .invalid(field: "tags", "a tag cannot contain a comma or a line break: \(tag)")
    }
  }
}

/// A value with a label, as on a contact card: a phone number marked "mobile", an address marked "work".
public struct LabeledValue: Hashable, Sendable, Codable {
  public var label: String?
  public var value: String

  public init(_ value: String, label: String? = nil) {
    self.value = value
    self.label = label
  }
}

/// A birthday, with or without the year.
public struct Birthday: Hashable, Sendable, Codable, CustomStringConvertible {
  public var year: Int?
  public var month: Int
  public var day: Int

  /// A validated birthday (February 29 is allowed without a year).
  public init?(year: Int?, month: Int, day: Int) {
    guard LocalDate(year: year ?? 2000, month: month, day: day) != nil else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// `1990-04-12`, or `--04-12` without a year (ISO 8601 / vCard 4).
  public var description: String {
    let monthDay = "\(LocalDate.pad(month, 2))-\(LocalDate.pad(day, 2))"
    return year.map { "\(LocalDate.pad($0, 4))-\(monthDay)" } ?? "--\(monthDay)"
  }

  /// Reads `1990-04-12`, `19900412`, `--04-12`, `--0412`.
  public init?(parsing text: some StringProtocol) {
    let text = String(text).trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("--") {
      let digits = text.dropFirst(2).filter { $0 != "-" }
      guard digits.count == 4, let month = Int(digits.prefix(2)), let day = Int(digits.suffix(2)) else { return nil }
      self.init(year: nil, month: month, day: day)
    } else {
      guard let date = LocalDate(parsing: text.prefix(text.contains("-") ? 10 : 8)) else { return nil }
      self.init(year: date.year, month: date.month, day: date.day)
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = Birthday(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a birthday: \(text)")
    }
    self = value
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// A person the user knows.
public struct Contact: Hashable, Sendable, Codable, Identifiable {
  public var id: String
  /// The name as shown (vCard `FN`).
  public var fullName: String
  public var givenName: String?
  public var familyName: String?
  public var phones: [LabeledValue]
  public var emails: [LabeledValue]
  public var birthday: Birthday?
  public var organization: String?
  public var notes: String?
  public var createdAt: Date
  public var updatedAt: Date

  public init(
    id: String = UUID().uuidString, fullName: String, givenName: String? = nil, familyName: String? = nil,
    phones: [LabeledValue] = [], emails: [LabeledValue] = [], birthday: Birthday? = nil,
    organization: String? = nil, notes: String? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.fullName = fullName
    self.givenName = givenName
    self.familyName = familyName
    self.phones = phones
    self.emails = emails
    self.birthday = birthday
    self.organization = organization
    self.notes = notes
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  public func validate() throws(PersonalDataError) {
    if fullName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw .invalid(field: "fullName", "is empty")
    }
    if let email = emails.first(where: { !$0.value.contains("@") }) {
      throw .invalid(field: "emails", "\(email.value) is not an e-mail address")
    }
    if let phone = phones.first(where: { $0.value.filter(\.isNumber).isEmpty }) {
      throw .invalid(field: "phones", "\(phone.value) has no digits")
    }
  }
}
