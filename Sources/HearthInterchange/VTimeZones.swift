import Foundation
import HearthCore

/// VTIMEZONE components for the zones a file names (RFC 5545 §3.6.5), built from the system's zone database:
/// each offset change in the years the file covers becomes one dated observance, so a reader without a zone
/// database of its own still places every time correctly.
enum VTimeZones {
  /// The longest stretch of years described, ending the year after the last item.
  static let maximumYears = 30

  static func components(for events: [CalendarEvent], reminders: [Reminder], now: Date = Date()) -> [ContentLine] {
    var years: [String: ClosedRange<Int>] = [:]
    func note(_ zone: EventZone, _ year: Int) {
      guard case .named(let identifier) = zone else { return }
      let range = years[identifier] ?? year...year
      years[identifier] = min(range.lowerBound, year)...max(range.upperBound, year)
    }
    let thisYear = LocalDate(now, in: TimeZone(identifier: "UTC")!).year
    for event in events where !event.isAllDay {
      note(event.zone, event.start.date.year)
      if event.recurrence != nil { note(event.zone, max(event.start.date.year, thisYear)) }
    }
    for reminder in reminders { if let due = reminder.due { note(due.zone, due.time.date.year) } }
    return years.keys.sorted().flatMap { identifier -> [ContentLine] in
      guard let zone = TimeZone(identifier: identifier), let range = years[identifier] else { return [] }
      let last = range.upperBound + 1
      return component(zone: zone, identifier: identifier, years: max(range.lowerBound, last - maximumYears)...last)
    }
  }

  private static func component(zone: TimeZone, identifier: String, years: ClosedRange<Int>) -> [ContentLine] {
    let utc = TimeZone(identifier: "UTC")!
    let begin = LocalDateTime(startOf: LocalDate(year: years.lowerBound, month: 1, day: 1)!).instant(in: utc)
    let end = LocalDateTime(startOf: LocalDate(year: min(years.upperBound + 1, 9999), month: 1, day: 1)!).instant(
      in: utc)
    var lines = [
      ContentLine(name: "BEGIN", value: "VTIMEZONE"), ContentLine(name: "TZID", value: identifier),
    ]
    var observances: [ContentLine] = []
    var cursor = begin.addingTimeInterval(-1)
    while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change < end {
      let before = zone.secondsFromGMT(for: change.addingTimeInterval(-1))
      let after = zone.secondsFromGMT(for: change)
      let kind = zone.isDaylightSavingTime(for: change) ? "DAYLIGHT" : "STANDARD"
      observances += observance(
        kind, onset: LocalDateTime(change, in: TimeZone(secondsFromGMT: before) ?? utc), from: before, to: after)
      cursor = change
    }
    if observances.isEmpty {
      let offset = zone.secondsFromGMT(for: begin)
      observances = observance(
        "STANDARD", onset: LocalDateTime(startOf: LocalDate(year: 1970, month: 1, day: 1)!), from: offset, to: offset)
    }
    lines += observances
    lines.append(ContentLine(name: "END", value: "VTIMEZONE"))
    return lines
  }

  private static func observance(_ kind: String, onset: LocalDateTime, from: Int, to: Int) -> [ContentLine] {
    [
      ContentLine(name: "BEGIN", value: kind), ContentLine(name: "DTSTART", value: ICalendarFormat.dateTime(onset)),
      ContentLine(name: "TZOFFSETFROM", value: offset(from)), ContentLine(name: "TZOFFSETTO", value: offset(to)),
      ContentLine(name: "END", value: kind),
    ]
  }

  /// `+0100`, `-0530`.
  static func offset(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return "\(sign)\(LocalDate.pad(minutes / 60, 2))\(LocalDate.pad(minutes % 60, 2))"
  }
}
