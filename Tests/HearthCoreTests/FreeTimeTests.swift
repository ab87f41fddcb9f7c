import Foundation
import HearthCore
import Testing

@Suite struct FreeTimeTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  func at(_ text: String) -> Date { LocalDateTime(parsing: text)!.instant(in: paris) }

  func event(_ title: String, _ start: String, _ end: String, allDay: Bool = false, busy: Bool = true) -> CalendarEvent
  {
    CalendarEvent(
      title: title, start: LocalDateTime(parsing: start)!, end: LocalDateTime(parsing: end)!, isAllDay: allDay,
      isBusy: busy)
  }

  func slots(_ events: [CalendarEvent], from: String, to: String, minimum: TimeInterval = 15 * 60) -> [String] {
    let window = DateInterval(start: at(from), end: at(to))
    let busy = FreeTime.busy(events.flatMap { $0.occurrences(overlapping: window, local: paris) })
    return FreeTime.slots(in: window, busy: busy, hours: .standard, zone: paris, minimum: minimum).map {
      "\(LocalDateTime($0.start, in: paris).shortDescription)–\(LocalDateTime($0.end, in: paris).shortDescription)"
    }
  }

  @Test func overlappingEventsMergeIntoOneBusyStretch() {
    let day = [
      event("A", "2026-12-01T10:00", "2026-12-01T11:00"), event("B", "2026-12-01T10:30", "2026-12-01T12:00"),
      event("C", "2026-12-01T12:00", "2026-12-01T12:10"), event("D", "2026-12-01T16:50", "2026-12-01T18:00"),
    ]
    #expect(
      slots(day, from: "2026-12-01T00:00", to: "2026-12-02T00:00")
        == ["2026-12-01T09:00–2026-12-01T10:00", "2026-12-01T12:10–2026-12-01T16:50"])
    // A 5-hour minimum leaves nothing.
    #expect(slots(day, from: "2026-12-01T00:00", to: "2026-12-02T00:00", minimum: 5 * 3600).isEmpty)
  }

  @Test func allDayEventsBlockTheirDaysOnlyWhenBusy() {
    let holiday = event("Holiday", "2026-12-02T00:00", "2026-12-03T00:00", allDay: true)
    let birthday = event("Birthday", "2026-12-03T00:00", "2026-12-04T00:00", allDay: true, busy: false)
    #expect(
      slots([holiday, birthday], from: "2026-12-02T00:00", to: "2026-12-04T00:00")
        == ["2026-12-03T09:00–2026-12-03T17:00"])
  }

  @Test func workingHoursFollowTheWallClockInTheDSTWeek() {
    // Friday 23 October to Tuesday 27 October 2026: Paris falls back on Sunday the 25th; the weekend is not
    // working time.
    let window = DateInterval(start: at("2026-10-23T00:00"), end: at("2026-10-28T00:00"))
    let free = FreeTime.slots(in: window, busy: [], hours: .standard, zone: paris)
    #expect(free.count == 3)
    #expect(free.allSatisfy { $0.duration == 8 * 3600 })
    #expect(free.map { LocalDateTime($0.start, in: paris).hour } == [9, 9, 9])
    // Monday 09:00 is 08:00 UTC after the change; Friday 09:00 was 07:00 UTC.
    #expect(
      Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: free[1].start).hour == 8)
    #expect(
      Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: free[0].start).hour == 7)
  }

  @Test func recurringEventsTakeTheirTimeEveryDay() {
    let standUp = CalendarEvent(
      title: "Stand-up", start: LocalDateTime(parsing: "2026-11-30T09:00")!,
      end: LocalDateTime(parsing: "2026-11-30T09:30")!,
      recurrence: Recurrence(frequency: .daily))
    let free = slots([standUp], from: "2026-11-30T00:00", to: "2026-12-02T00:00")
    #expect(free == ["2026-11-30T09:30–2026-11-30T17:00", "2026-12-01T09:30–2026-12-01T17:00"])
  }

  @Test func theNextFreeSlotSkipsBusyTimeAndClosedDays() {
    let friday = [event("Busy", "2026-12-04T09:00", "2026-12-04T16:30")]
    let window = DateInterval(start: at("2026-12-04T00:00"), duration: 10 * 86_400)
    let busy = FreeTime.busy(friday.flatMap { $0.occurrences(overlapping: window, local: paris) })
    let halfHour = FreeTime.nextSlot(
      lasting: 1800, after: at("2026-12-04T12:00"), busy: busy, hours: .standard, zone: paris)
    #expect(halfHour.map { LocalDateTime($0.start, in: paris) } == LocalDateTime(parsing: "2026-12-04T16:30"))
    let hour = FreeTime.nextSlot(
      lasting: 3600, after: at("2026-12-04T12:00"), busy: busy, hours: .standard, zone: paris)
    // The weekend is closed: Monday morning.
    #expect(hour.map { LocalDateTime($0.start, in: paris) } == LocalDateTime(parsing: "2026-12-07T09:00"))
  }

  @Test func conflictsNameTheOtherEvent() {
    let existing = [
      event("Dentist", "2026-12-01T10:00", "2026-12-01T11:00"),
      event("Free time", "2026-12-01T10:00", "2026-12-01T11:00", busy: false),
    ]
    let new = event("Call", "2026-12-01T10:30", "2026-12-01T11:30")
    #expect(new.conflicts(with: existing, local: paris).map(\.other.event.title) == ["Dentist"])
    let after = event("Call", "2026-12-01T11:00", "2026-12-01T11:30")
    #expect(after.conflicts(with: existing, local: paris).isEmpty)
  }

  @Test func workingHoursParse() {
    #expect(WorkingHours(parsing: "08:30-16:00 MO,TU")?.description == "08:30-16:00 MO,TU")
    #expect(WorkingHours(parsing: "17:00-09:00") == nil)
  }
}
