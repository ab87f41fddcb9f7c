import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("The briefing of a day, on a fixed clock")
struct BriefingTests {
  @Test func todaysFreeTimeIsWhatIsLeftOfItAndAnotherDayHasItAll() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let paris = TimeZone(identifier: "Europe/Paris")!
    var configuration = EngineConfiguration(paths: HearthPaths(home: folder), environment: [:])
    configuration.timeZone = paris
    // Friday 2026-11-27, 14:10 in Paris.
    let now = LocalDateTime(parsing: "2026-11-27T14:10")!.instant(in: paris)
    configuration.clock = { now }
    let engine = try await Engine.open(configuration)
    _ = try engine.calendar.create(
      CalendarEvent(
        title: "Review", start: LocalDateTime(parsing: "2026-11-27T15:00")!,
        end: LocalDateTime(parsing: "2026-11-27T16:00")!))

    let today = try engine.briefing()
    #expect(today.date == LocalDate(parsing: "2026-11-27"))
    #expect(today.events.map(\.title) == ["Review"])
    #expect(today.freeTime.map(\.start.shortDescription) == ["2026-11-27T14:10", "2026-11-27T16:00"])
    #expect(today.freeTime.map(\.minutes) == [50, 60])

    // Today, at 14:10: the review is the next thing to prepare for; nothing is on tomorrow (Saturday).
    #expect(today.suggestions == ["Prepare for Review"])

    let monday = try engine.briefing(for: LocalDate(parsing: "2026-11-30"))
    #expect(monday.suggestions == ["When am I free this week?"])
    #expect(monday.events.isEmpty)
    #expect(monday.freeTime.map(\.start.shortDescription) == ["2026-11-30T09:00"])
    #expect(monday.isEmpty)
  }
}
