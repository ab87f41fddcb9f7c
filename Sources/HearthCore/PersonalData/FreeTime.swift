public import Foundation

/// When the user is available for appointments: a daily window on some days of the week.
public struct WorkingHours: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Minutes after midnight.
  public var startMinute: Int
  public var endMinute: Int
  public var days: Set<Weekday>

  /// 09:00–17:00, Monday to Friday.
  public static let standard = WorkingHours(
    startMinute: 9 * 60, endMinute: 17 * 60, days: [.monday, .tuesday, .wednesday, .thursday, .friday])!

  public init?(startMinute: Int, endMinute: Int, days: Set<Weekday>) {
    guard (0..<1440).contains(startMinute), (1...1440).contains(endMinute), startMinute < endMinute, !days.isEmpty
    else { return nil }
    self.startMinute = startMinute
    self.endMinute = endMinute
    self.days = days
  }

  /// `09:00-17:00 MO,TU,WE,TH,FR`.
  public var description: String {
    func clock(_ minute: Int) -> String { LocalDateTime(secondsSinceEpoch: minute * 60).clock }
    return "\(clock(startMinute))-\(clock(endMinute)) \(days.sorted().map(\.rawValue).joined(separator: ","))"
  }

  /// Reads `09:00-17:00` (Monday to Friday) or `08:30-16:00 MO,TU,WE`.
  public init?(parsing text: String) {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard (1...2).contains(parts.count) else { return nil }
    let times = parts[0].split(separator: "-")
    func minute(_ text: Substring) -> Int? {
      let pieces = text.split(separator: ":")
      guard pieces.count == 2, let hour = Int(pieces[0]), let minute = Int(pieces[1]), (0...24).contains(hour),
        (0...59).contains(minute), hour * 60 + minute <= 1440
      else { return nil }
      return hour * 60 + minute
    }
    guard times.count == 2, let start = minute(times[0]), let end = minute(times[1]) else { return nil }
    var days = WorkingHours.standard.days
    if parts.count == 2 {
      let named = parts[1].split(separator: ",").map { Weekday(name: $0) }
      guard named.allSatisfy({ $0 != nil }) else { return nil }
      days = Set(named.compactMap { $0 })
    }
    self.init(startMinute: start, endMinute: end, days: days)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let hours = WorkingHours(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not working hours: \(text)")
    }
    self = hours
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// Free time between busy events.
public enum FreeTime {
  /// Busy intervals sorted and merged where they overlap or touch.
  public static func merged(_ intervals: [DateInterval]) -> [DateInterval] {
    var result: [DateInterval] = []
    for interval in intervals.sorted(by: { $0.start < $1.start }) {
      if let last = result.last, interval.start <= last.end {
        result[result.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
      } else {
        result.append(interval)
      }
    }
    return result
  }

  /// The busy time of these occurrences: only events that block time (all-day ones block their whole days).
  public static func busy(_ occurrences: [Occurrence]) -> [DateInterval] {
    merged(
      occurrences.filter { $0.event.isBusy && $0.endsAt > $0.startsAt }.map {
        DateInterval(start: $0.startsAt, end: $0.endsAt)
      })
  }

  /// Free slots of at least `minimum` seconds within working hours over `window`, each day's hours read on
  /// `zone`'s clock (so a DST change moves the instants, not the hours).
  public static func slots(
    in window: DateInterval, busy: [DateInterval], hours: WorkingHours, zone: TimeZone,
    minimum: TimeInterval = 15 * 60
  ) -> [DateInterval] {
    let busy = merged(busy)
    var slots: [DateInterval] = []
    var day = LocalDate(window.start, in: zone)
    let lastDay = LocalDate(window.end, in: zone)
    while day <= lastDay {
      defer { day = day.adding(days: 1) }
      guard hours.days.contains(day.weekday) else { continue }
      let opens = LocalDateTime(startOf: day).adding(seconds: hours.startMinute * 60).instant(in: zone)
      let closes = LocalDateTime(startOf: day).adding(seconds: hours.endMinute * 60).instant(in: zone)
      var cursor = max(opens, window.start)
      let limit = min(closes, window.end)
      guard cursor < limit else { continue }
      for interval in busy where interval.end > cursor && interval.start < limit {
        if interval.start > cursor { slots.append(DateInterval(start: cursor, end: interval.start)) }
        cursor = max(cursor, interval.end)
      }
      if cursor < limit { slots.append(DateInterval(start: cursor, end: limit)) }
    }
    return slots.filter { $0.duration >= minimum }
  }

  /// The first `duration`-second slot within working hours that starts at or after `after`, looking up to
  /// `horizonDays` ahead.
  public static func nextSlot(
    lasting duration: TimeInterval, after: Date, busy: [DateInterval], hours: WorkingHours, zone: TimeZone,
    horizonDays: Int = 30
  ) -> DateInterval? {
    let window = DateInterval(start: after, duration: Double(horizonDays) * 86_400)
    return slots(in: window, busy: busy, hours: hours, zone: zone, minimum: duration).first.map {
      DateInterval(start: $0.start, duration: duration)
    }
  }
}

/// An occurrence of one event that overlaps an occurrence of another.
public struct Conflict: Hashable, Sendable, Codable {
  public var occurrence: Occurrence
  public var other: Occurrence
}

extension CalendarEvent {
  /// How far ahead a repeating event is checked for conflicts.
  public static let conflictHorizonDays = 90

  /// This event's busy occurrences (within ``conflictHorizonDays`` of its start, for a series) that overlap
  /// busy occurrences of `others`.
  public func conflicts(with others: [CalendarEvent], local: TimeZone) -> [Conflict] {
    guard isBusy else { return [] }
    let clock = isAllDay ? local : zone.resolved(local: local)
    let firstStart = start.instant(in: clock)
    let horizon = DateInterval(
      start: firstStart,
      end: max(start.adding(seconds: duration).instant(in: clock), firstStart)
        .addingTimeInterval(recurrence == nil ? 1 : Double(Self.conflictHorizonDays) * 86_400))
    let mine = occurrences(overlapping: horizon, local: local).filter { $0.endsAt > $0.startsAt }
    guard let span = mine.first.map({ DateInterval(start: $0.startsAt, end: mine.last!.endsAt) }) else { return [] }
    let theirs = others.filter { $0.id != id && $0.isBusy }.flatMap { $0.occurrences(overlapping: span, local: local) }
    return mine.flatMap { occurrence in
      theirs.filter { $0.endsAt > $0.startsAt && occurrence.overlaps($0) }.map {
        Conflict(occurrence: occurrence, other: $0)
      }
    }
  }
}
