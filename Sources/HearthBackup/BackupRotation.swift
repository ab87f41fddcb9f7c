public import Foundation

/// Which scheduled backups to keep: the newest of each of the last 7 days, then the newest of each week for
/// the rest of the month (31 days); older ones go. The newest backup is always kept, however old, so a
/// machine that was off for a season still has its last backup.
public struct BackupRotation: Sendable {
  /// Days kept one by one.
  public var days: Int
  /// Days up to which one backup a week is kept.
  public var weeksUntilDay: Int
  /// The calendar days and weeks are counted in (the user's time zone).
  public var calendar: Calendar

  public init(days: Int = 7, weeksUntilDay: Int = 31, calendar: Calendar = .current) {
    (self.days, self.weeksUntilDay, self.calendar) = (days, weeksUntilDay, calendar)
  }

  /// The backups of `taken` (their dates) that stay, given the time `now`.
  public func kept(_ taken: [Date], now: Date) -> Set<Date> {
    let newestFirst = taken.sorted(by: >)
    guard let newest = newestFirst.first else { return [] }
    var kept: Set<Date> = [newest]
    var daysSeen: Set<DateComponents> = []
    var weeksSeen: Set<DateComponents> = []
    let today = calendar.startOfDay(for: now)
    for date in newestFirst {
      let age = calendar.dateComponents([.day], from: calendar.startOfDay(for: date), to: today).day ?? 0
      if age < days {
        // A backup from the future (a clock set back) counts as today's.
        if daysSeen.insert(calendar.dateComponents([.year, .month, .day], from: date)).inserted { kept.insert(date) }
      } else if age < weeksUntilDay {
        if weeksSeen.insert(calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)).inserted {
          kept.insert(date)
        }
      }
    }
    return kept
  }
}
