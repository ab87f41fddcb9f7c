import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthEngine

@Suite("Automations: they run once when due, into a chat of their own, and what they propose waits")
struct AutomationTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  private func at(_ text: String) -> Date { LocalDateTime(parsing: text)!.instant(in: paris) }

  private func configuration(home: URL, clock: MovingClock) -> EngineConfiguration {
    var configuration = EngineConfiguration(paths: HearthPaths(home: home), environment: [:])
    configuration.timeZone = paris
    configuration.clock = { clock.read() }
    return configuration
  }

  @Test func aDueAutomationRunsOnceAndItsProposalWaitsForTheUser() async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let clock = MovingClock(at("2026-11-27T16:59:30"))
    let model = ScriptedChatModel(pieces: [
      "Your week had two meetings. ", #"[REMINDER_ACTION:{"action":"create","title":"Plan next week"}]"#,
    ])
    let engine = try Engine.open(configuration(home: home, clock: clock), answering: model)
    let other = try await Engine.open(configuration(home: home, clock: clock))

    let added = try engine.automations.add(prompt: "Summarise my week", every: "fri 17:00")
    #expect(added.nextRunAt == at("2026-11-27T17:00"))
    #expect(try engine.automations.claimDue().isEmpty)

    // Two schedulers look once it is due: one claims it.
    clock.set(at("2026-11-27T17:00:05"))
    async let mine = engine.automations.claimDue()
    async let theirs = other.automations.claimDue()
    let claimed = try await mine + theirs
    #expect(claimed.map(\.prompt) == ["Summarise my week"])
    #expect(try engine.automations.claimDue().isEmpty)

    let run = try await engine.runAutomation(try #require(claimed.first))
    #expect(run.failure == nil)
    #expect(run.answer?.content.hasPrefix("Your week had two meetings.") == true)
    // Proposed, not done: even a creation waits, since no one asked at that moment.
    #expect(run.actions.map(\.state) == [.pending])
    #expect(run.actions.map(\.source) == ["automation"])
    #expect(try engine.reminders.list().isEmpty)
    #expect(try engine.sessions.session(matching: run.session.uuidString).title == "⏰ Summarise my week")

    let notice = try #require(try engine.notices.standing().first { $0.kind == .automation })
    #expect(notice.itemID == run.session.uuidString)
    #expect(notice.detail == "Answered · 1 change waits for you")
    let after = try #require(try engine.automations.list().first)
    #expect(after.nextRunAt == at("2026-12-04T17:00"))
    #expect(after.lastSessionID == run.session)
    // A chat the user starts still acts on its own word.
    let yours = try await engine.chat.newSession()
    try await engine.runTurn(TurnRequest(session: yours.id, kind: .message("Thanks!"))) { _ in }
    #expect(try engine.reminders.list().map(\.title) == ["Plan next week"])
  }

  @Test func addingRefusesWhatCannotRun() async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let engine = try await Engine.open(configuration(home: home, clock: MovingClock(at("2026-11-27T10:00"))))
    #expect(throws: AutomationError.self) { try engine.automations.add(prompt: "  ", every: "daily 08:00") }
    #expect(throws: AutomationError.self) { try engine.automations.add(prompt: "Hi", every: "when I feel like it") }
    #expect(throws: AutomationError.self) { try engine.automations.add(prompt: "Hi", every: "0 0 30 2 *") }
    let added = try engine.automations.add(prompt: "Hi", every: "every 2h")
    #expect(added.nextRunAt == at("2026-11-27T12:00"))
    #expect(try engine.automations.remove(String(added.id.prefix(6))).id == added.id)
    #expect(try engine.automations.list().isEmpty)
  }
}
