import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthStore
import HearthTestSupport
import Testing

/// A phone's calendar, reminders and contacts apps against `hearth serve`: Python's caldav client (PyPI), given
/// only the server's address, finds the calendars, keeps them in step with sync tokens, and writes to them, while
/// Hearth's own surfaces change the same items.
@Suite("A phone syncs with Hearth's CalDAV and CardDAV server", .heavy, .enabled(if: DAVServer.isInstalled))
struct DAVPhoneTests {
  static let key = "dav-phone-test-key-0123456789"

  static let yoga = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Phone//Calendar//EN
    BEGIN:VEVENT
    UID:yoga-1
    DTSTAMP:20261201T090000Z
    DTSTART;TZID=Europe/Lisbon:20261209T180000
    DTEND;TZID=Europe/Lisbon:20261209T190000
    SUMMARY:Yoga
    RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=10
    BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:Yoga
    TRIGGER:-PT10M
    END:VALARM
    END:VEVENT
    END:VCALENDAR

    """

  static let plumber = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Phone//Reminders//EN
    BEGIN:VTODO
    UID:todo-9
    DTSTAMP:20261201T090000Z
    SUMMARY:Call the plumber
    DUE;VALUE=DATE:20261211
    END:VTODO
    END:VCALENDAR

    """

  static let card =
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana-1\r\nFN:Ana Lima\r\nN:Lima;Ana;;;\r\n"
    + "EMAIL;TYPE=HOME:ana@example.com\r\nX-PHONE-RINGTONE:marimba\r\nEND:VCARD\r\n"

  private func write(_ text: String, in folder: URL) throws -> String {
    let file = folder.appendingPathComponent(UUID().uuidString)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  @Test func thePhoneFindsSyncsAndWritesTheCalendarsListsAndContacts() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key)
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      let folder = try TestModels.temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: folder) }
      let base = "http://127.0.0.1:\(server.port)/"
      @discardableResult
      func phone(_ arguments: String...) throws -> String {
        try DAVServer.phone(base: base, user: "my-phone", password: Self.key, arguments)
      }
      let noon = LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 10)!, hour: 12)!
      let dentist = try server.engine.calendar.create(
        CalendarEvent(title: "Dentist", start: noon, end: LocalDateTime(date: noon.date, hour: 13)!)
      ).event

      // Given the bare address, the phone finds the calendar and the list.
      let calendars = try phone("calendars")
      #expect(calendars.contains("Personal | Personal | VEVENT"), "\(calendars)")
      #expect(calendars.contains("Reminders | tasks~Reminders | VTODO"), "\(calendars)")
      #expect(try phone("list", "Personal").contains("| Dentist"))
      let token = folder.appendingPathComponent("token").path
      #expect(try phone("sync", "Personal", token).contains("changed \(dentist.id)"))

      // The phone adds a weekly class with an alarm in its own zone; Hearth reads it whole.
      try phone("save", "Personal", try write(Self.yoga, in: folder))
      let yoga = try #require(try server.database.item(CalendarEvent.self, id: "yoga-1"))
      #expect(yoga.title == "Yoga")
      #expect(yoga.recurrence?.count == 10)
      #expect(yoga.zone == EventZone(parsing: "Europe/Lisbon"))

      // Hearth deletes one event and renames the other; the phone's next sync says exactly that.
      _ = try server.engine.calendar.delete(dentist.id)
      var renamed = yoga
      renamed.title = "Yoga in the park"
      renamed.updatedAt = yoga.updatedAt.addingTimeInterval(60)
      _ = try server.engine.calendar.update(renamed)
      let changes = try phone("sync", "Personal", token)
      #expect(changes.contains("changed yoga-1"), "\(changes)")
      #expect(changes.contains("removed \(dentist.id).ics"), "\(changes)")
      let read = try phone("get", "Personal", "yoga-1")
      #expect(read.contains("SUMMARY:Yoga in the park"))
      #expect(read.contains("TRIGGER:-PT10M"), "the phone's alarm is still there: \(read)")

      // The phone's edit lands; one sent with a tag Hearth never gave is refused and changes nothing.
      try phone("edit", "Personal", "yoga-1", "summary", "Yoga class")
      #expect(try server.database.item(CalendarEvent.self, id: "yoga-1")?.title == "Yoga class")
      #expect(try phone("stale-edit", "Personal", "yoga-1").trimmingCharacters(in: .whitespacesAndNewlines) == "412")
      #expect(try server.database.item(CalendarEvent.self, id: "yoga-1")?.title == "Yoga class")

      // A to-do added and ticked off on the phone is a reminder done in Hearth.
      try phone("save", "tasks~Reminders", try write(Self.plumber, in: folder))
      #expect(try server.database.item(Reminder.self, id: "todo-9")?.title == "Call the plumber")
      try phone("complete", "tasks~Reminders", "todo-9")
      #expect(try server.database.item(Reminder.self, id: "todo-9")?.completedAt != nil)

      try phone("delete", "Personal", "yoga-1")
      #expect(try server.database.item(CalendarEvent.self, id: "yoga-1") == nil)

      // A calendar made on the phone is a calendar in Hearth.
      try phone("make-calendar", "work-cal", "Work", "VEVENT")
      try phone(
        "save", "work-cal", try write(Self.yoga.replacingOccurrences(of: "yoga-1", with: "standup"), in: folder))
      #expect(try server.database.item(CalendarEvent.self, id: "standup")?.calendar == "Work")

      // Contacts: the address book is found from the principal, and a card comes back as the phone stored it.
      #expect(try phone("card-home").trimmingCharacters(in: .whitespacesAndNewlines) == "/dav/contacts/")
      let cards = folder.appendingPathComponent("card-token").path
      let bruno = try server.engine.contacts.create(Contact(fullName: "Bruno Costa"))
      #expect(try phone("card-sync", "dav/contacts/addressbook", cards).contains("changed \(bruno.id).vcf"))
      try phone("put-card", "dav/contacts/addressbook", "ana.vcf", try write(Self.card, in: folder))
      let ana = try #require(try server.database.item(Contact.self, id: "ana-1"))
      #expect(ana.fullName == "Ana Lima")
      #expect(try phone("get-card", "dav/contacts/addressbook", "ana.vcf") == Self.card)
      let renamedCard = Self.card.replacingOccurrences(of: "FN:Ana Lima", with: "FN:Ana Lima Souza")
      let stale = try phone("stale-card", "dav/contacts/addressbook", "ana.vcf", try write(renamedCard, in: folder))
      #expect(stale.trimmingCharacters(in: .whitespacesAndNewlines) == "412")
      #expect(try server.database.item(Contact.self, id: "ana-1")?.fullName == "Ana Lima")
      // Stored again over the same name, the card is changed in Hearth, the phone's own lines kept.
      try phone("put-card", "dav/contacts/addressbook", "ana.vcf", try write(renamedCard, in: folder))
      #expect(try server.database.item(Contact.self, id: "ana-1")?.fullName == "Ana Lima Souza")
      #expect(try phone("get-card", "dav/contacts/addressbook", "ana.vcf") == renamedCard)
      // Hearth removes one card; the phone's next sync names the card it stored and the one removed.
      _ = try server.engine.contacts.delete(bruno.id)
      let cardChanges = try phone("card-sync", "dav/contacts/addressbook", cards)
      #expect(cardChanges.contains("changed ana.vcf"), "\(cardChanges)")
      #expect(cardChanges.contains("removed \(bruno.id).vcf"), "\(cardChanges)")
      try phone("delete-card", "dav/contacts/addressbook", "ana.vcf")
      #expect(try server.database.item(Contact.self, id: "ana-1") == nil)
    }
  }
}
