import Foundation
import HearthCore
import Testing

@testable import HearthInterchange

/// Items written back into the server's own copy: only what changed is replaced.
@Suite struct SyncedBodiesTests {
  static let utc = TimeZone(identifier: "UTC")!
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// A series as a phone writes it: a time zone, an alarm, attendees, X- properties, an exception and a
  /// changed occurrence, folded lines.
  static let series =
    [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//Calendar 17//EN",
      "BEGIN:VTIMEZONE", "TZID:Europe/Lisbon", "BEGIN:STANDARD", "DTSTART:19961027T020000", "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0000", "END:STANDARD", "END:VTIMEZONE",
      "BEGIN:VEVENT", "UID:standup-1@phone", "DTSTAMP:20260101T000000Z", "SEQUENCE:3",
      "DTSTART;TZID=Europe/Lisbon:20261201T093000", "DTEND;TZID=Europe/Lisbon:20261201T094500", "SUMMARY:Standup",
      "RRULE:FREQ=WEEKLY;BYDAY=TU", "EXDATE;TZID=Europe/Lisbon:20261215T093000",
      "ATTENDEE;CN=Ana;ROLE=REQ-PARTICIPANT:mailto:ana@example.com", "X-PHONE-COLOUR:teal",
      "DESCRIPTION:A long description that a phone folds because it runs on past seventy-five o",
      " ctets on one line.",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:Reminder", "END:VALARM",
      "END:VEVENT",
      "BEGIN:VEVENT", "UID:standup-1@phone", "RECURRENCE-ID;TZID=Europe/Lisbon:20261208T093000",
      "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Lisbon:20261208T100000",
      "DTEND;TZID=Europe/Lisbon:20261208T101500", "SUMMARY:Standup (late)", "END:VEVENT",
      "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

  static func master(_ text: String) throws -> CalendarEvent {
    let contents = try ICalendar.read(Data(text.utf8), local: utc)
    return try #require(contents.events.items.first?.item)
  }

  @Test func changingTheTitleReplacesOnlyTheTitleAndTheStamps() throws {
    let old = try Self.master(Self.series)
    var new = old
    new.title = "Daily standup"
    let patched = SyncedBodies.patched(Self.series, from: old, to: new, now: Self.now)
    let before = Self.series.components(separatedBy: "\r\n")
    let after = patched.components(separatedBy: "\r\n")
    #expect(after.contains("SUMMARY:Daily standup"))
    #expect(!after.contains("SUMMARY:Standup"))
    #expect(after.contains("SEQUENCE:4"))
    // The override keeps its own title, and every other line is as the phone wrote it.
    #expect(after.contains("SUMMARY:Standup (late)"))
    let untouched = before.filter {
      $0 != "SUMMARY:Standup" && $0 != "SEQUENCE:3" && !$0.hasPrefix("DTSTAMP")
    }
    for line in untouched { #expect(after.contains(line), "lost: \(line)") }
    #expect(after.count == before.count + 1, "LAST-MODIFIED added, nothing else")
    // Read back, the change is there and the series is whole.
    let reread = try Self.master(patched)
    #expect(reread.title == "Daily standup")
    #expect(reread.recurrence == old.recurrence)
    #expect(reread.exceptions == old.exceptions)
  }

  @Test func anUnchangedItemLeavesTheBodyByteForByte() throws {
    let old = try Self.master(Self.series)
    var new = old
    new.updatedAt = Self.now
    new.calendar = "Work (fastmail)"
    #expect(SyncedBodies.patched(Self.series, from: old, to: new, now: Self.now) == Self.series)
  }

  @Test func movingTheTimeReplacesStartAndEndInTheSameZone() throws {
    let old = try Self.master(Self.series)
    var new = old
    new.start = try #require(LocalDateTime(date: new.start.date, hour: 14, minute: 0))
    new.end = try #require(LocalDateTime(date: new.end.date, hour: 14, minute: 15))
    let patched = SyncedBodies.patched(Self.series, from: old, to: new, now: Self.now)
    #expect(patched.contains("DTSTART;TZID=Europe/Lisbon:20261201T140000\r\n"))
    #expect(patched.contains("DTEND;TZID=Europe/Lisbon:20261201T141500\r\n"))
    #expect(patched.contains("TRIGGER:-PT10M"))
    #expect(patched.contains("ATTENDEE;CN=Ana;ROLE=REQ-PARTICIPANT:mailto:ana@example.com"))
    // One VTIMEZONE for Lisbon: the phone's, not a second one.
    #expect(patched.components(separatedBy: "TZID:Europe/Lisbon").count == 2)
  }

  @Test func aNewLocationIsAddedBeforeTheAlarm() throws {
    let old = try Self.master(Self.series)
    var new = old
    new.location = "Room 4"
    let patched = SyncedBodies.patched(Self.series, from: old, to: new, now: Self.now)
    let lines = patched.components(separatedBy: "\r\n")
    let location = try #require(lines.firstIndex(of: "LOCATION:Room 4"))
    let alarm = try #require(lines.firstIndex(of: "BEGIN:VALARM"))
    #expect(location < alarm)
    #expect(try Self.master(patched).location == "Room 4")
  }

  @Test func anEventGivenByItsDurationGetsOneEndWhenMoved() throws {
    let body =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VEVENT", "UID:d1", "DTSTAMP:20260101T000000Z",
        "DTSTART:20261201T090000Z", "DURATION:PT45M", "SUMMARY:Physio", "END:VEVENT", "END:VCALENDAR",
      ].joined(separator: "\r\n") + "\r\n"
    let old = try Self.master(body)
    var new = old
    new.start = old.start.adding(seconds: 3600)
    new.end = old.end.adding(seconds: 3600)
    let patched = SyncedBodies.patched(body, from: old, to: new, now: Self.now)
    #expect(!patched.contains("DURATION"))
    #expect(patched.contains("DTEND:20261201T104500Z"), "\(patched)")
    let reread = try Self.master(patched)
    #expect(reread.end == new.end)
    // Only the title changed: the duration stays as the phone wrote it.
    var renamed = old
    renamed.title = "Physio (knee)"
    #expect(SyncedBodies.patched(body, from: old, to: renamed, now: Self.now).contains("DURATION:PT45M"))
  }

  @Test func aNewItemCarriesNoHearthBookkeeping() throws {
    let day = try #require(LocalDate(year: 2026, month: 12, day: 9))
    let event = CalendarEvent(
      id: "e1", title: "Dentist", start: try #require(LocalDateTime(date: day, hour: 9)),
      end: try #require(LocalDateTime(date: day, hour: 10)), zone: .named("Europe/Paris"),
      calendar: "Work (fastmail)", createdAt: Self.now)
    let body = SyncedBodies.new(event, now: Self.now)
    #expect(!body.contains("X-HEARTH"))
    #expect(body.contains("BEGIN:VTIMEZONE"))
    #expect(try Self.master(body).title == "Dentist")
  }

  @Test func aContactKeepsThePhonesOwnFields() throws {
    let card =
      [
        "BEGIN:VCARD", "VERSION:3.0", "UID:c1", "FN:Ana Lima", "N:Lima;Ana;;;", "TEL;TYPE=CELL:+351 900 000 000",
        "item1.X-ABLabel:Partner", "X-PHONE-RING:chime", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ", "END:VCARD",
      ].joined(separator: "\r\n") + "\r\n"
    let old = try #require(try VCard.read(Data(card.utf8)).items.first?.item)
    var new = old
    new.organization = "Lima & Co"
    let patched = SyncedBodies.patched(card, from: old, to: new, now: Self.now)
    #expect(patched.contains("ORG:Lima & Co\r\n"))
    for kept in [
      "X-PHONE-RING:chime", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ", "item1.X-ABLabel:Partner",
      "TEL;TYPE=CELL:+351 900 000 000", "VERSION:3.0",
    ] {
      #expect(patched.contains(kept + "\r\n"), "lost: \(kept)")
    }
    #expect(try VCard.read(Data(patched.utf8)).items.first?.item.organization == "Lima & Co")
  }
}
