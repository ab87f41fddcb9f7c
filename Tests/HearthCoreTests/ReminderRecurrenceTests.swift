import Foundation
import HearthCore
import Testing

@Suite("Repeating reminders: done moves them to their next due time")
struct ReminderRecurrenceTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func day(_ month: Int, _ day: Int) -> LocalDate { LocalDate(year: 2026, month: month, day: day)! }

  static func repeating(_ rule: Recurrence, due: ReminderDue) -> Reminder {
    Reminder(title: "Water the plants", due: due, recurrence: rule)
  }

  @Test func aWeeklyReminderComesBackAWeekLaterAndStaysOpen() throws {
    let due = ReminderDue(time: LocalDateTime(date: Self.day(11, 27), hour: 8, minute: 5)!)
    let done = Self.repeating(Recurrence(frequency: .weekly), due: due).completing(at: Self.now)
    #expect(done.completedAt == nil)
    #expect(done.due == ReminderDue(time: LocalDateTime(date: Self.day(12, 4), hour: 8, minute: 5)!))
    #expect(done.recurrence == Recurrence(frequency: .weekly))
  }

  @Test(arguments: [
    // Every weekday: Friday's comes back on Monday.
    (
      Recurrence(
        frequency: .weekly,
        byWeekday: [
          .init(.monday), .init(.tuesday), .init(.wednesday),
          .init(.thursday), .init(.friday),
        ]), 11, 27, 11, 30
    ),
    // The 31st of the month skips the months without one.
    (Recurrence(frequency: .monthly), 1, 31, 3, 31),
    (Recurrence(frequency: .daily, interval: 3), 12, 30, 1, 2),
    (Recurrence(frequency: .monthly, byWeekday: [.init(.friday, ordinal: -1)]), 11, 27, 12, 25),
  ])
  func theNextDayFollowsTheRule(rule: Recurrence, month: Int, day: Int, nextMonth: Int, nextDay: Int) throws {
    let done = Self.repeating(rule, due: ReminderDue(date: Self.day(month, day))).completing(at: Self.now)
    let year = nextMonth < month ? 2027 : 2026
    #expect(done.due == ReminderDue(date: LocalDate(year: year, month: nextMonth, day: nextDay)!))
    #expect(done.due?.isDateOnly == true && done.completedAt == nil)
  }

  @Test func aCountedSeriesEndsWithItsLastTime() throws {
    var reminder = Self.repeating(Recurrence(frequency: .daily, count: 2), due: ReminderDue(date: Self.day(12, 1)))
    reminder = reminder.completing(at: Self.now)
    #expect(reminder.due == ReminderDue(date: Self.day(12, 2)) && reminder.recurrence?.count == 1)
    reminder = reminder.completing(at: Self.now)
    #expect(reminder.completedAt == Self.now && reminder.due == ReminderDue(date: Self.day(12, 2)))
    // Done already: done again changes nothing.
    #expect(reminder.completing(at: Self.now.addingTimeInterval(60)) == reminder)
  }

  @Test func aSeriesPastItsUntilIsDone() throws {
    let until = LocalDateTime(startOf: Self.day(12, 5)).adding(seconds: 86_399)
    let reminder = Self.repeating(Recurrence(frequency: .weekly, until: until), due: ReminderDue(date: Self.day(12, 1)))
    #expect(reminder.nextDue() == nil)
    #expect(reminder.completing(at: Self.now).completedAt == Self.now)
  }

  @Test func aReminderThatDoesNotRepeatIsSimplyDone() {
    let reminder = Reminder(title: "Post the letter", due: ReminderDue(date: Self.day(12, 1)))
    #expect(reminder.completing(at: Self.now).completedAt == Self.now)
    #expect(Reminder(title: "Someday").completing(at: Self.now).isCompleted)
  }

  @Test func repeatingNeedsADueDateAndAValidRule() {
    #expect(throws: PersonalDataError.invalid(field: "recurrence", "needs a due date to repeat from")) {
      try Reminder(title: "Stretch", recurrence: Recurrence(frequency: .daily)).validate()
    }
    #expect(throws: PersonalDataError.self) {
      try Self.repeating(Recurrence(frequency: .daily, interval: 0), due: ReminderDue(date: Self.day(12, 1))).validate()
    }
  }

  @Test func rulesInWords() {
    #expect(Recurrence(frequency: .weekly).summary == "every week")
    #expect(Recurrence(frequency: .monthly, interval: 2, byMonthDay: [15]).summary == "every 2 months on the 15th")
    #expect(
      Recurrence(frequency: .weekly, byWeekday: Weekday.allCases.prefix(5).map { .init($0) }).summary
        == "every weekday")
    #expect(Recurrence(frequency: .daily, count: 3).summary == "every day, 3 times")
  }
}
