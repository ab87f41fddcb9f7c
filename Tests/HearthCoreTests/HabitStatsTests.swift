import Foundation
import HearthCore
import Testing

@Suite struct HabitStatsTests {
  let utc = TimeZone(identifier: "UTC")!
  let today = LocalDate(year: 2026, month: 11, day: 23)!  // a Monday

  func logs(_ habit: Habit, daysAgo: [Int]) -> [HabitLog] {
    daysAgo.map {
      HabitLog(
        habitID: habit.id,
        at: LocalDateTime(startOf: today.adding(days: -$0)).adding(seconds: 8 * 3600).instant(in: utc))
    }
  }

  func created(daysAgo: Int) -> Date { LocalDateTime(startOf: today.adding(days: -daysAgo)).instant(in: utc) }

  @Test func dailyStreakStaysOpenUntilTheDayEnds() {
    let habit = Habit(name: "Read", createdAt: created(daysAgo: 9))
    let stats = habit.stats(logs: logs(habit, daysAgo: [1, 2, 3, 5, 6, 7, 8, 9]), today: today, zone: utc)
    #expect(stats.currentStreak == 3)
    #expect(stats.longestStreak == 5)
    #expect(!stats.doneToday)
    // Nine expected days (today still open), eight done.
    #expect(stats.completionRate == 8.0 / 9.0)
    let done = habit.stats(logs: logs(habit, daysAgo: [0, 1, 2, 3]), today: today, zone: utc)
    #expect(done.currentStreak == 4 && done.doneToday)
  }

  @Test func aWeekdayScheduleSkipsOtherDays() {
    // Mondays, Wednesdays and Fridays; today is Monday.
    let habit = Habit(name: "Run", schedule: .days([.monday, .wednesday, .friday]), createdAt: created(daysAgo: 14))
    // Mon 9, Wed 11, Fri 13 done; Mon 16 missed; Wed 18 and Fri 20 done.
    let stats = habit.stats(logs: logs(habit, daysAgo: [3, 5, 10, 12, 14]), today: today, zone: utc)
    #expect(stats.currentStreak == 2)
    #expect(stats.longestStreak == 3)
  }

  @Test func theRateSaysHowManyPlannedDaysItIsOf() {
    // Made on Saturday with a check-in on Friday: of the three days to Monday, Friday was the one planned day
    // (Monday, today, is still open).
    let habit = Habit(name: "Run", schedule: .days([.monday, .wednesday, .friday]), createdAt: created(daysAgo: 2))
    let stats = habit.stats(logs: logs(habit, daysAgo: [3]), today: today, zone: utc)
    #expect(stats.windowDays == 4)
    #expect(stats.plannedDays == 1)
    #expect(stats.completionRate == 1)
    #expect(Habit(name: "Swim", schedule: .timesPerWeek(2)).stats(logs: [], today: today, zone: utc).plannedDays == nil)
  }

  @Test func timesPerWeekCountsWeeks() {
    let habit = Habit(name: "Gym", schedule: .timesPerWeek(2), createdAt: created(daysAgo: 21))
    // Last week (days 1–7): twice; the week before (8–14): once; the one before (15–21): twice.
    let stats = habit.stats(logs: logs(habit, daysAgo: [2, 4, 10, 16, 18]), today: today, zone: utc)
    #expect(stats.streakUnit == "weeks")
    #expect(stats.currentStreak == 1)
    #expect(stats.longestStreak == 1)
  }

  @Test func schedulesParse() {
    #expect(Habit.Schedule(parsing: "mon,wed,FR") == .days([.monday, .wednesday, .friday]))
    #expect(Habit.Schedule(parsing: "3/week") == .timesPerWeek(3))
    #expect(Habit.Schedule(parsing: "8/week") == nil)
    #expect(Habit.Schedule(parsing: "sometimes") == nil)
  }
}
