import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import HearthStore
import HearthTestSupport
import Testing

@Suite("The user's data through the engine, on a real SQLite profile", .heavy)
struct PersonalDataServiceTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  private func engine() async throws -> Engine {
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:])
    configuration.timeZone = paris
    return try await Engine.open(configuration)
  }

  func at(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }

  @Test func eventsAreStoredQueriedAndConflictsReported() async throws {
    let engine = try await engine()
    let dentist = try engine.calendar.create(
      CalendarEvent(title: "Dentist", start: at("2026-12-01T10:00"), end: at("2026-12-01T11:00"), location: "Rue A"))
    #expect(dentist.conflicts.isEmpty)
    let call = try engine.calendar.create(
      CalendarEvent(title: "Call", start: at("2026-12-01T10:30"), end: at("2026-12-01T11:30")))
    #expect(call.conflicts.map(\.other.event.title) == ["Dentist"])
    let weekly = try engine.calendar.create(
      CalendarEvent(
        title: "Yoga", start: at("2026-11-02T18:00"), end: at("2026-11-02T19:00"), zone: .named("Europe/Paris"),
        recurrence: Recurrence(frequency: .weekly)))

    let week = DateInterval(
      start: at("2026-11-30T00:00").instant(in: paris), end: at("2026-12-07T00:00").instant(in: paris))
    let titles = try engine.calendar.occurrences(in: week).map { "\($0.start.shortDescription) \($0.event.title)" }
    #expect(titles == ["2026-11-30T18:00 Yoga", "2026-12-01T10:00 Dentist", "2026-12-01T10:30 Call"])

    // Moving the call after the dentist removes the conflict.
    var moved = call.event
    moved.start = at("2026-12-01T11:00")
    moved.end = at("2026-12-01T11:30")
    #expect(try engine.calendar.update(moved).conflicts.isEmpty)
    #expect(try engine.calendar.event(String(call.event.id.prefix(8))).start == at("2026-12-01T11:00"))

    let deleted = try engine.calendar.delete(weekly.event.id)
    #expect(try engine.calendar.occurrences(in: week).count == 2)
    try engine.calendar.restore(deleted)
    #expect(try engine.calendar.occurrences(in: week).count == 3)

    #expect(throws: PersonalDataError.self) {
      try engine.calendar.create(
        CalendarEvent(title: "Backwards", start: at("2026-12-01T10:00"), end: at("2026-12-01T09:00")))
    }
    #expect(throws: ItemReferenceError.self) { try engine.calendar.delete("no-such-id") }
  }

  /// Every kind goes through the one generic service: found by an id prefix, stamped, checked, refused
  /// when broken, deleted and put back the same way.
  @Test func everyKindIsKeptByTheSameService() async throws {
    let engine = try await engine()
    try roundTrip(engine.reminders, Reminder(title: "Renew passport"), broken: Reminder(title: " ")) {
      $0.title = "Renew the passport"
    }
    try roundTrip(
      engine.notes, Note(title: "Boiler", body: "Serviced in May", tags: ["Home", "home"]), broken: Note(title: "")
    ) {
      $0.body = "Serviced every May"
    }
    try roundTrip(engine.contacts, Contact(fullName: "Olga Berg"), broken: Contact(fullName: "")) {
      $0.organization = "Acme"
    }
    try roundTrip(engine.habits, Habit(name: "Run"), broken: Habit(name: "")) { $0.name = "Running" }
    try roundTrip(
      engine.calendar.items,
      CalendarEvent(title: "Dentist", start: at("2026-12-01T10:00"), end: at("2026-12-01T11:00")),
      broken: CalendarEvent(title: "Backwards", start: at("2026-12-01T10:00"), end: at("2026-12-01T09:00"))
    ) { $0.location = "Rue A" }
    // What the service stores is the canonical form: a note's tags once each.
    #expect(try engine.notes.list().first?.tags.count == 1)
  }

  private func roundTrip<Item: ServiceItem & Equatable>(
    _ service: ItemService<Item>, _ item: Item, broken: Item, change: (inout Item) -> Void
  ) throws {
    let created = try service.create(item)
    #expect(created.createdAt == created.updatedAt)
    let found = try service.item(String(created.id.prefix(8)))
    #expect(found == created)
    var changed = found
    change(&changed)
    let updated = try service.update(changed)
    #expect(try service.item(created.id) == updated)
    #expect(throws: PersonalDataError.self) { try service.create(broken) }
    let deleted = try service.delete(created.id)
    #expect(deleted == updated)
    #expect(throws: ItemReferenceError.self) { try service.item(created.id) }
    try service.restore(deleted)
    #expect(try service.item(created.id) == deleted)
  }

  @Test func freeTimeUsesTheSavedWorkingHours() async throws {
    let engine = try await engine()
    try engine.calendar.setWorkingHours(WorkingHours(parsing: "10:00-12:00")!)
    _ = try engine.calendar.create(
      CalendarEvent(title: "Busy", start: at("2026-12-01T10:00"), end: at("2026-12-01T11:00")))
    let day = DateInterval(
      start: at("2026-12-01T00:00").instant(in: paris), end: at("2026-12-02T00:00").instant(in: paris))
    let free = try engine.calendar.freeSlots(in: day)
    #expect(free.map { LocalDateTime($0.start, in: paris) } == [at("2026-12-01T11:00")])
    let next = try engine.calendar.nextFreeSlot(lasting: 7200, after: at("2026-12-01T09:00").instant(in: paris))
    #expect(next.map { LocalDateTime($0.start, in: paris) } == at("2026-12-02T10:00"))
  }

  @Test func aDayOffAskedAboutIsReadInTheSameHoursAndAWeekKeepsItsWorkingDays() async throws {
    let engine = try await engine()
    try engine.calendar.setWorkingHours(WorkingHours(parsing: "10:00-12:00")!)
    _ = try engine.calendar.create(
      CalendarEvent(title: "Yoga", start: at("2026-12-05T10:00"), end: at("2026-12-05T11:00")))
    // Saturday 5 December: no working day, yet the question is about it.
    let saturday = DateInterval(
      start: at("2026-12-05T00:00").instant(in: paris), end: at("2026-12-06T00:00").instant(in: paris))
    let free = try engine.calendar.freeSlots(in: saturday)
    #expect(free.map { LocalDateTime($0.start, in: paris) } == [at("2026-12-05T11:00")])
    // A week that holds working days keeps to them: the weekend stays out.
    let week = DateInterval(
      start: at("2026-11-30T00:00").instant(in: paris), end: at("2026-12-07T00:00").instant(in: paris))
    let weekdays = try engine.calendar.freeSlots(in: week).map { LocalDate($0.start, in: paris).weekday }
    #expect(weekdays.count == 5 && !weekdays.contains(.saturday) && !weekdays.contains(.sunday))
  }

  @Test func anImportKeepsGoodItemsAndSkipsRepeatedOrBrokenOnes() async throws {
    let engine = try await engine()
    let file = """
      BEGIN:VCALENDAR\r
      BEGIN:VEVENT\r
      UID:one\r
      DTSTART:20261201T090000\r
      DTEND:20261201T100000\r
      SUMMARY:First\r
      END:VEVENT\r
      BEGIN:VEVENT\r
      UID:one\r
      DTSTART:20261202T090000\r
      SUMMARY:Same UID\r
      END:VEVENT\r
      BEGIN:VEVENT\r
      UID:two\r
      DTSTART:20261301T090000\r
      SUMMARY:Month thirteen\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let summary = try engine.calendar.importFile(Data(file.utf8))
    #expect(summary.added == 1 && summary.replaced == 0)
    #expect(summary.skipped.map(\.line) == [8, 15])
    #expect(summary.skipped[0].reason.contains("repeats the item at line 2"))
    // The same file again replaces rather than duplicates.
    #expect(try engine.calendar.importFile(Data(file.utf8)).replaced == 1)
    #expect(try engine.calendar.events().count == 1)
    let exported = try engine.calendar.exportFile()
    #expect(exported.contains("SUMMARY:First"))
  }

  @Test func remindersNotesContactsAndHabits() async throws {
    let engine = try await engine()
    let milk = try engine.reminders.create(
      Reminder(title: "Milk", due: ReminderDue(date: LocalDate(year: 2026, month: 12, day: 1)!)))
    _ = try engine.reminders.create(
      Reminder(title: "Later", due: ReminderDue(date: LocalDate(year: 2026, month: 12, day: 9)!)))
    #expect(try engine.reminders.due(by: LocalDate(year: 2026, month: 12, day: 2)!).map(\.title) == ["Milk"])
    _ = try engine.reminders.complete(milk.id)
    #expect(try engine.reminders.list(includeCompleted: false).map(\.title) == ["Later"])

    _ = try engine.notes.create(Note(title: "Trip ideas", body: "Lisbon in spring; Porto by train.", tags: ["#travel"]))
    _ = try engine.notes.create(Note(title: "Groceries", body: "Eggs, flour"))
    #expect(try engine.notes.search("lisb").map(\.note.title) == ["Trip ideas"])
    #expect(try engine.notes.list(tag: "travel").map(\.title) == ["Trip ideas"])

    _ = try engine.contacts.create(Contact(fullName: "Chloé Dubois", organization: "Acme"))
    _ = try engine.contacts.create(Contact(fullName: "Bao Ng"))
    #expect(try engine.contacts.search("chloe").map(\.fullName) == ["Chloé Dubois"])
    #expect(try engine.contacts.search("acm").map(\.fullName) == ["Chloé Dubois"])
    #expect(throws: PersonalDataError.self) {
      try engine.contacts.create(Contact(fullName: "X", emails: [LabeledValue("not-an-email")]))
    }

    let read = try engine.habits.create(Habit(name: "Read"))
    _ = try engine.habits.log(read.id)
    let progress = try engine.habits.progress(read.id)
    #expect(progress.stats.doneToday && progress.stats.currentStreak == 1)
    try engine.habits.delete(read.id)
    #expect(try engine.habits.list().isEmpty)
  }
}
