public import Foundation

/// A prompt Hearth answers on a schedule ("Summarise my week", every Friday at 17:00), each time into a chat of
/// its own; what an answer proposes waits for the user, since no one asked for it at that moment.
public struct Automation: Sendable, Hashable, Codable, Identifiable {
  public var id: String
  public var prompt: String
  public var schedule: AutomationSchedule
  /// When it runs next; `nil` when its schedule names no time ahead.
  public var nextRunAt: Date?
  public var lastRunAt: Date?
  /// The chat its last run answered in.
  public var lastSessionID: UUID?
  public var createdAt: Date

  public init(
    id: String = UUID().uuidString, prompt: String, schedule: AutomationSchedule, nextRunAt: Date?,
    lastRunAt: Date? = nil, lastSessionID: UUID? = nil, createdAt: Date = Date()
  ) {
    self.id = id
    self.prompt = prompt
    self.schedule = schedule
    self.nextRunAt = nextRunAt
    self.lastRunAt = lastRunAt
    self.lastSessionID = lastSessionID
    self.createdAt = createdAt
  }
}
