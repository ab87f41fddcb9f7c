public import Foundation

/// One action block from an answer and what became of it: the audit log's entry, and what surfaces show as
/// a card in place of the raw block.
public struct ActionRecord: Sendable, Hashable, Codable, Identifiable {
  /// Where an action is in its life.
  public enum State: String, Sendable, Hashable, Codable, CaseIterable {
    /// A creation that ran; it can be undone.
    case created
    /// A creation taken back, or a change reverted.
    case undone
    /// A change or deletion waiting for the user's confirmation.
    case pending
    /// A confirmed change that ran; it can be undone.
    case updated
    /// A confirmed deletion that ran; it can be restored.
    case deleted
    /// A deletion taken back.
    case restored
    /// A pending action the user declined, or whose target disappeared (see `reason`).
    case cancelled
    /// A question that was answered (`result`).
    case answered
    /// A valid block that could not run (see `reason`): no such item, several candidates, …
    case failed
    /// A block that is malformed or breaks its schema (see `reason`); it never runs.
    case invalid
  }

  public var id: UUID
  public var sessionID: UUID?
  public var messageID: UUID?
  /// The block's kind as written (`CALENDAR_ACTION`), also for unknown or malformed ones.
  public var kind: String
  public var action: String?
  /// The block as the model wrote it.
  public var block: String
  public var state: State
  /// One line for the card: "Create “Meeting with Sam” on Tue 2026-11-24 10:00–11:00".
  public var summary: String
  /// The item acted on and its id.
  public var itemKind: ItemKind?
  public var itemID: String?
  /// The item before the change (for undo) and after it (created or planned), as JSON.
  public var before: JSONValue?
  public var after: JSONValue?
  /// What a question found, as text for the answer.
  public var result: String?
  public var reason: String?
  /// Who asked for it when it was not the assistant's answer in a chat the user started: `mcp: CLIENT-NAME` for
  /// a tool call from another assistant, `automation` for an automation's answer. `nil` otherwise.
  public var source: String?
  public var createdAt: Date
  public var updatedAt: Date

  public init(
    id: UUID = UUID(), sessionID: UUID? = nil, messageID: UUID? = nil, kind: String, action: String? = nil,
    block: String, state: State, summary: String, itemKind: ItemKind? = nil, itemID: String? = nil,
    before: JSONValue? = nil, after: JSONValue? = nil, result: String? = nil, reason: String? = nil,
    source: String? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.sessionID = sessionID
    self.messageID = messageID
    self.kind = kind
    self.action = action
    self.block = block
    self.state = state
    self.summary = summary
    self.itemKind = itemKind
    self.itemID = itemID
    self.before = before
    self.after = after
    self.result = result
    self.reason = reason
    self.source = source
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// Whether undo applies: a creation, a change or a deletion that ran.
  public var canUndo: Bool { [.created, .updated, .deleted].contains(state) }
}
