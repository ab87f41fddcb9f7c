import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("The web app's API for calendar, reminders, notes, habits and contacts (in process)", .heavy)
struct PersonalDataAPITests {
  static let fixtures = TestModels.packageRoot.appendingPathComponent("Tests/HearthInterchangeTests/Fixtures")

  @Test func eventsCanBeAddedListedMovedAndDeletedWithConflictsShown() async throws {
    try await LiveServer.inProcess { server in
      let dentist = try await server.request(
        .POST, "/api/calendar/events",
        body: #"{"title":"Dentist","start":"2026-12-01T10:00","end":"2026-12-01T11:00","location":"Rue A"}"#)
      #expect(dentist.status == 201, "\(dentist.body)")
      let call = try await server.request(
        .POST, "/api/calendar/events",
        body:
          #"{"title":"Call","start":"2026-12-01T10:30","end":"2026-12-01T11:30","recurrence":{"frequency":"DAILY","count":3}}"#
      )
      #expect(call.json?["conflicts"]?[0]?["event"]?["title"]?.stringValue == "Dentist")
      let callID = try #require(call.json?["event"]?["id"]?.stringValue)

      let list = try await server.request(.GET, "/api/calendar/occurrences?from=2026-12-01&to=2026-12-04")
      #expect(list.status == 200)
      let starts = list.json?["occurrences"]?.arrayValue?.compactMap { $0["start"]?.stringValue }
      #expect(starts == ["2026-12-01T10:00", "2026-12-01T10:30", "2026-12-02T10:30", "2026-12-03T10:30"])

      let moved = try await server.request(
        .PUT, "/api/calendar/events/\(callID)",
        body: #"{"title":"Call","start":"2026-12-01T11:00","end":"2026-12-01T11:30"}"#)
      #expect(moved.status == 200 && moved.json?["conflicts"]?.arrayValue?.isEmpty == true, "\(moved.body)")
      let deleted = try await server.request(.DELETE, "/api/calendar/events/\(callID)")
      #expect(deleted.json?["title"]?.stringValue == "Call")
      #expect(try await server.request(.GET, "/api/calendar/events/\(callID)").status == 404)

      let free = try await server.request(
        .GET, "/api/calendar/free?from=2026-12-01T09:00&to=2026-12-01T17:00&minimum=30")
      #expect(
        free.json?["slots"]?.arrayValue?.compactMap { $0["start"]?.stringValue } == [
          "2026-12-01T09:00", "2026-12-01T11:00",
        ])
    }
  }

  @Test func badInputNamesTheFieldAndChangesNothing() async throws {
    try await LiveServer.inProcess { server in
      let unknown = try await server.request(
        .POST, "/api/calendar/events",
        body: #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T11:00","colour":"red"}"#)
      #expect(unknown.status == 400 && unknown.json?["error"]?["param"]?.stringValue == "colour", "\(unknown.body)")
      let nested = try await server.request(
        .POST, "/api/calendar/events",
        body:
          #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T11:00","recurrence":{"frequency":"DAILY","bysetpos":1}}"#
      )
      #expect(nested.status == 400 && nested.body.contains("recurrence.bysetpos"))
      let backwards = try await server.request(
        .POST, "/api/calendar/events", body: #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T09:00"}"#)
      #expect(backwards.status == 400 && backwards.json?["error"]?["param"]?.stringValue == "end")
      let impossible = try await server.request(
        .POST, "/api/calendar/events", body: #"{"title":"X","start":"2026-02-30T10:00","end":"2026-03-01T09:00"}"#)
      #expect(impossible.status == 400 && impossible.body.contains("start"))
      let badRange = try await server.request(.GET, "/api/calendar/occurrences?from=yesterday")
      #expect(badRange.status == 400 && badRange.json?["error"]?["param"]?.stringValue == "from")
      let badDue = try await server.request(.POST, "/api/reminders", body: #"{"title":"X","due":"soon"}"#)
      #expect(badDue.status == 400 && badDue.json?["error"]?["param"]?.stringValue == "due")
      let badEmail = try await server.request(
        .POST, "/api/contacts", body: #"{"full_name":"X","emails":[{"value":"nope"}]}"#)
      #expect(badEmail.status == 400 && badEmail.json?["error"]?["param"]?.stringValue == "emails")
      // A value that does not decode names its field too, so a form can say so beside it.
      let badBirthday = try await server.request(
        .POST, "/api/contacts", body: #"{"full_name":"X","phones":[],"emails":[],"birthday":"yesterday"}"#)
      #expect(badBirthday.status == 400 && badBirthday.json?["error"]?["param"]?.stringValue == "birthday")
      let missing = try await server.request(.POST, "/api/habits", body: #"{"schedule":"daily"}"#)
      #expect(missing.status == 400 && missing.json?["error"]?["param"]?.stringValue == "name", "\(missing.body)")
      let notCalendar = try await server.request(.POST, "/api/calendar/import", body: "BEGIN:VCARD\r\nEND:VCARD\r\n")
      #expect(notCalendar.status == 400 && notCalendar.json?["error"]?["code"]?.stringValue == "invalid_file")
      let list = try await server.request(.GET, "/api/calendar/occurrences?from=2026-01-01&to=2027-01-01")
      #expect(list.json?["occurrences"]?.arrayValue?.isEmpty == true)
      #expect(try await server.request(.GET, "/api/contacts").json?["contacts"]?.arrayValue?.isEmpty == true)
    }
  }

  @Test func filesComeInAndGoOut() async throws {
    try await LiveServer.inProcess { server in
      let ics = try String(contentsOf: Self.fixtures.appendingPathComponent("calendar-export.ics"), encoding: .utf8)
      let calendar = try await server.request(.POST, "/api/calendar/import", body: ics)
      #expect(calendar.json?["events"]?["added"]?.intValue == 4)
      #expect(calendar.json?["events"]?["skipped"]?.arrayValue?.count == 3)
      #expect(calendar.json?["reminders"]?["added"]?.intValue == 2)
      let exported = try await server.request(.GET, "/api/calendar/export")
      #expect(exported.header("Content-Type") == "text/calendar; charset=utf-8")
      #expect(exported.header("Content-Disposition")?.contains("hearth-calendar.ics") == true)
      #expect(exported.body.contains("SUMMARY:Team sync"))

      let vcf = try String(contentsOf: Self.fixtures.appendingPathComponent("contacts.vcf"), encoding: .utf8)
      let contacts = try await server.request(.POST, "/api/contacts/import", body: vcf)
      #expect(contacts.json?["added"]?.intValue == 3)
      let found = try await server.request(.GET, "/api/contacts?q=anna")
      #expect(found.json?["contacts"]?[0]?["full_name"]?.stringValue == "Anna Martin")

      let note = try await server.request(
        .POST, "/api/notes/import?name=Trip.md", body: "---\ntags: [travel]\n---\n# Trip\nLisbon in spring\n")
      #expect(note.json?["added"]?.intValue == 1, "\(note.body)")
      let hits = try await server.request(.GET, "/api/notes?q=lisbon")
      #expect(hits.json?["hits"]?[0]?["note"]?["title"]?.stringValue == "Trip")
      #expect(hits.json?["hits"]?[0]?["note"]?["tags"]?[0]?.stringValue == "travel")
    }
  }

  @Test func remindersAndHabitsCheckIn() async throws {
    try await LiveServer.inProcess { server in
      let reminder = try await server.request(
        .POST, "/api/reminders", body: #"{"title":"Milk","due":"2026-12-01","priority":"high"}"#)
      let id = try #require(reminder.json?["id"]?.stringValue)
      let done = try await server.request(.POST, "/api/reminders/\(id)/complete", body: #"{"done":true}"#)
      #expect(done.json?["completed_at"] != nil && done.json?["completed_at"] != .null)
      let open = try await server.request(.GET, "/api/reminders?completed=false")
      #expect(open.json?["reminders"]?.arrayValue?.isEmpty == true)

      // Repeating: done moves it to its next time and it stays open; a rule needs a due date, and each
      // refusal names its field.
      let plants = try await server.request(
        .POST, "/api/reminders",
        body: #"{"title":"Plants","due":"2026-12-01T08:00","zone":"Europe/Paris","recurrence":{"frequency":"WEEKLY"}}"#)
      let plantsID = try #require(plants.json?["id"]?.stringValue, "\(plants.body)")
      #expect(plants.json?["due"]?["zone"]?.stringValue == "Europe/Paris")
      let next = try await server.request(.POST, "/api/reminders/\(plantsID)/complete", body: #"{"done":true}"#)
      #expect(next.json?["due"]?["time"]?.stringValue == "2026-12-08T08:00", "\(next.body)")
      #expect(next.json?["completed_at"] == nil || next.json?["completed_at"] == .null)
      #expect(next.json?["recurrence"]?["frequency"]?.stringValue == "WEEKLY")
      let export = try await server.request(.GET, "/api/reminders/export")
      #expect(
        export.body.contains("RRULE:FREQ=WEEKLY") && export.body.contains("DUE;TZID=Europe/Paris:20261208T080000"))
      for (body, field) in [
        (#"{"title":"X","recurrence":{"frequency":"DAILY"}}"#, "recurrence"),
        (#"{"title":"X","due":"2026-12-01","recurrence":{"frequency":"DAILY","every":2}}"#, "recurrence.every"),
        (#"{"title":"X","due":"2026-12-01","recurrence":{"frequency":"DAILY","interval":0}}"#, "recurrence.interval"),
        (#"{"title":"X","due":"2026-12-01","zone":"Europe/Paris"}"#, "zone"),
      ] {
        let refused = try await server.request(.POST, "/api/reminders", body: body)
        #expect(refused.status == 400 && refused.json?["error"]?["param"]?.stringValue == field, "\(refused.body)")
      }

      let habit = try await server.request(.POST, "/api/habits", body: #"{"name":"Run","schedule":"MO,WE,FR"}"#)
      let habitID = try #require(habit.json?["id"]?.stringValue)
      #expect(try await server.request(.POST, "/api/habits/\(habitID)/log", body: "{}").status == 201)
      let overview = try await server.request(.GET, "/api/habits")
      #expect(overview.json?["habits"]?[0]?["stats"]?["done_today"]?.boolValue == true)
      let badSchedule = try await server.request(.POST, "/api/habits", body: #"{"name":"X","schedule":"often"}"#)
      #expect(badSchedule.status == 400)
    }
  }
}

extension JSONValue {
  fileprivate subscript(index: Int) -> JSONValue? {
    guard let values = arrayValue, values.indices.contains(index) else { return nil }
    return values[index]
  }

  fileprivate var intValue: Int? { numberValue.map { Int($0) } }

  fileprivate var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }
}
