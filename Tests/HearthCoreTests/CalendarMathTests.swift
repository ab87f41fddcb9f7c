import Foundation
import HearthCore
import PropertyBased
import Testing

@Suite struct CalendarMathTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  func at(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }

  /// From 1583 on: Foundation switches to the Julian calendar before October 1582.
  @Test func dayNumbersAgreeWithFoundationsCalendar() async {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = TimeZone(identifier: "UTC")!
    await propertyCheck(input: Gen.int(in: -140_000...2_900_000)) { day in
      let date = LocalDate(dayNumber: day)
      let components = gregorian.dateComponents(
        [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(day) * 86_400))
      #expect([date.year, date.month, date.day] == [components.year, components.month, components.day])
      #expect(date.dayNumber == day)
      // Foundation counts Sunday as 1.
      #expect((date.weekday.index + 1) % 7 + 1 == components.weekday)
    }
  }

  @Test func parsesWhatPeopleAndFilesWrite() {
    #expect(at("2026-12-01T09:00").description == "2026-12-01T09:00:00")
    #expect(LocalDateTime(parsing: "20261201T090000") == at("2026-12-01 09:00"))
    #expect(LocalDateTime(parsing: "2026-02-30T09:00") == nil)
    #expect(LocalDateTime(parsing: "2026-12-01T25:00") == nil)
    #expect(LocalDate(parsing: "2024-02-29") != nil)
    #expect(LocalDate(parsing: "2026-02-29") == nil)
  }

  @Test func wallTimesBecomeInstantsAcrossDSTChanges() {
    // Paris springs forward on 2026-03-29 at 02:00 and falls back on 2026-10-25 at 03:00.
    #expect(at("2026-03-29T01:30").instant(in: paris).timeIntervalSince1970 == 1_774_744_200)
    // 02:30 does not exist; it is read with the winter offset and lands at 03:30 summer time.
    #expect(at("2026-03-29T02:30").instant(in: paris) == at("2026-03-29T03:30").instant(in: paris))
    // 02:30 happens twice; the first one is meant.
    let ambiguous = at("2026-10-25T02:30").instant(in: paris)
    #expect(paris.isDaylightSavingTime(for: ambiguous))
    #expect(LocalDateTime(ambiguous, in: paris) == at("2026-10-25T02:30"))
  }

  @Test func weeklySeriesKeepsItsWallTimeThroughTheDSTChange() {
    let event = CalendarEvent(
      title: "Swim", start: at("2026-10-19T09:00"), end: at("2026-10-19T10:00"), zone: .named("Europe/Paris"),
      recurrence: Recurrence(frequency: .weekly, count: 3))
    let all = event.occurrences(overlapping: DateInterval(start: .distantPast, end: .distantFuture), local: .current)
    #expect(all.map(\.start) == [at("2026-10-19T09:00"), at("2026-10-26T09:00"), at("2026-11-02T09:00")])
    // One week of wall time across the change is 7 days and one hour.
    #expect(all[1].startsAt.timeIntervalSince(all[0].startsAt) == 7 * 86_400 + 3600)
  }

  @Test func monthlyRulesSkipMissingDaysAndFindOrdinalWeekdays() {
    let on31st = CalendarEvent(
      title: "Invoice", start: at("2026-01-31T10:00"), end: at("2026-01-31T10:30"),
      recurrence: Recurrence(frequency: .monthly, count: 4))
    let starts = on31st.occurrences(overlapping: DateInterval(start: .distantPast, end: .distantFuture), local: paris)
      .map(\.start.date.description)
    #expect(starts == ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31"])

    let lastFriday = CalendarEvent(
      title: "Drinks", start: at("2026-11-27T18:00"), end: at("2026-11-27T20:00"),
      recurrence: Recurrence(frequency: .monthly, count: 3, byWeekday: [.init(.friday, ordinal: -1)]))
    #expect(
      lastFriday.occurrences(overlapping: DateInterval(start: .distantPast, end: .distantFuture), local: paris)
        .map(\.start.date.description) == ["2026-11-27", "2026-12-25", "2027-01-29"])
  }

  @Test func aRangeQuerySeesOnlyOccurrencesThatOverlapIt() {
    let daily = CalendarEvent(
      title: "Stand-up", start: at("2026-01-01T09:00"), end: at("2026-01-01T09:15"),
      recurrence: Recurrence(frequency: .daily, byWeekday: [.init(.monday), .init(.friday)]),
      exceptions: [at("2026-12-04T09:00")])
    let week = DateInterval(
      start: at("2026-11-30T00:00").instant(in: paris), end: at("2026-12-07T00:00").instant(in: paris))
    #expect(daily.occurrences(overlapping: week, local: paris).map(\.start) == [at("2026-11-30T09:00")])
    let yearly = CalendarEvent(
      title: "Leap", start: at("2024-02-29T00:00"), end: at("2024-03-01T00:00"), isAllDay: true,
      recurrence: Recurrence(frequency: .yearly))
    let years = DateInterval(
      start: at("2025-01-01T00:00").instant(in: paris), end: at("2029-01-01T00:00").instant(in: paris))
    #expect(yearly.occurrences(overlapping: years, local: paris).map(\.start.date.year) == [2028])
  }

  @Test func validationNamesTheField() {
    let backwards = CalendarEvent(title: "X", start: at("2026-12-01T10:00"), end: at("2026-12-01T09:00"))
    #expect(throws: PersonalDataError.self) { try backwards.validate() }
    do {
      try backwards.validate()
    } catch {
      #expect(error.description.hasPrefix("end:"))
    }
    let badRule = CalendarEvent(
      title: "X", start: at("2026-12-01T10:00"), end: at("2026-12-01T11:00"),
      recurrence: Recurrence(frequency: .weekly, interval: 0))
    #expect(throws: PersonalDataError.invalid(field: "recurrence.interval", "must be 1…1000, not 0")) {
      try badRule.validate()
    }
  }
}
