public import Foundation

/// A day on the proleptic Gregorian calendar, without a time zone: a birthday, an all-day event, a due date.
///
/// Day arithmetic is done on day numbers, so it never depends on a time zone or a DST change.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// A validated date; `nil` for an impossible one (February 30, month 13).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int) {
    // Civil-from-days over 400-year eras of 146,097 days, with years starting in March so that the leap day
    // is the last day of its year.
    let shifted = dayNumber + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (negative before).
  public var dayNumber: Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    Weekday.allCases[((dayNumber % 7) + 7 + 3) % 7]
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

  /// Whole days from `self` to `other`.
  public func days(until other: LocalDate) -> Int { other.dayNumber - dayNumber }

  /// The number of days in a month.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Whether `year` has a February 29.
  public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  /// The date of `date` on a wall clock in `zone`.
  public init(_ date: Date, in zone: TimeZone) {
    let seconds = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
    self.init(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
  }

  /// ISO 8601: `2026-12-01`.
  public var description: String {
    "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
  }

  /// Parses `2026-12-01` (ISO 8601) or `20261201` (iCalendar).
  public init?(parsing text: some StringProtocol) {
    let characters = Array(text)
    let dashed = characters.count == 10 && characters[4] == "-" && characters[7] == "-"
    let digits = dashed ? characters.filter { $0 != "-" } : characters
    guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let year = Int(String(digits[0..<4])), let month = Int(String(digits[4..<6])),
      let day = Int(String(digits[6..<8]))
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = LocalDate(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date (YYYY-MM-DD): \(text)")
    }
    self = date
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// `value` in decimal, zero-padded to `width` digits.
  public static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
  case monday = "MO"
  case tuesday = "TU"
  case wednesday = "WE"
  case thursday = "TH"
  case friday = "FR"
  case saturday = "SA"
  case sunday = "SU"

  /// `Monday`.
  public var name: String { "\(self)".capitalized }

  /// `Mon`.
  public var abbreviation: String { String(name.prefix(3)) }

  /// 0 for Monday … 6 for Sunday.
  public var index: Int { Self.allCases.firstIndex(of: self)! }

  /// Parses `MO`, `mon`, `Monday` (any case).
  public init?(name: some StringProtocol) {
    let lowered = name.lowercased()
    guard lowered.count >= 2,
      let match = Self.allCases.first(where: { "\($0)".hasPrefix(lowered) || $0.rawValue.lowercased() == lowered })
    else { return nil }
    self = match
  }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.index < rhs.index }
}
