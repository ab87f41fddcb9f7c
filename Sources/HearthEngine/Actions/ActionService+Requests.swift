import Foundation
public import HearthCore
import HearthStore

/// Actions asked for by another program — an assistant that reaches Hearth over MCP — rather than written by
/// Hearth's own model in a chat. They go through the same checks, previews and audit log as the model's
/// blocks, with their source recorded; what they may do alone is narrower: reads answer at once, changes and
/// deletions wait for the user as always, and creations wait too unless the profile allows them.
extension ActionService {
  /// Runs one action asked for by `source` (`mcp: CLIENT-NAME`), with its payload as an action block's
  /// (``ActionSpec``); the record says what became of it. `allowsCreations` lets a creation run at once
  /// (undoable) instead of waiting for confirmation.
  public func request(
    _ kind: ActionKind, payload: JSONValue, source: String, allowsCreations: Bool
  ) async throws -> ActionRecord {
    guard payload.objectMembers != nil else {
      throw ActionRequestError.malformed(kind: kind, payload: payload.jsonText)
    }
    let block = ActionBlock(kind: kind, payload: payload)
    if !allowsCreations, var held = held(block, session: nil, message: nil) {
      // Who asked is the reason it waits; the record says so in its source.
      held.source = source
      held.reason = nil
      try database.commitAction(held)
      return held
    }
    var (planned, creation) = await run(block, session: nil, message: nil)
    planned.source = source
    let record = try commit(planned, creating: creation)
    if record.state != .created { try database.commitAction(record) }
    return record
  }
}

/// An action request that is not an action block at all.
public enum ActionRequestError: Error, Sendable, Hashable, CustomStringConvertible {
  case malformed(kind: ActionKind, payload: String)

  public var description: String {
    switch self {
    case .malformed(let kind, let payload): "not a valid \(kind.rawValue) payload: \(payload)"
    }
  }
}
