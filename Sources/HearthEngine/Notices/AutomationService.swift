import Foundation
public import HearthCore
import HearthStore

/// Prompts Hearth answers on a schedule. `hearth serve` runs them (``AutomationScheduler``), each into a new
/// chat of its own, with a notice when it is done; what an answer proposes waits for the user.
public struct AutomationService: Sendable {
  let context: ItemContext
  private var database: HearthDatabase { context.database }

  /// Adds an automation; it first runs at the schedule's next time.
  /// - Throws: ``AutomationError`` for an empty prompt or a schedule that does not read.
  public func add(prompt: String, every text: String) throws -> Automation {
    let prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !prompt.isEmpty else { throw AutomationError.emptyPrompt }
    guard prompt.count <= 4000 else { throw AutomationError.promptTooLong }
    guard let schedule = AutomationSchedule(parsing: text) else { throw AutomationError.unreadableSchedule(text) }
    let now = context.now()
    guard let next = schedule.next(after: now, in: context.timeZone) else { throw AutomationError.neverRuns(text) }
    let automation = Automation(prompt: prompt, schedule: schedule, nextRunAt: next, createdAt: now)
    try database.saveAutomation(automation)
    return automation
  }

  public func list() throws -> [Automation] { try database.automations() }

  /// The automation with this id or unique id prefix.
  public func automation(_ reference: String) throws -> Automation {
    let matches = try list().filter { $0.id.lowercased().hasPrefix(reference.lowercased()) }
    guard matches.count == 1 else { throw AutomationError.reference(reference, matches: matches.count) }
    return matches[0]
  }

  @discardableResult
  public func remove(_ reference: String) throws -> Automation {
    let automation = try automation(reference)
    try database.deleteAutomation(automation.id)
    return automation
  }

  /// The automations whose time has come, each moved to its next time first: one claimed here runs once,
  /// however many schedulers look (a run missed while nothing ran happens once, late, not once per miss).
  func claimDue() throws -> [Automation] {
    let now = context.clock()
    return try list().filter { automation in
      guard let due = automation.nextRunAt, due <= now else { return false }
      let next = automation.schedule.next(after: now, in: context.timeZone)
      return try database.claimAutomation(automation.id, expected: due, next: next, at: now)
    }
  }
}

/// An automation that cannot be added or found.
public enum AutomationError: Error, Sendable, Hashable, CustomStringConvertible {
  case emptyPrompt
  case promptTooLong
  case unreadableSchedule(String)
  case neverRuns(String)
  case reference(String, matches: Int)

  public var description: String {
    switch self {
    case .emptyPrompt: "the prompt is empty"
    case .promptTooLong: "the prompt is longer than 4000 characters"
    case .unreadableSchedule(let text):
      "“\(text)” is not a schedule: write it as fri 17:00, daily 08:00, weekdays 9am, mon,wed 18:30, every 2h, "
        + "hourly, or a cron line such as 0 17 * * 5"
    case .neverRuns(let text): "“\(text)” names no time in the coming year"
    case .reference(let reference, let matches):
      matches == 0 ? "no automation \(reference)" : "\(reference) names \(matches) automations; give more of the id"
    }
  }
}
