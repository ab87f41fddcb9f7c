import Foundation
import HearthTestSupport
import Testing

@Suite("hearth briefing: the day at a glance from the data", .heavy)
struct BriefingCommandTests {
  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  private func ok(_ hearth: CommandRunner, _ arguments: [String]) async throws -> String {
    let result = try await hearth.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    return result.standardOutput
  }

  private func id(_ hearth: CommandRunner, _ arguments: [String]) async throws -> String {
    let object = try json(try await ok(hearth, arguments + ["--json"]))
    return try #require((object["id"] ?? (object["event"] as? [String: Any])?["id"]) as? String)
  }

  /// Friday 2025-11-28 on Paris time (a past day: its free time is the whole working day), with items on the
  /// day and around it that must stay out.
  @Test func theBriefingListsExactlyTheSeededItemsOfTheDay() async throws {
    let hearth = CommandRunner(
      environment: ["HEARTH_HOME": try TestModels.temporaryDirectory().path, "TZ": "Europe/Paris"])
    _ = try await ok(hearth, ["calendar", "add", "Dentist", "--start", "2025-11-28T09:00", "--duration", "60"])
    _ = try await ok(
      hearth, ["calendar", "add", "Lunch with Priya", "--start", "2025-11-28T12:30", "--duration", "60"])
    _ = try await ok(hearth, ["calendar", "add", "Standup", "--start", "2025-11-29T09:00", "--duration", "15"])
    _ = try await ok(hearth, ["calendar", "add", "Retro", "--start", "2025-11-27T16:00", "--duration", "30"])

    _ = try await ok(hearth, ["reminders", "add", "Buy stamps", "--due", "2025-11-28"])
    _ = try await ok(hearth, ["reminders", "add", "Call the bank", "--due", "2025-11-28T15:00"])
    _ = try await ok(hearth, ["reminders", "add", "Renew passport", "--due", "2025-11-21"])
    _ = try await ok(hearth, ["reminders", "add", "Plan the party", "--due", "2025-12-01"])
    _ = try await ok(hearth, ["reminders", "add", "Someday, maybe"])
    let finished = try await id(hearth, ["reminders", "add", "Already done", "--due", "2025-11-28"])
    _ = try await ok(hearth, ["reminders", "done", finished])

    let run = try await id(hearth, ["habits", "add", "Run"])
    _ = try await ok(hearth, ["habits", "log", run, "--at", "2025-11-28T07:30"])
    _ = try await id(hearth, ["habits", "add", "Read", "--schedule", "MO,WE,FR"])
    _ = try await id(hearth, ["habits", "add", "Swim", "--schedule", "TU,TH"])
    let yoga = try await id(hearth, ["habits", "add", "Yoga", "--schedule", "2/week"])
    _ = try await ok(hearth, ["habits", "log", yoga, "--at", "2025-11-24T18:00"])
    let stretch = try await id(hearth, ["habits", "add", "Stretch", "--schedule", "1/week"])
    _ = try await ok(hearth, ["habits", "log", stretch, "--at", "2025-11-25T18:00"])

    _ = try await ok(hearth, ["contacts", "add", "Priya Shah", "--birthday", "1985-11-30"])
    _ = try await ok(hearth, ["contacts", "add", "Tom Berg", "--birthday", "12-25"])
    _ = try await ok(hearth, ["contacts", "add", "Ana Lima", "--birthday", "1990-11-27"])

    let briefing = try json(try await ok(hearth, ["briefing", "--date", "2025-11-28", "--json"]))
    #expect(briefing["date"] as? String == "2025-11-28")
    let events = try #require(briefing["events"] as? [[String: Any]])
    #expect(events.map { $0["title"] as? String } == ["Dentist", "Lunch with Priya"])
    #expect(events.map { $0["start"] as? String } == ["2025-11-28T09:00", "2025-11-28T12:30"])
    let free = try #require(briefing["free_time"] as? [[String: Any]])
    #expect(free.map { $0["start"] as? String } == ["2025-11-28T10:00", "2025-11-28T13:30"])
    #expect(free.map { $0["minutes"] as? Int } == [150, 210])
    let titles = { (key: String) in ((briefing[key] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String } }
    #expect(titles("due").sorted() == ["Buy stamps", "Call the bank"])
    #expect(titles("overdue") == ["Renew passport"])
    let habits = try #require(briefing["habits"] as? [[String: Any]])
    let done = Dictionary(
      uniqueKeysWithValues: habits.compactMap { habit in
        (habit["name"] as? String).map { ($0, habit["done"] as? Bool ?? false) }
      })
    #expect(done == ["Run": true, "Read": false, "Yoga": false])
    let birthdays = try #require(briefing["birthdays"] as? [[String: Any]])
    #expect(birthdays.map { $0["name"] as? String } == ["Priya Shah"])
    #expect(birthdays.first?["turns"] as? Int == 40)
    #expect(birthdays.first?["in_days"] as? Int == 2)
    // A past day: its first event is the one to prepare for; the first habit not done is Read.
    #expect(
      briefing["suggestions"] as? [String] == [
        "What's on tomorrow?", "Prepare for Dentist", "Check in: Read", "What's overdue?",
      ])

    let text = try await ok(hearth, ["briefing", "--date", "2025-11-28"])
    #expect(text.hasPrefix("Friday 2025-11-28"))
    for line in ["09:00–10:00  Dentist", "○ Buy stamps", "○ Renew passport (due 2025-11-21)", "✓ Run", "Priya Shah"] {
      #expect(text.contains(line), "\(line)")
    }
    #expect(!text.contains("Standup") && !text.contains("Swim") && !text.contains("Tom Berg"))
  }
}
