import Foundation
import HearthTestSupport
import Testing

@Suite("hearth calendar, reminders, notes, habits and contacts", .heavy)
struct DataCommandsTests {
  static let fixtures = TestModels.packageRoot.appendingPathComponent("Tests/HearthInterchangeTests/Fixtures")
  static let reparse = TestModels.packageRoot.appendingPathComponent("Tests/interop/reparse.py")

  /// A profile of its own on Paris time.
  private func hearth() throws -> CommandRunner {
    CommandRunner(environment: ["HEARTH_HOME": try TestModels.temporaryDirectory().path, "TZ": "Europe/Paris"])
  }

  private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  private func ok(_ hearth: CommandRunner, _ arguments: [String]) async throws -> String {
    let result = try await hearth.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    return result.standardOutput
  }

  @Test func calendarListAddEditRemoveAndFreeTime() async throws {
    let hearth = try hearth()
    let imported = try await ok(
      hearth, ["calendar", "import", Self.fixtures.appendingPathComponent("calendar-export.ics").path])
    #expect(imported.contains("4 events added, 0 replaced, 3 skipped"))
    #expect(imported.contains("line 81 (Pay rent): RRULE: BYSETPOS is not supported"))
    #expect(imported.contains("2 reminders added"))

    let added = try await ok(
      hearth, ["calendar", "add", "Review", "--start", "2026-12-02T16:30", "--end", "2026-12-02T17:00", "--json"])
    let saved = try #require(try json(added) as? [String: Any])
    // The dentist is at 15:00 UTC, 16:00 in Paris.
    #expect((saved["conflicts"] as? [Any])?.count == 1)
    let id = try #require((saved["event"] as? [String: Any])?["id"] as? String)

    let day = try #require(
      try json(try await ok(hearth, ["calendar", "list", "--from", "2026-12-02", "--to", "2026-12-02", "--json"]))
        as? [[String: Any]])
    #expect(day.map { $0["title"] as? String } == ["Team sync", "Dentist", "Review"])
    #expect(day.map { $0["start"] as? String } == ["2026-12-02T09:30", "2026-12-02T16:00", "2026-12-02T16:30"])

    _ = try await ok(
      hearth, ["calendar", "edit", String(id.prefix(8)), "--start", "2026-12-02T17:00", "--title", "Late review"])
    let moved = try #require(
      try json(
        try await ok(hearth, ["calendar", "list", "--from", "2026-12-02T16:45", "--to", "2026-12-02T18:00", "--json"]))
        as? [[String: Any]])
    #expect(moved.map { $0["title"] as? String } == ["Late review"])
    #expect(moved.first?["end"] as? String == "2026-12-02T17:30")

    let free = try #require(
      try json(
        try await ok(hearth, ["calendar", "free", "--from", "2026-12-02T09:00", "--to", "2026-12-02", "--json"]))
        as? [[String: String]])
    #expect(free.map { $0["start"]! } == ["2026-12-02T09:00", "2026-12-02T10:30"])
    let next = try await ok(hearth, ["calendar", "free", "--from", "2026-12-02T09:00", "--next", "400", "--json"])
    #expect(next.contains("2026-12-03T09:00"))

    #expect(try await ok(hearth, ["calendar", "rm", id]).contains("deleted Late review"))
    let missing = try await hearth.run(["calendar", "rm", id])
    #expect(missing.status == 1 && missing.standardError.contains("no event with id"))
  }

  @Test func aCalendarExportedByHearthReadsInAnotherParserAndComesBackTheSame() async throws {
    let first = try hearth()
    _ = try await ok(first, ["calendar", "import", Self.fixtures.appendingPathComponent("calendar-export.ics").path])
    _ = try await ok(
      first,
      [
        "calendar", "add", "Piano; scales, arpeggios", "--start", "2026-12-05T10:00", "--repeat", "weekly", "--on",
        "SA,SU",
        "--until", "2027-02-28", "--zone", "Europe/Paris", "--notes", "Line one\nline two",
      ])
    let folder = try TestModels.temporaryDirectory()
    let exported = folder.appendingPathComponent("hearth.ics")
    let rewritten = folder.appendingPathComponent("rewritten.ics")
    _ = try await ok(first, ["calendar", "export", "-o", exported.path])

    let python = try await CommandRunner.runProcess(
      "/usr/bin/python3", [Self.reparse.path, "ics", exported.path, rewritten.path])
    #expect(python.status == 0, "python3-icalendar (make test installs it): \(python.standardError)")
    let seen = try #require(try json(python.standardOutput) as? [[String: Any]])
    let piano = try #require(seen.first { ($0["summary"] as? String)?.hasPrefix("Piano") == true })
    #expect(piano["summary"] as? String == "Piano; scales, arpeggios")
    #expect(piano["tzid"] as? String == "Europe/Paris")
    #expect(piano["rrule"] as? String == "FREQ=WEEKLY;UNTIL=20270228T225959Z;BYDAY=SA,SU")

    let second = try hearth()
    _ = try await ok(second, ["calendar", "import", rewritten.path])
    let range = ["--from", "2026-01-01", "--to", "2028-01-01", "--json"]
    #expect(try await ok(first, ["calendar", "list"] + range) == (try await ok(second, ["calendar", "list"] + range)))
    let again = folder.appendingPathComponent("again.ics")
    _ = try await ok(second, ["calendar", "export", "-o", again.path])
    let lines = { (url: URL) in
      try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP") }
    }
    #expect(try lines(exported) == lines(again))
  }

  @Test func contactsImportSearchAndVobjectInterop() async throws {
    let hearth = try hearth()
    let imported = try await ok(
      hearth, ["contacts", "import", Self.fixtures.appendingPathComponent("contacts.vcf").path])
    #expect(imported.contains("3 contacts added, 0 replaced, 2 skipped"))
    let found = try #require(
      try json(try await ok(hearth, ["contacts", "search", "chloe", "--json"])) as? [[String: Any]])
    #expect(found.map { $0["full_name"] as? String } == ["Chloé Dubois"])
    // A card without a UID gets the same id each time, so a second import replaces it.
    #expect(
      try await ok(hearth, ["contacts", "import", Self.fixtures.appendingPathComponent("contacts.vcf").path])
        .contains("0 contacts added, 3 replaced"))

    let folder = try TestModels.temporaryDirectory()
    let exported = folder.appendingPathComponent("hearth.vcf")
    _ = try await ok(hearth, ["contacts", "export", "--vcard", "3.0", "-o", exported.path])
    let python = try await CommandRunner.runProcess(
      "/usr/bin/python3", [Self.reparse.path, "vcf", exported.path, folder.appendingPathComponent("back.vcf").path])
    #expect(python.status == 0, "python3-vobject (make test installs it): \(python.standardError)")
    let seen = try #require(try json(python.standardOutput) as? [[String: Any]])
    #expect(seen.map { $0["fn"] as? String } == ["Anna Martin", "Bao Ng", "Chloé Dubois"])
    let second = try self.hearth()
    _ = try await ok(second, ["contacts", "import", folder.appendingPathComponent("back.vcf").path])
    #expect(
      try await ok(second, ["contacts", "list", "--json"]) == (try await ok(hearth, ["contacts", "list", "--json"])))
  }

  @Test func remindersNotesAndHabits() async throws {
    let hearth = try hearth()
    let reminder = try #require(
      try json(
        try await ok(hearth, ["reminders", "add", "Call mum", "--due", "2026-12-01", "--priority", "high", "--json"]))
        as? [String: Any])
    let reminderID = try #require(reminder["id"] as? String)
    #expect(try await ok(hearth, ["reminders", "done", reminderID]).hasPrefix("[x] Call mum"))
    #expect(try await ok(hearth, ["reminders", "list"]).isEmpty)
    #expect(try await ok(hearth, ["reminders", "list", "--all"]).contains("Call mum"))

    // A repeating reminder done is due again at its next time, through an export and import too.
    let plants = try #require(
      try json(
        try await ok(
          hearth, ["reminders", "add", "Water the plants", "--due", "2026-12-01T08:00", "--repeat", "weekly", "--json"])
      )
        as? [String: Any])
    let plantsID = try #require(plants["id"] as? String)
    #expect(
      try await ok(hearth, ["reminders", "done", plantsID]).hasPrefix("[ ] Water the plants  due 2026-12-08T08:00"))
    #expect(try await ok(hearth, ["reminders", "list"]).contains("↻ every week"))
    let ics = try await ok(hearth, ["reminders", "export"])
    #expect(ics.contains("RRULE:FREQ=WEEKLY"))
    let noStart = try await hearth.run(["reminders", "add", "Stretch", "--repeat", "daily"])
    #expect(noStart.status != 0 && noStart.standardError.contains("--repeat needs --due"))
    let noDue = try await hearth.run(["reminders", "edit", plantsID, "--no-due"])
    #expect(noDue.status != 0 && noDue.standardError.contains("recurrence: needs a due date"))
    #expect(try await ok(hearth, ["reminders", "edit", plantsID, "--no-repeat"]).contains("Water the plants"))
    #expect(try await ok(hearth, ["reminders", "done", plantsID]).hasPrefix("[x] Water the plants"))

    _ = try await ok(hearth, ["notes", "add", "Trip ideas", "--body", "Lisbon in spring", "--tag", "travel", "--pin"])
    let hits = try #require(try json(try await ok(hearth, ["notes", "search", "lisb", "--json"])) as? [[String: Any]])
    #expect(hits.count == 1)
    let folder = try TestModels.temporaryDirectory().appendingPathComponent("notes")
    _ = try await ok(hearth, ["notes", "export", folder.path])
    let file = try String(contentsOf: folder.appendingPathComponent("Trip ideas.md"), encoding: .utf8)
    #expect(file.contains("tags: [\"travel\"]") && file.hasSuffix("Lisbon in spring"))
    let refused = try await hearth.run(["notes", "export", folder.path])
    #expect(refused.status == 1 && refused.standardError.contains("exists already"))
    let other = try self.hearth()
    #expect(try await ok(other, ["notes", "import", folder.path]).contains("1 notes added"))
    #expect(try await ok(other, ["notes", "list", "--json"]) == (try await ok(hearth, ["notes", "list", "--json"])))

    let habit = try #require(
      try json(try await ok(hearth, ["habits", "add", "Run", "--schedule", "MO,WE,FR", "--json"])) as? [String: Any])
    let habitID = try #require(habit["id"] as? String)
    #expect(try await ok(hearth, ["habits", "log", String(habitID.prefix(6))]).hasPrefix("[x] Run"))
    let stats = try #require(try json(try await ok(hearth, ["habits", "stats", habitID, "--json"])) as? [String: Any])
    #expect((stats["stats"] as? [String: Any])?["done_today"] as? Bool == true)
    let badSchedule = try await hearth.run(["habits", "add", "Swim", "--schedule", "sometimes"])
    #expect(badSchedule.status != 0 && badSchedule.standardError.contains("--schedule"))
  }

  @Test func askActsAndShowsACardInsteadOfTheBlock() async throws {
    var hearth = try hearth()
    hearth.environment["HEARTH_MODEL"] = TestModels.smolLM2
    let output = try await ok(
      hearth, ["ask", "Add a meeting with Sam tomorrow at 10 for an hour", "--temperature", "0"])
    #expect(!output.contains("CALENDAR_ACTION"), "\(output)")
    #expect(output.contains("✓ Added"), "\(output)")
    let listed = try #require(try json(try await ok(hearth, ["calendar", "list", "--json"])) as? [[String: Any]])
    #expect(listed.contains { ($0["start"] as? String)?.hasSuffix("T10:00") == true })
    let quiet = try await ok(
      hearth,
      ["ask", "Add a meeting with Ana tomorrow at 11", "--no-actions", "--temperature", "0", "--max-tokens", "20"])
    #expect(!quiet.contains("✓"))
  }

  @Test func badFilesAreRefusedWithTheirReason() async throws {
    let hearth = try hearth()
    let folder = try TestModels.temporaryDirectory()
    let binary = folder.appendingPathComponent("photo.ics")
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]).write(to: binary)
    let notText = try await hearth.run(["calendar", "import", binary.path])
    #expect(notText.status == 1 && notText.standardError.contains("not UTF-8"))
    let wrongKind = try await hearth.run([
      "calendar", "import", Self.fixtures.appendingPathComponent("contacts.vcf").path,
    ])
    #expect(wrongKind.status == 1 && wrongKind.standardError.contains("not an iCalendar file"))
    let missing = try await hearth.run(["contacts", "import", folder.appendingPathComponent("nope.vcf").path])
    #expect(missing.status != 0 && missing.standardError.contains("cannot read"))
    let impossible = try await hearth.run(["calendar", "add", "X", "--start", "2026-02-30T10:00"])
    #expect(impossible.status != 0 && impossible.standardError.contains("--start"))
    let backwards = try await hearth.run([
      "calendar", "add", "X", "--start", "2026-12-01T10:00", "--end", "2026-12-01T09:00",
    ])
    #expect(backwards.status == 1 && backwards.standardError.contains("end: 2026-12-01T09:00 is before the start"))
    #expect(
      try await ok(hearth, ["calendar", "list", "--from", "2026-01-01", "--to", "2028-01-01", "--json"]) == "[]\n")
  }
}
