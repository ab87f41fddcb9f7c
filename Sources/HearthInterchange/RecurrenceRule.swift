import Foundation
import HearthCore

/// iCalendar's RRULE (RFC 5545 §3.3.10), in the subset ``Recurrence`` expands. Parts outside it refuse the
/// item rather than import a series whose occurrences would be wrong.
enum RecurrenceRule {
  static func parse(_ line: ContentLine, start: TimeValue, local: TimeZone) throws(ItemProblem) -> Recurrence {
    var parts: [String: String] = [:]
    for part in line.value.split(separator: ";") where !part.isEmpty {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { throw ItemProblem(line.line, "RRULE part \(part) has no value") }
      parts[pair[0].uppercased()] = String(pair[1])
    }
    func problem(_ reason: String) -> ItemProblem { ItemProblem(line.line, "RRULE: \(reason)") }
    guard let frequencyText = parts.removeValue(forKey: "FREQ") else { throw problem("FREQ is missing") }
    guard let frequency = Recurrence.Frequency(rawValue: frequencyText.uppercased()) else {
      throw problem("FREQ=\(frequencyText) is not supported (DAILY, WEEKLY, MONTHLY, YEARLY are)")
    }
    var rule = Recurrence(frequency: frequency)
    if let text = parts.removeValue(forKey: "INTERVAL") {
      guard let interval = Int(text) else { throw problem("INTERVAL=\(text) is not a number") }
      rule.interval = interval
    }
    if let text = parts.removeValue(forKey: "COUNT") {
      guard let count = Int(text) else { throw problem("COUNT=\(text) is not a number") }
      rule.count = count
    }
    if let text = parts.removeValue(forKey: "UNTIL") {
      let until = try TimeValue.parse(text, line: ContentLine(name: "UNTIL", value: text, line: line.line))
      let onClock = until.converted(to: start.isDate ? .floating : start.zone, local: local)
      // A date (or any time, for an all-day series) includes its whole day.
      rule.until = until.isDate || start.isDate ? LocalDateTime(startOf: onClock.date).adding(seconds: 86_399) : onClock
    }
    if let text = parts.removeValue(forKey: "BYDAY") {
      let rules = text.split(separator: ",").map { Recurrence.WeekdayRule(parsing: $0) }
      guard !rules.isEmpty, rules.allSatisfy({ $0 != nil }) else {
        throw problem("BYDAY=\(text) is not a weekday list")
      }
      rule.byWeekday = rules.compactMap { $0 }
    }
    if let text = parts.removeValue(forKey: "BYMONTHDAY") {
      let days = text.split(separator: ",").map { Int($0) }
      guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else {
        throw problem("BYMONTHDAY=\(text) is not a list of days")
      }
      if frequency == .yearly, days == [start.local.date.day] {
        // The start's own day: what a yearly rule does anyway.
      } else {
        rule.byMonthDay = days.compactMap { $0 }
      }
    }
    if let text = parts.removeValue(forKey: "BYMONTH") {
      guard frequency == .yearly, text == String(start.local.date.month) else {
        throw problem("BYMONTH=\(text) is supported only on a yearly rule in the start's own month")
      }
    }
    if let text = parts.removeValue(forKey: "WKST") {
      guard let weekday = Weekday(rawValue: text.uppercased()) else { throw problem("WKST=\(text) is not a weekday") }
      rule.weekStart = weekday
    }
    if let unsupported = parts.keys.sorted().first {
      throw problem("\(unsupported) is not supported")
    }
    do {
      try rule.validate(start: start.local)
    } catch {
      throw problem(error.description)
    }
    return rule
  }

  static func write(_ rule: Recurrence, zone: EventZone, isAllDay: Bool) -> ContentLine {
    var parts = ["FREQ=\(rule.frequency.rawValue)"]
    if rule.interval != 1 { parts.append("INTERVAL=\(rule.interval)") }
    if let count = rule.count { parts.append("COUNT=\(count)") }
    if let until = rule.until {
      let text: String
      switch (isAllDay, zone) {
      case (true, _): text = ICalendarFormat.date(until.date)
      case (false, .floating): text = ICalendarFormat.dateTime(until)
      case (false, .utc), (false, .named):
        text = ICalendarFormat.utc(until.instant(in: zone.resolved(local: TimeZone(identifier: "UTC")!)))
      }
      parts.append("UNTIL=\(text)")
    }
    if !rule.byWeekday.isEmpty { parts.append("BYDAY=" + rule.byWeekday.map(\.description).joined(separator: ",")) }
    if !rule.byMonthDay.isEmpty {
      parts.append("BYMONTHDAY=" + rule.byMonthDay.map(String.init).joined(separator: ","))
    }
    if rule.weekStart != .monday { parts.append("WKST=\(rule.weekStart.rawValue)") }
    return ContentLine(name: "RRULE", value: parts.joined(separator: ";"))
  }
}
