import Foundation
import HearthCore
import Testing

@Suite("Automation schedules as people write them, and cron lines")
struct AutomationScheduleTests {
  let paris = TimeZone(identifier: "Europe/Paris")!
  private func at(_ text: String) -> Date { LocalDateTime(parsing: text)!.instant(in: paris) }

  private func next(_ schedule: String, after: String) -> String? {
    AutomationSchedule(parsing: schedule)?.next(after: at(after), in: paris)
      .map { LocalDateTime($0, in: paris).shortDescription }
  }

  @Test func plainFormsNameTheirNextTime() {
    // Thursday 2026-11-26, 10:00.
    let now = "2026-11-26T10:00"
    #expect(next("fri 17:00", after: now) == "2026-11-27T17:00")
    #expect(next("every friday at 5pm", after: now) == "2026-11-27T17:00")
    #expect(next("daily 08:00", after: now) == "2026-11-27T08:00")
    #expect(next("every day at 10:30", after: now) == "2026-11-26T10:30")
    #expect(next("09:15", after: now) == "2026-11-27T09:15")
    #expect(next("weekdays 9am", after: "2026-11-27T10:00") == "2026-11-30T09:00")
    #expect(next("weekends noon", after: now) == "2026-11-28T12:00")
    #expect(next("mon,wed 18:30", after: now) == "2026-11-30T18:30")
    #expect(next("Mondays and Wednesdays 18:30", after: now) == "2026-11-30T18:30")
    #expect(next("hourly", after: now) == "2026-11-26T11:00")
    #expect(next("every 30m", after: now) == "2026-11-26T10:30")
    #expect(next("every 2 hours", after: now) == "2026-11-26T12:00")
    #expect(next("12:30pm", after: now) == "2026-11-26T12:30")
    #expect(next("12am", after: now) == "2026-11-27T00:00")
  }

  @Test func cronLinesReadAsCronReadsThem() {
    let now = "2026-11-26T10:00"
    #expect(next("0 17 * * 5", after: now) == "2026-11-27T17:00")
    #expect(next("*/15 * * * *", after: now) == "2026-11-26T10:15")
    #expect(next("30 8 1 * *", after: now) == "2026-12-01T08:30")
    #expect(next("0 9 * * 1-5", after: "2026-11-27T10:00") == "2026-11-30T09:00")
    #expect(next("0 9 * * 0", after: now) == "2026-11-29T09:00")
    #expect(next("0 9 * * 7", after: now) == "2026-11-29T09:00")
    // Day of the month and day of the week both given: either one.
    #expect(next("0 9 1 * 6", after: now) == "2026-11-28T09:00")
    #expect(next("0 0 29 2 *", after: now) == "2028-02-29T00:00")
    #expect(next("0 0 30 2 *", after: now) == nil)
  }

  @Test func whatDoesNotReadIsRefused() {
    for text in ["", "fri 5", "every 0m", "blursday 10:00", "0 25 * * *", "* * * *", "25:00", "13pm", "daily at"] {
      #expect(AutomationSchedule(parsing: text) == nil, "\(text)")
    }
    #expect(AutomationSchedule(parsing: "Fri 17:00")?.description == "Fri 17:00")
  }
}
