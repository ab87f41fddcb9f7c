public import Foundation

/// When an automation runs, written as people write it — `fri 17:00`, `daily 08:00`, `weekdays 9am`,
/// `mon,wed 18:30`, `every 2h`, `hourly` — or as a five-field cron line (`0 17 * * 5`: minute, hour, day of the
/// month, month, day of the week; `*`, numbers, lists, ranges and `/` steps).
public struct AutomationSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
  enum Rule: Sendable, Hashable {
    /// At one time of day on the given days.
    case weekly(days: Set<Weekday>, hour: Int, minute: Int)
    /// Every so many minutes.
    case interval(minutes: Int)
    case cron(Cron)
  }

  struct Cron: Sendable, Hashable {
    var minutes: Set<Int>
    var hours: Set<Int>
    var daysOfMonth: Set<Int>?
    var months: Set<Int>?
    var weekdays: Set<Int>?
  }

  /// The schedule as the user wrote it.
  public let text: String
  let rule: Rule

  public var description: String { text }

  public init?(parsing text: String) {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let rule = Self.cron(text) ?? Self.plain(text.lowercased()) else { return nil }
    self.text = text
    self.rule = rule
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let schedule = AutomationSchedule(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a schedule: \(text)")
    }
    self = schedule
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }

  /// The first moment after `date` the schedule names, on `zone`'s clock; `nil` if none comes within four years
  /// (`0 0 30 2 *`).
  public func next(after date: Date, in zone: TimeZone) -> Date? {
    switch rule {
    case .interval(let minutes):
      return date.addingTimeInterval(TimeInterval(minutes * 60))
    case .weekly(let days, let hour, let minute):
      return firstTime(
        after: date, in: zone, dayMatches: { days.contains($0.weekday) }, hours: [hour], minutes: [minute])
    case .cron(let cron):
      return firstTime(
        after: date, in: zone,
        dayMatches: { day in
          // cron counts from Sunday, 0.
          let weekday = ((Weekday.allCases.firstIndex(of: day.weekday) ?? 0) + 1) % 7
          let monthOK = cron.months?.contains(day.month) ?? true
          switch (cron.daysOfMonth, cron.weekdays) {
          case (nil, nil): return monthOK
          case (let days?, nil): return monthOK && days.contains(day.day)
          case (nil, let weekdays?): return monthOK && weekdays.contains(weekday)
          // Both given: either matches, as cron reads them.
          case (let days?, let weekdays?): return monthOK && (days.contains(day.day) || weekdays.contains(weekday))
          }
        }, hours: cron.hours.sorted(), minutes: cron.minutes.sorted())
    }
  }

  private func firstTime(
    after date: Date, in zone: TimeZone, dayMatches: (LocalDate) -> Bool, hours: [Int], minutes: [Int]
  ) -> Date? {
    var day = LocalDate(date, in: zone)
    for _ in 0...(4 * 366) {
      if dayMatches(day) {
        for hour in hours.sorted() {
          for minute in minutes.sorted() {
            guard let time = LocalDateTime(date: day, hour: hour, minute: minute)?.instant(in: zone) else { continue }
            if time > date { return time }
          }
        }
      }
      day = day.adding(days: 1)
    }
    return nil
  }

  // MARK: Reading

  private static func plain(_ text: String) -> Rule? {
    var words = text.replacingOccurrences(of: ",", with: " , ").split(separator: " ").map(String.init)
    words.removeAll { ["every", "at", "on", "each", "and", ","].contains($0) }
    if words == ["hourly"] || words == ["hour"] { return .interval(minutes: 60) }
    if words.count == 2, let count = Int(words[0]), count > 0 {
      switch words[1] {
      case "m", "min", "mins", "minute", "minutes": return count <= 1440 ? .interval(minutes: count) : nil
      case "h", "hour", "hours": return count <= 24 * 7 ? .interval(minutes: count * 60) : nil
      default: return nil
      }
    }
    if words.count == 1, let (count, unit) = Self.compactInterval(words[0]) {
      return unit == "m" ? .interval(minutes: count) : .interval(minutes: count * 60)
    }
    guard let last = words.last, let (hour, minute) = Self.timeOfDay(last) else { return nil }
    let dayWords = words.dropLast()
    var days: Set<Weekday> = []
    if dayWords.isEmpty { days = Set(Weekday.allCases) }
    for word in dayWords {
      switch word {
      case "daily", "day", "days", "everyday": days.formUnion(Weekday.allCases)
      case "weekdays", "weekday": days.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
      case "weekends", "weekend": days.formUnion([.saturday, .sunday])
      default:
        let name = word.hasSuffix("s") && word.count > 3 ? String(word.dropLast()) : word
        guard let weekday = Weekday(name: name) else { return nil }
        days.insert(weekday)
      }
    }
    return .weekly(days: days, hour: hour, minute: minute)
  }

  /// `30m`, `2h`.
  private static func compactInterval(_ word: String) -> (Int, Character)? {
    guard let unit = word.last, unit == "m" || unit == "h", let count = Int(word.dropLast()), count > 0,
      unit == "m" ? count <= 1440 : count <= 24 * 7
    else { return nil }
    return (count, unit)
  }

  /// `17:00`, `9:30`, `9am`, `5pm`, `12:30pm`, `noon`, `midnight`.
  private static func timeOfDay(_ word: String) -> (Int, Int)? {
    if word == "noon" { return (12, 0) }
    if word == "midnight" { return (0, 0) }
    var text = Substring(word)
    var offset: Int?
    if text.hasSuffix("am") || text.hasSuffix("pm") {
      offset = text.hasSuffix("pm") ? 12 : 0
      text = text.dropLast(2)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let hour = Int(parts[0]) else { return nil }
    let minute = parts.count == 2 ? Int(parts[1]) : 0
    guard let minute, (0...59).contains(minute), parts.count == 1 || parts[1].count == 2 else { return nil }
    if let offset {
      guard (1...12).contains(hour) else { return nil }
      return (hour % 12 + offset, minute)
    }
    // A bare number is an hour only with a clock's colon: "fri 5" is too vague.
    guard parts.count == 2, (0...23).contains(hour) else { return nil }
    return (hour, minute)
  }

  private static func cron(_ text: String) -> Rule? {
    let fields = text.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count == 5, fields.allSatisfy({ $0.allSatisfy { "0123456789*,-/".contains($0) } }) else { return nil }
    guard let minutes = field(fields[0], 0...59), let hours = field(fields[1], 0...23),
      let days = field(fields[2], 1...31), let months = field(fields[3], 1...12),
      let weekdays = field(fields[4], 0...7)
    else { return nil }
    return .cron(
      Cron(
        minutes: minutes, hours: hours, daysOfMonth: fields[2] == "*" ? nil : days,
        months: fields[3] == "*" ? nil : months,
        weekdays: fields[4] == "*" ? nil : Set(weekdays.map { $0 % 7 })))
  }

  /// One cron field: `*`, `5`, `1,15`, `1-5`, `*/15`, `10-50/10`.
  private static func field(_ text: Substring, _ range: ClosedRange<Int>) -> Set<Int>? {
    var values: Set<Int> = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
      guard (1...2).contains(pieces.count) else { return nil }
      let step = pieces.count == 2 ? Int(pieces[1]) : 1
      guard let step, step > 0 else { return nil }
      var span: ClosedRange<Int>
      if pieces[0] == "*" {
        span = range
      } else {
        let bounds = pieces[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(bounds.count), let low = bounds[0], let high = bounds.last ?? nil, low <= high,
          range.contains(low), range.contains(high)
        else { return nil }
        span = low...high
        if bounds.count == 1, pieces.count == 2 { span = low...range.upperBound }
      }
      values.formUnion(stride(from: span.lowerBound, through: span.upperBound, by: step))
    }
    return values
  }
}
