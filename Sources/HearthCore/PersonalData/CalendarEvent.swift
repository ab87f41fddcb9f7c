public import Foundation

/// Which clock an event's times are read on.
public enum EventZone: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Coordinated Universal Time.
  case utc
  /// Whatever zone the user is in ("floating" in iCalendar): 9:00 stays 9:00 when they travel.
  case floating
  /// An IANA zone such as `Europe/Paris`.
  case named(String)

  /// The zone to compute instants with; floating times use `local`.
  public func resolved(local: TimeZone) -> TimeZone {
    switch self {
    case .utc: TimeZone(identifier: "UTC")!
    case .floating: local
    case .named(let identifier): TimeZone(identifier: identifier) ?? local
    }
  }

  /// `UTC`, `floating` or the zone identifier.
  public var description: String {
    switch self {
    case .utc: "UTC"
    case .floating: "floating"
    case .named(let identifier): identifier
    }
  }

  /// Reads `UTC`, `floating` (or empty) or an IANA identifier; `nil` for an unknown zone.
  public init?(parsing text: String) {
    switch text {
    case "UTC", "Z", "utc": self = .utc
    case "", "floating": self = .floating
    default:
      guard TimeZone(identifier: text) != nil else { return nil }
      self = .named(text)
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let zone = EventZone(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown time zone: \(text)")
    }
    self = zone
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// An entry in the user's calendar.
///
/// Times are wall-clock times on `zone`'s clock, so a weekly 9:00 meeting stays at 9:00 across DST changes.
/// `end` is exclusive: an all-day event on December 1 runs from December 1 00:00 to December 2 00:00.
public struct CalendarEvent: Hashable, Sendable, Codable, Identifiable {
  /// Stable identifier; the iCalendar UID.
  public var id: String
  public var title: String
  public var start: LocalDateTime
  public var end: LocalDateTime
  public var zone: EventZone
  public var isAllDay: Bool
  public var location: String?
  public var notes: String?
  /// The calendar it belongs to ("Personal", "Work", …).
  public var calendar: String
  /// Whether it blocks time (iCalendar `TRANSP:OPAQUE`); free-time searches ignore events that do not.
  public var isBusy: Bool
  public var recurrence: Recurrence?
  /// Starts of occurrences removed from the series (iCalendar `EXDATE`), on the event's clock.
  public var exceptions: [LocalDateTime]
  public var createdAt: Date
  public var updatedAt: Date

  /// The calendar an event goes to when none is named.
  public static let defaultCalendar = "Personal"

  public init(
    id: String = UUID().uuidString, title: String, start: LocalDateTime, end: LocalDateTime,
    zone: EventZone = .floating, isAllDay: Bool = false, location: String? = nil, notes: String? = nil,
    calendar: String = CalendarEvent.defaultCalendar, isBusy: Bool = true, recurrence: Recurrence? = nil,
    exceptions: [LocalDateTime] = [], createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.start = start
    self.end = end
    self.zone = zone
    self.isAllDay = isAllDay
    self.location = location
    self.notes = notes
    self.calendar = calendar
    self.isBusy = isBusy
    self.recurrence = recurrence
    self.exceptions = exceptions
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// The wall-clock length of one occurrence, in seconds.
  public var duration: Int { end.secondsSinceEpoch - start.secondsSinceEpoch }

  /// Checks what every event must satisfy; the first problem found, naming its field.
  public func validate() throws(PersonalDataError) {
    if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .invalid(field: "title", "is empty") }
    if end < start {
      throw .invalid(field: "end", "\(end.shortDescription) is before the start \(start.shortDescription)")
    }
    if isAllDay, start.secondOfDay != 0 || end.secondOfDay != 0 {
      throw .invalid(field: "start", "an all-day event starts and ends at midnight")
    }
    if isAllDay, end == start { throw .invalid(field: "end", "an all-day event lasts at least one day") }
    if case .named(let identifier) = zone, TimeZone(identifier: identifier) == nil {
      throw .invalid(field: "zone", "unknown time zone \(identifier)")
    }
    if calendar.trimmingCharacters(in: .whitespaces).isEmpty { throw .invalid(field: "calendar", "is empty") }
    try recurrence?.validate(start: start)
  }
}

/// How an event repeats: the subset of iCalendar's RRULE that Hearth expands.
public struct Recurrence: Hashable, Sendable, Codable {
  public enum Frequency: String, Sendable, Codable, CaseIterable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  /// A weekday, optionally the nth (or nth from the end, when negative) of its month: `2TU`, `-1FR`.
  public struct WeekdayRule: Hashable, Sendable, Codable, CustomStringConvertible {
    public var weekday: Weekday
    public var ordinal: Int?

    public init(_ weekday: Weekday, ordinal: Int? = nil) {
      self.weekday = weekday
      self.ordinal = ordinal
    }

    public var description: String { (ordinal.map(String.init) ?? "") + weekday.rawValue }

    /// Parses `MO`, `2TU`, `-1FR`, `+3WE`.
    public init?(parsing text: some StringProtocol) {
      let text = String(text).uppercased()
      guard text.count >= 2, let weekday = Weekday(rawValue: String(text.suffix(2))) else { return nil }
      let prefix = text.dropLast(2)
      if prefix.isEmpty {
        self.init(weekday)
      } else {
        guard let ordinal = Int(prefix), (1...53).contains(abs(ordinal)) else { return nil }
        self.init(weekday, ordinal: ordinal)
      }
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let rule = WeekdayRule(parsing: text) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a weekday rule: \(text)")
      }
      self = rule
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(description)
    }
  }

  public var frequency: Frequency
  public var interval: Int
  /// At most this many occurrences (before exceptions are removed).
  public var count: Int?
  /// The last possible start, inclusive, on the event's clock.
  public var until: LocalDateTime?
  /// Weekly: the days of the week; monthly: which weekdays of the month; daily: a filter.
  public var byWeekday: [WeekdayRule]
  /// Monthly: the days of the month (negative counts from the end).
  public var byMonthDay: [Int]
  /// The first day of a week, for weekly rules with an interval above one.
  public var weekStart: Weekday

  public init(
    frequency: Frequency, interval: Int = 1, count: Int? = nil, until: LocalDateTime? = nil,
    byWeekday: [WeekdayRule] = [], byMonthDay: [Int] = [], weekStart: Weekday = .monday
  ) {
    self.frequency = frequency
    self.interval = interval
    self.count = count
    self.until = until
    self.byWeekday = byWeekday
    self.byMonthDay = byMonthDay
    self.weekStart = weekStart
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case frequency, interval, count, until, byWeekday, byMonthDay, weekStart
  }

  /// Reads a rule; fields left out take their defaults, so `{"frequency": "WEEKLY"}` is a rule.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      frequency: try container.decode(Frequency.self, forKey: .frequency),
      interval: try container.decodeIfPresent(Int.self, forKey: .interval) ?? 1,
      count: try container.decodeIfPresent(Int.self, forKey: .count),
      until: try container.decodeIfPresent(LocalDateTime.self, forKey: .until),
      byWeekday: try container.decodeIfPresent([WeekdayRule].self, forKey: .byWeekday) ?? [],
      byMonthDay: try container.decodeIfPresent([Int].self, forKey: .byMonthDay) ?? [],
      weekStart: try container.decodeIfPresent(Weekday.self, forKey: .weekStart) ?? .monday)
  }

  /// Checks the rule against the event it belongs to.
  public func validate(start: LocalDateTime) throws(PersonalDataError) {
    if interval < 1 || interval > 1000 {
      throw .invalid(field: "recurrence.interval", "must be 1…1000, not \(interval)")
    }
    if let count, count < 1 { throw .invalid(field: "recurrence.count", "must be at least 1, not \(count)") }
    if count != nil, until != nil { throw .invalid(field: "recurrence.until", "cannot be combined with count") }
    if let until, until < start {
      throw .invalid(field: "recurrence.until", "\(until.shortDescription) is before the first start")
    }
    if byMonthDay.contains(where: { $0 == 0 || abs($0) > 31 }) {
      throw .invalid(field: "recurrence.byMonthDay", "days of the month are 1…31 or -31…-1")
    }
    if !byMonthDay.isEmpty, frequency != .monthly {
      throw .invalid(field: "recurrence.byMonthDay", "is supported for monthly rules only")
    }
    if frequency == .yearly, !byWeekday.isEmpty {
      throw .invalid(field: "recurrence.byWeekday", "is not supported for yearly rules")
    }
    if frequency != .monthly, byWeekday.contains(where: { $0.ordinal != nil }) {
      throw .invalid(field: "recurrence.byWeekday", "ordinal weekdays (2TU) are supported for monthly rules only")
    }
    if frequency == .monthly, !byWeekday.isEmpty, !byMonthDay.isEmpty {
      throw .invalid(field: "recurrence.byWeekday", "cannot be combined with byMonthDay")
    }
  }
}
