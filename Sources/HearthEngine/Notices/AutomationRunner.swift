public import Foundation
public import HearthCore
import HearthStore
import Logging
public import ServiceLifecycle

/// What one run of an automation gave.
public struct AutomationRun: Sendable {
  /// The chat it answered in.
  public var session: UUID
  public var answer: StoredMessage?
  /// What the answer proposed: all of it waiting for the user, or answered questions.
  public var actions: [ActionRecord]
  public var failure: String?
}

extension Engine {
  /// Runs an automation now: a new chat named after it, its prompt answered with no one there — whatever the
  /// answer proposes waits for the user, creations too — and a notice that it ran.
  @discardableResult
  public func runAutomation(_ automation: Automation) async throws -> AutomationRun {
    let title = "⏰ " + String(automation.prompt.prefix(70))
    let session = try await chat.newSession(title: title)
    try database.markAutomationSession(session.id, automation: automation.id)
    var run = AutomationRun(session: session.id, answer: nil, actions: [], failure: nil)
    var request = TurnRequest(session: session.id, kind: .message(automation.prompt))
    request.isBackground = true
    try await runTurn(request) { event in
      switch event {
      case .chat(.finished(let message)):
        run.answer = message
        if message.state == .failed { run.failure = message.error ?? "the answer failed" }
      case .chat(.actions(let records)): run.actions = records
      case .failed(let error): run.failure = "\(error)"
      default: break
      }
    }
    let now = configuration.clock()
    // Re-read: the scheduler moved it to its next time when it claimed this run.
    if var current = try database.automations().first(where: { $0.id == automation.id }) {
      current.lastRunAt = now
      current.lastSessionID = session.id
      try database.saveAutomation(current)
    }
    let waiting = run.actions.filter { $0.state == .pending }.count
    let detail =
      run.failure.map { "Could not run: \($0)" }
      ?? (waiting == 0
        ? "Answered"
        : waiting == 1 ? "Answered · 1 change waits for you" : "Answered · \(waiting) changes wait for you")
    _ = try database.recordNotices([
      Notice(
        kind: .automation, itemID: session.id.uuidString, title: String(automation.prompt.prefix(120)),
        detail: detail, fireAt: now)
    ])
    return run
  }

  /// A service that runs automations when their time comes, looking every `interval`. Run it beside the server.
  public func automationScheduler(every interval: Duration = .seconds(15)) -> AutomationScheduler {
    AutomationScheduler(engine: self, interval: interval)
  }
}

/// Runs automations as their time comes while `hearth serve` runs. A run waits while the user's own requests
/// wait for the model (and starts between them), and while the machine is hot or on a low battery.
public struct AutomationScheduler: Service {
  let engine: Engine
  let interval: Duration

  public func run() async throws {
    try await Periodic.run(every: interval) {
      guard await engine.queueDepth == 0, !engine.pausesBackgroundWork else { return }
      do {
        for automation in try engine.automations.claimDue() {
          let run = try await engine.runAutomation(automation)
          engine.logger.info(
            "automation ran", metadata: ["automation": "\(automation.id)", "failed": "\(run.failure != nil)"])
        }
      } catch is CancellationError {
        // Shutting down in the middle of a run: the run ends with the group.
      } catch {
        engine.logger.warning("an automation could not run", metadata: ["error": "\(type(of: error))"])
      }
    }
  }
}
