import Foundation
import HearthCore
import HearthInterchange
import HearthTestSupport
import PropertyBased
import Testing

/// Export → import gives back every supported field, for items full of the characters files must escape.
@Suite(.heavy) struct RoundTripTests {
  static let awkward = Array("aZ09 é,;:\\\"'\n\t-—…🙂#[]{}=")
  static let text = Gen<Character?>.element(of: awkward).map { $0 ?? "a" }.array(of: 1...30)
    .map { "x" + String($0) }
  static let zones: [EventZone] = [
    .floating, .utc, .named("Europe/Paris"), .named("America/New_York"), .named("Asia/Kolkata"),
  ]
  static let base = LocalDateTime(parsing: "2020-01-01T00:00")!

  static func wholeSeconds(_ seconds: Int) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + Double(seconds)) }

  /// An event shaped by `shape`: zone, all-day, busy and the kind of recurrence come from its digits.
  static func event(title: String, notes: String, startMinute: Int, lengthMinutes: Int, shape: Int) -> CalendarEvent {
    let allDay = shape % 4 == 0
    let zone = allDay ? EventZone.floating : zones[shape / 4 % zones.count]
    // Local hours 4–23: a series' end in a DST gap has no instant to travel through UTC as.
    var start = base.adding(seconds: startMinute * 60)
    if start.hour < 4 { start = start.adding(seconds: 4 * 3600) }
    if allDay { start = LocalDateTime(startOf: start.date) }
    let end = allDay ? start.adding(seconds: 86_400 * (1 + shape % 3)) : start.adding(seconds: lengthMinutes * 60)
    var event = CalendarEvent(
      id: "uid-\(shape)-\(title.count)", title: title, start: start, end: end, zone: zone, isAllDay: allDay,
      location: shape % 3 == 0 ? nil : title.uppercased(), notes: shape % 2 == 0 ? notes : nil,
      calendar: ["Personal", "Work", "Family, Friends"][shape % 3], isBusy: shape % 5 != 0,
      createdAt: wholeSeconds(startMinute), updatedAt: wholeSeconds(startMinute + lengthMinutes))
    let dayEnd = { (time: LocalDateTime) in allDay ? LocalDateTime(startOf: time.date).adding(seconds: 86_399) : time }
    switch shape / 20 % 5 {
    case 1: event.recurrence = Recurrence(frequency: .daily, interval: 1 + shape % 3, count: 1 + shape % 9)
    case 2:
      event.recurrence = Recurrence(
        frequency: .weekly, until: dayEnd(start.adding(seconds: 86_400 * 7 * (1 + shape % 6))),
        byWeekday: [.init(start.date.weekday), .init(start.date.adding(days: 2).weekday)], weekStart: .sunday)
      event.exceptions = [start.adding(seconds: 86_400 * 7)]
    case 3:
      event.recurrence = Recurrence(
        frequency: .monthly, count: 4,
        byWeekday: shape % 2 == 0 ? [.init(start.date.weekday, ordinal: -1)] : [],
        byMonthDay: shape % 2 == 0 ? [] : [1, -1])
    case 4: event.recurrence = Recurrence(frequency: .yearly, interval: 2)
    default: break
    }
    return event
  }

  @Test func eventsSurviveExportAndImport() async throws {
    await propertyCheck(
      count: 300, input: Self.text, Self.text, Gen.int(in: 0...5_000_000), Gen.int(in: 0...600),
      Gen.int(in: 0...10_000)
    ) { title, notes, startMinute, length, shape in
      let event = Self.event(title: title, notes: notes, startMinute: startMinute, lengthMinutes: length, shape: shape)
      #expect(throws: Never.self) { try event.validate() }
      let written = ICalendar.write(events: [event])
      let read = try ICalendar.read(Data(written.utf8))
      #expect(read.events.skipped.isEmpty, "\(read.events.skipped)")
      #expect(read.events.items.first?.item == event)
    }
  }

  @Test func remindersSurviveExportAndImport() async throws {
    await propertyCheck(count: 200, input: Self.text, Gen.int(in: 0...5_000_000), Gen.int(in: 0...1000)) {
      title, minute, shape in
      let time = Self.base.adding(seconds: minute * 60)
      let reminder = Reminder(
        id: "r\(shape)", title: title, notes: shape % 2 == 0 ? title : nil,
        due: shape % 3 == 0
          ? nil : shape % 3 == 1 ? ReminderDue(date: time.date) : ReminderDue(time: time, zone: Self.zones[shape % 2]),
        priority: ReminderPriority.allCases[shape % 4], list: shape % 2 == 0 ? "Errands; home" : "Reminders",
        completedAt: shape % 5 == 0 ? Self.wholeSeconds(minute) : nil, createdAt: Self.wholeSeconds(minute))
      let read = try ICalendar.read(Data(ICalendar.write(events: [], reminders: [reminder]).utf8))
      #expect(read.reminders.items.first?.item == reminder)
    }
  }

  @Test func contactsSurviveExportAndImportInBothVersions() async throws {
    await propertyCheck(count: 200, input: Self.text, Self.text, Gen.int(in: 0...100_000)) { name, note, shape in
      let contact = Contact(
        id: "c\(shape)", fullName: name, givenName: shape % 2 == 0 ? name : nil,
        familyName: shape % 3 == 0 ? note : nil,
        phones: shape % 4 == 0 ? [] : [LabeledValue("+33 6 \(shape)", label: shape % 2 == 0 ? "cell" : nil)],
        emails: [LabeledValue("p\(shape)@example.org", label: shape % 3 == 0 ? "home,work" : nil)],
        birthday: shape % 5 == 0
          ? nil : Birthday(year: shape % 7 == 0 ? nil : 1950 + shape % 60, month: 1 + shape % 12, day: 1 + shape % 28),
        organization: shape % 2 == 0 ? note : nil, notes: shape % 3 == 1 ? note : nil,
        createdAt: Self.wholeSeconds(shape), updatedAt: Self.wholeSeconds(shape * 2))
      for version in VCard.Version.allCases {
        let read = try VCard.read(Data(VCard.write([contact], version: version).utf8))
        #expect(read.items.first?.item == contact)
      }
    }
  }

  @Test func notesSurviveAFolderRoundTrip() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    await propertyCheck(count: 100, input: Self.text, Self.text, Gen.int(in: 0...100_000)) { title, body, shape in
      let note = Note(
        id: "n\(shape)", title: title, body: shape % 2 == 0 ? body + "\r\n---\r\nafter a rule" : body,
        tags: shape % 3 == 0 ? [] : ["work", title.prefix(5).trimmingCharacters(in: .whitespaces) + "x"],
        isPinned: shape % 2 == 1, createdAt: Self.wholeSeconds(shape), updatedAt: Self.wholeSeconds(shape + 1))
      let name = MarkdownNotes.fileNames(for: [note])[0]
      let file = folder.appendingPathComponent(name)
      try MarkdownNotes.write(note).write(to: file, atomically: true, encoding: .utf8)
      let read = try MarkdownNotes.readFolder(folder)
      try FileManager.default.removeItem(at: file)
      #expect(read.skipped.isEmpty, "\(read.skipped)")
      #expect(read.items.first?.item == note)
    }
  }
}
