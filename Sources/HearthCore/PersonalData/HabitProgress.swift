public import Foundation

extension Habit {
  /// Streaks and completion over the last `windowDays` days up to `today`, with logs read on `zone`'s clock.
  public func stats(logs: [HabitLog], today: LocalDate, zone: TimeZone, windowDays: Int = 30) -> HabitStats {
    let doneDays = Set(logs.filter { $0.habitID == id }.map { LocalDate($0.at, in: zone) })
    let firstDay = min(LocalDate(createdAt, in: zone), doneDays.min() ?? today, today)
    let windowStart = max(firstDay, today.adding(days: -(max(windowDays, 1) - 1)))
    let chart = doneDays.filter { $0 >= windowStart && $0 <= today }.sorted()
    switch schedule {
    case .timesPerWeek(let target):
      let (current, longest, rate) = Self.weeklyProgress(
        doneDays: doneDays, target: target, firstDay: firstDay, windowStart: windowStart, today: today)
      return HabitStats(
        currentStreak: current, longestStreak: longest, completionRate: rate,
        windowDays: windowStart.days(until: today) + 1, doneToday: doneDays.contains(today), streakUnit: "weeks",
        doneDays: chart)
    case .daily, .days:
      var current = 0
      var day = today
      while day >= firstDay {
        if schedule.isScheduled(on: day) {
          if doneDays.contains(day) {
            current += 1
          } else if day != today {
            break
          }
        }
        day = day.adding(days: -1)
      }
      var longest = 0
      var run = 0
      day = firstDay
      while day <= today {
        if schedule.isScheduled(on: day) {
          if doneDays.contains(day) {
            run += 1
            longest = max(longest, run)
          } else if day != today {
            run = 0
          }
        }
        day = day.adding(days: 1)
      }
      // Today counts as expected only once it is done: it is still open otherwise.
      let expected = (0...windowStart.days(until: today)).map { windowStart.adding(days: $0) }
        .filter { schedule.isScheduled(on: $0) && ($0 != today || doneDays.contains($0)) }
      let done = expected.filter { doneDays.contains($0) }.count
      return HabitStats(
        currentStreak: current, longestStreak: longest,
        completionRate: expected.isEmpty ? 0 : Double(done) / Double(expected.count),
        windowDays: windowStart.days(until: today) + 1, doneToday: doneDays.contains(today), streakUnit: "days",
        doneDays: chart, plannedDays: expected.count)
    }
  }

  /// Streaks in weeks (Monday to Sunday) that met the target, and the share of the target met over the
  /// window's weeks; the current week counts only once met.
  private static func weeklyProgress(
    doneDays: Set<LocalDate>, target: Int, firstDay: LocalDate, windowStart: LocalDate, today: LocalDate
  ) -> (current: Int, longest: Int, rate: Double) {
    func monday(of day: LocalDate) -> LocalDate { day.adding(days: -day.weekday.index) }
    func doneIn(weekOf start: LocalDate) -> Int { (0..<7).filter { doneDays.contains(start.adding(days: $0)) }.count }
    let thisWeek = monday(of: today)
    var weeks: [LocalDate] = []
    var week = monday(of: firstDay)
    while week <= thisWeek {
      weeks.append(week)
      week = week.adding(days: 7)
    }
    var current = 0
    for start in weeks.reversed() {
      if doneIn(weekOf: start) >= target {
        current += 1
      } else if start != thisWeek {
        break
      }
    }
    var longest = 0
    var run = 0
    for start in weeks {
      if doneIn(weekOf: start) >= target {
        run += 1
        longest = max(longest, run)
      } else if start != thisWeek {
        run = 0
      }
    }
    let counted = weeks.filter { $0.adding(days: 6) >= windowStart }
      .filter { $0 != thisWeek || doneIn(weekOf: $0) >= target }
    let achieved = counted.map { min(doneIn(weekOf: $0), target) }.reduce(0, +)
    let rate = counted.isEmpty ? 0 : Double(achieved) / Double(counted.count * target)
    return (current, longest, rate)
  }
}
