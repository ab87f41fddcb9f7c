public import Foundation

/// A wall-clock date and time without a time zone, to the second: what a calendar entry says ("9:00 on
/// December 1"), turned into an instant only together with a zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public let date: LocalDate
  public let hour: Int
  public let minute: Int
  public let second: Int

  /// A validated time of day on `date`; `nil` when a field is out of range.
  public init?(date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
    self.date = date
    self.hour = hour
    self.minute = minute
    self.second = min(second, 59)
  }

  /// Midnight at the start of `date`.
  public init(startOf date: LocalDate) {
    self.date = date
    hour = 0
    minute = 0
    second = 0
  }

  /// The wall-clock time `seconds` seconds after 1970-01-01T00:00:00.
  public init(secondsSinceEpoch seconds: Int) {
    let days = Int((Double(seconds) / 86_400).rounded(.down))
    let rest = seconds - days * 86_400
    date = LocalDate(dayNumber: days)
    hour = rest / 3600
    minute = rest % 3600 / 60
    second = rest % 60
  }

  /// Seconds since 1970-01-01T00:00:00 on the same wall clock: differences are wall-clock durations.
  public var secondsSinceEpoch: Int { date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second }

  /// Seconds from midnight.
  public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

  /// This wall-clock time moved by `seconds`.
  public func adding(seconds: Int) -> LocalDateTime { LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds) }

  /// The same time of day on another date.
  public func on(_ other: LocalDate) -> LocalDateTime {
    LocalDateTime(secondsSinceEpoch: other.dayNumber * 86_400 + secondOfDay)
  }

  /// The instant this wall-clock time names in `zone`. A time skipped by a DST change is read with the
  /// offset in force before the change (02:30 on a spring-forward night becomes 03:30); a repeated one
  /// is its first occurrence.
  public func instant(in zone: TimeZone) -> Date {
    let wall = Double(secondsSinceEpoch)
    // Offsets a day either side bracket any DST change near this wall time (zones differ from UTC by < 1 day).
    let before = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400)))
    let after = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400)))
    let fits = { (offset: Double) in
      Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - offset))) == offset
    }
    switch (fits(before), fits(after)) {
    case (true, true): return Date(timeIntervalSince1970: min(wall - before, wall - after))
    case (false, true): return Date(timeIntervalSince1970: wall - after)
    default: return Date(timeIntervalSince1970: wall - before)
    }
  }

  /// The wall-clock time of `instant` in `zone`.
  public init(_ instant: Date, in zone: TimeZone) {
    let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
    self.init(secondsSinceEpoch: Int(local.rounded(.down)))
  }

  /// ISO 8601 without offset: `2026-12-01T09:00:00`.
  public var description: String {
    "\(date)T\(LocalDate.pad(hour, 2)):\(LocalDate.pad(minute, 2)):\(LocalDate.pad(second, 2))"
  }

  /// `2026-12-01T09:00` without seconds when they are zero: how people write it.
  public var shortDescription: String { second == 0 ? "\(date)T\(clock)" : description }

  /// The time of day as a clock shows it: `09:30`.
  public var clock: String { "\(LocalDate.pad(hour, 2)):\(LocalDate.pad(minute, 2))" }

  /// Parses `2026-12-01T09:00`, `2026-12-01T09:00:30`, `2026-12-01 09:00` and iCalendar's `20261201T090000`.
  /// A date alone is midnight.
  public init?(parsing text: some StringProtocol) {
    let text = String(text)
    let separator = text.firstIndex { $0 == "T" || $0 == " " || $0 == "t" }
    guard let separator else {
      guard let date = LocalDate(parsing: text) else { return nil }
      self.init(startOf: date)
      return
    }
    guard let date = LocalDate(parsing: text[..<separator]) else { return nil }
    let time = text[text.index(after: separator)...]
    let parts: [Substring]
    if time.contains(":") {
      parts = time.split(separator: ":", omittingEmptySubsequences: false)
    } else {
      guard time.count == 6 || time.count == 4 else { return nil }
      parts = stride(from: 0, to: time.count, by: 2).map {
        time.dropFirst($0).prefix(2)
      }
    }
    guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) : 0
    guard let second else { return nil }
    self.init(date: date, hour: hour, minute: minute, second: second)
  }

  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = LocalDateTime(parsing: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a date-time (YYYY-MM-DDTHH:MM): \(text)")
    }
    self = value
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(shortDescription)
  }
}
