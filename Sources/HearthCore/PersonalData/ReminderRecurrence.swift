public import Foundation

extension Reminder {
  /// The reminder once done at `now`: a repeating one stays open, due at its next time (with one fewer
  /// left of a counted series); any other, or the last of a series, is marked completed.
  public func completing(at now: Date) -> Reminder {
    var done = self
    if !isCompleted, let next = nextDue() {
      done.due = next
      done.recurrence?.count = recurrence?.count.map { $0 - 1 }
    } else {
      done.completedAt = completedAt ?? now
    }
    return done
  }

  /// When a repeating reminder is due after its current due time; `nil` when it does not repeat, or its
  /// series has ended.
  public func nextDue() -> ReminderDue? {
    guard let rule = recurrence, let due, rule.count.map({ $0 > 1 }) ?? true else { return nil }
    guard let next = rule.starts(from: due.time).dropFirst().first(where: { $0 > due.time }) else { return nil }
    if let until = rule.until, next > until { return nil }
    var moved = due
    moved.time = next
    return moved
  }

  /// How the reminder repeats in a few words ("every week", "every 2 months on the 15th"), or `nil`.
  public var repeatSummary: String? { recurrence.map(\.summary) }
}

extension Recurrence {
  /// The rule in a few words a person uses: "every day", "every weekday", "every 2 weeks on Mon, Thu".
  public var summary: String {
    let unit: String
    switch frequency {
    case .daily: unit = "day"
    case .weekly: unit = "week"
    case .monthly: unit = "month"
    case .yearly: unit = "year"
    }
    let weekdays = Set(byWeekday.filter { $0.ordinal == nil }.map(\.weekday))
    if interval == 1, frequency != .monthly, weekdays == Self.workingDays { return "every weekday" }
    var text = interval == 1 ? "every \(unit)" : "every \(interval) \(unit)s"
    if !byWeekday.isEmpty {
      text +=
        " on "
        + byWeekday.map { rule in
          let day = rule.weekday.abbreviation
          guard let ordinal = rule.ordinal else { return day }
          return ordinal == -1 ? "the last \(day)" : "the \(Self.ordinal(ordinal)) \(day)"
        }.joined(separator: ", ")
    } else if !byMonthDay.isEmpty {
      text += " on the " + byMonthDay.map { $0 == -1 ? "last day" : Self.ordinal($0) }.joined(separator: ", ")
    }
    if let count { text += ", \(count) time\(count == 1 ? "" : "s")" }
    if let until { text += ", until \(until.date)" }
    return text
  }

  static let workingDays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

  static func ordinal(_ number: Int) -> String {
    let suffix: String
    switch (abs(number) % 100, abs(number) % 10) {
    case (11...13, _): suffix = "th"
    case (_, 1): suffix = "st"
    case (_, 2): suffix = "nd"
    case (_, 3): suffix = "rd"
    default: suffix = "th"
    }
    return "\(number)\(suffix)"
  }
}
