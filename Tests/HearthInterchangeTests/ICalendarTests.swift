import Foundation
import HearthCore
import HearthInterchange
import Testing

@Suite struct ICalendarTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)))
  }

  @Test func readsAFileInTheShapeCalendarProgramsExport() throws {
    let contents = try ICalendar.read(fixture("calendar-export.ics"), local: paris)
    let events = Dictionary(uniqueKeysWithValues: contents.events.items.map { ($0.item.id, $0.item) })
    #expect(contents.calendarName == "Family")

    let sync = try #require(events["7kq2p1s3c1t0b8e5@example.com"])
    #expect(sync.title == "Team sync")
    #expect(sync.zone == .named("Europe/Paris"))
    #expect(sync.start == LocalDateTime(parsing: "2026-11-30T09:30"))
    #expect(sync.end == LocalDateTime(parsing: "2026-11-30T10:30"))
    #expect(sync.location == "Room 4, 2nd floor")
    #expect(
      sync.notes
        == "Bring the slides, the notes; and the charger.\nRoom changes are announced in the team channel on the "
        + "morning of each meeting, so check it first.")
    #expect(sync.calendar == "Family")
    #expect(sync.recurrence?.frequency == .weekly)
    #expect(sync.recurrence?.byWeekday.map(\.weekday) == [.monday, .wednesday])
    // UNTIL 08:30 UTC is 09:30 in Paris in winter.
    #expect(sync.recurrence?.until == LocalDateTime(parsing: "2027-01-31T09:30"))
    #expect(
      sync.exceptions == [LocalDateTime(parsing: "2026-12-07T09:30")!, LocalDateTime(parsing: "2026-12-09T09:30")!])
    #expect(sync.createdAt == Date(timeIntervalSince1970: 1_793_534_400))

    let christmas = try #require(events["christmas-2026@example.com"])
    #expect(christmas.isAllDay && !christmas.isBusy)
    #expect(christmas.end == LocalDateTime(parsing: "2026-12-26T00:00"))

    let dentist = try #require(events["dentist@example.com"])
    #expect(dentist.zone == .utc && dentist.duration == 45 * 60)

    let call = try #require(events["call@example.com"])
    #expect(call.zone == .named("America/New_York"))

    let skipped = Dictionary(uniqueKeysWithValues: contents.events.skipped.map { ($0.item ?? "", $0) })
    #expect(skipped["Ends before it starts"]?.reason.contains("before the start") == true)
    #expect(skipped["Ends before it starts"]?.line == 65)
    #expect(skipped["February thirtieth"]?.reason.contains("not a date-time") == true)
    #expect(skipped["Pay rent"]?.reason.contains("BYSETPOS") == true)
    #expect(contents.events.items.count == 4)
    #expect(contents.events.droppedProperties["VALARM"] == 1)
    #expect(contents.events.droppedProperties["SEQUENCE"] == 1)

    let reminders = Dictionary(uniqueKeysWithValues: contents.reminders.items.map { ($0.item.id, $0.item) })
    #expect(reminders["todo-1@example.com"]?.due == ReminderDue(date: LocalDate(year: 2026, month: 12, day: 20)!))
    #expect(reminders["todo-1@example.com"]?.priority == .high)
    #expect(reminders["todo-1@example.com"]?.list == "Shopping")
    #expect(reminders["todo-2@example.com"]?.completedAt == Date(timeIntervalSince1970: 1_794_992_400))
  }

  @Test func theWeeklySeriesExpandsWithItsExceptionsAndUntil() throws {
    let contents = try ICalendar.read(fixture("calendar-export.ics"), local: paris)
    let sync = try #require(contents.events.items.first { $0.item.title == "Team sync" }?.item)
    let all = sync.occurrences(overlapping: DateInterval(start: .distantPast, end: .distantFuture), local: paris)
    // Mondays and Wednesdays from Nov 30 to Jan 31: 18, minus two exceptions.
    #expect(all.count == 16)
    #expect(all.last?.start == LocalDateTime(parsing: "2027-01-27T09:30"))
    #expect(!all.contains { $0.start == LocalDateTime(parsing: "2026-12-07T09:30") })
  }

  @Test func refusesWhatIsNotACalendar() {
    #expect(throws: InterchangeError.self) { try ICalendar.read(Data("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)) }
    #expect(throws: InterchangeError.notUTF8(format: "iCalendar")) {
      try ICalendar.read(Data([0x42, 0xff, 0xfe, 0x00]))
    }
    #expect(throws: InterchangeError.self) { try ICalendar.read(Data(count: InterchangeLimits.maximumFileBytes + 1)) }
  }

  @Test func anUnclosedEventIsReportedAndTheNextOneStillReads() throws {
    let text = """
      BEGIN:VCALENDAR
      BEGIN:VEVENT
      UID:a
      DTSTART:20261201T090000
      SUMMARY:Lost
      BEGIN:VEVENT
      UID:b
      DTSTART:20261202T090000
      SUMMARY:Kept
      END:VEVENT
      END:VCALENDAR
      """
    let contents = try ICalendar.read(Data(text.utf8))
    #expect(contents.events.items.map(\.item.title) == ["Kept"])
    #expect(contents.events.skipped.map(\.line) == [2])
  }

  @Test func aRepeatingToDoRepeatsFromItsDueTimeBothWays() throws {
    let text = """
      BEGIN:VCALENDAR
      BEGIN:VTODO
      UID:bins
      RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270601
      SUMMARY:Put the bins out
      DUE;VALUE=DATE:20261201
      END:VTODO
      BEGIN:VTODO
      UID:loose
      SUMMARY:No due date
      RRULE:FREQ=DAILY
      END:VTODO
      BEGIN:VTODO
      UID:started
      SUMMARY:Water the plants
      DTSTART:20261207T080000
      DURATION:PT10M
      RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3
      END:VTODO
      END:VCALENDAR
      """
    let contents = try ICalendar.read(Data(text.utf8), local: paris)
    let bins = try #require(contents.reminders.items.first?.item)
    #expect(bins.recurrence?.byWeekday == [.init(.tuesday)])
    #expect(
      bins.recurrence?.until == LocalDateTime(startOf: LocalDate(year: 2027, month: 6, day: 1)!).adding(seconds: 86_399)
    )
    #expect(bins.completing(at: Date()).due == ReminderDue(date: LocalDate(year: 2026, month: 12, day: 8)!))
    #expect(contents.reminders.skipped.map(\.reason) == ["a repeating to-do needs DUE or DTSTART to repeat from"])
    // One with a start and no due time repeats from its start.
    let plants = try #require(contents.reminders.items.first { $0.item.id == "started" }?.item)
    #expect(plants.due == ReminderDue(time: LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 7)!, hour: 8)!))
    #expect(plants.recurrence?.count == 3)
    let written = ICalendar.write(events: [], reminders: [bins])
    #expect(written.contains("RRULE:FREQ=WEEKLY;UNTIL=20270601;BYDAY=TU"))
    let again = try ICalendar.read(Data(written.utf8), local: paris)
    #expect(again.reminders.items.first?.item.recurrence == bins.recurrence)
  }

  @Test func exportedFilesFoldLongLinesWithoutSplittingCharacters() throws {
    let event = CalendarEvent(
      id: "x", title: String(repeating: "é", count: 100), start: LocalDateTime(parsing: "2026-12-01T09:00")!,
      end: LocalDateTime(parsing: "2026-12-01T10:00")!)
    let text = ICalendar.write(events: [event])
    for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
    let back = try ICalendar.read(Data(text.utf8))
    #expect(back.events.items.first?.item.title == event.title)
  }

  @Test func writesVTimezoneBlocksForTheZonesItUses() throws {
    let event = CalendarEvent(
      id: "x", title: "Call", start: LocalDateTime(parsing: "2026-12-01T09:00")!,
      end: LocalDateTime(parsing: "2026-12-01T10:00")!, zone: .named("Europe/Paris"))
    let text = ICalendar.write(events: [event])
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\n"))
    #expect(text.contains("TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200"))
    #expect(text.contains("DTSTART;TZID=Europe/Paris:20261201T090000"))
  }
}
