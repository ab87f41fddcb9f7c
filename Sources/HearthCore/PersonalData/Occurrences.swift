public import Foundation

/// One time an event happens: the event itself, or one instance of a series.
public struct Occurrence: Hashable, Sendable, Codable {
  public var event: CalendarEvent
  /// Wall-clock start and end on the event's clock.
  public var start: LocalDateTime
  public var end: LocalDateTime
  /// The same as instants.
  public var startsAt: Date
  public var endsAt: Date

  public init(event: CalendarEvent, start: LocalDateTime, end: LocalDateTime, startsAt: Date, endsAt: Date) {
    self.event = event
    self.start = start
    self.end = end
    self.startsAt = startsAt
    self.endsAt = endsAt
  }

  /// Whether the two share any moment (touching ends do not overlap).
  public func overlaps(_ other: Occurrence) -> Bool { startsAt < other.endsAt && other.startsAt < endsAt }
}

extension CalendarEvent {
  /// The most candidate starts one expansion looks at: a daily series over 270 years, far beyond any query.
  static let expansionLimit = 100_000

  /// The occurrences that overlap `range` (an event that has started and not ended counts), in order.
  /// Floating and all-day times are read on `local`'s clock. Exceptions are removed after `count` is
  /// applied, as iCalendar says.
  public func occurrences(overlapping range: DateInterval, local: TimeZone) -> [Occurrence] {
    let clock = isAllDay ? local : zone.resolved(local: local)
    var found: [Occurrence] = []
    let excluded = Set(exceptions)
    for (index, wallStart) in candidateStarts().enumerated() {
      if let count = recurrence?.count, index >= count { break }
      if let until = recurrence?.until, wallStart > until { break }
      let startsAt = wallStart.instant(in: clock)
      if startsAt >= range.end, !(startsAt == range.start && duration == 0) { break }
      let wallEnd = wallStart.adding(seconds: duration)
      let endsAt = wallEnd.instant(in: clock)
      let touches = endsAt > range.start || (duration == 0 && startsAt >= range.start)
      if touches, !excluded.contains(wallStart) {
        found.append(Occurrence(event: self, start: wallStart, end: wallEnd, startsAt: startsAt, endsAt: endsAt))
      }
    }
    return found
  }

  /// Wall-clock starts of the series in order: the event's own start first (iCalendar counts it even when
  /// the rule would not produce it), then what the rule produces.
  func candidateStarts() -> AnySequence<LocalDateTime> {
    guard let rule = recurrence else { return AnySequence(CollectionOfOne(start)) }
    return rule.starts(from: start)
  }
}

extension Recurrence {
  /// Wall-clock starts of a series beginning at `first`, in order: `first` itself (iCalendar counts it even
  /// when the rule would not produce it), then what the rule produces, ignoring `count` and `until`.
  public func starts(from first: LocalDateTime) -> AnySequence<LocalDateTime> {
    AnySequence(
      sequence(state: (period: 0, pending: [LocalDateTime](), yielded: 0)) { state -> LocalDateTime? in
        while state.pending.isEmpty {
          guard state.period < CalendarEvent.expansionLimit, state.yielded < CalendarEvent.expansionLimit else {
            return nil
          }
          guard var dates = dates(inPeriod: state.period, from: first.date)?.filter({ $0 >= first.date })
          else { return nil }
          if state.period == 0, !dates.contains(first.date) { dates.insert(first.date, at: 0) }
          state.pending = dates.map { first.on($0) }.reversed()
          state.period += 1
        }
        state.yielded += 1
        return state.pending.popLast()
      })
  }

  /// The dates the rule produces in its `period`-th period (day, week, month or year) after the one holding
  /// `start`, sorted; `nil` past the year 9999, where the calendar ends.
  func dates(inPeriod period: Int, from start: LocalDate) -> [LocalDate]? {
    let step = period * interval
    switch frequency {
    case .daily:
      let date = start.adding(days: step)
      guard date.year <= 9999 else { return nil }
      return byWeekday.isEmpty || byWeekday.contains(where: { $0.weekday == date.weekday }) ? [date] : []
    case .weekly:
      let weekBegins = start.adding(days: -((start.weekday.index - weekStart.index + 7) % 7) + 7 * step)
      guard weekBegins.year <= 9999 else { return nil }
      let days = byWeekday.isEmpty ? [start.weekday] : byWeekday.map(\.weekday)
      return Set(days.map { (($0.index - weekStart.index) + 7) % 7 }).sorted().map { weekBegins.adding(days: $0) }
    case .monthly:
      let monthIndex = start.year * 12 + (start.month - 1) + step
      let (year, month) = (monthIndex / 12, monthIndex % 12 + 1)
      guard year <= 9999 else { return nil }
      let length = LocalDate.daysIn(month: month, year: year)
      var days: Set<Int>
      if !byMonthDay.isEmpty {
        days = Set(byMonthDay.map { $0 > 0 ? $0 : length + $0 + 1 })
      } else if !byWeekday.isEmpty {
        days = []
        for rule in byWeekday {
          let matching = (1...length).filter { LocalDate(year: year, month: month, day: $0)!.weekday == rule.weekday }
          switch rule.ordinal {
          case nil: days.formUnion(matching)
          case let nth? where nth > 0 && nth <= matching.count: days.insert(matching[nth - 1])
          case let nth? where nth < 0 && -nth <= matching.count: days.insert(matching[matching.count + nth])
          default: break
          }
        }
      } else {
        days = [start.day]
      }
      return days.sorted().compactMap { LocalDate(year: year, month: month, day: $0) }
    case .yearly:
      guard start.year + step <= 9999 else { return nil }
      return LocalDate(year: start.year + step, month: start.month, day: start.day).map { [$0] } ?? []
    }
  }
}
