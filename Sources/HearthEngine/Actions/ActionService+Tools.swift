import Foundation
import HearthActions
import HearthCore
import HearthStore
import Synchronization

/// Calls of the tools of the user's MCP servers: a call of a tool the user allows runs at once and its result
/// is read back as data; any other waits for the user, as does every call after a read or in an automation.
extension ActionService {
  /// Why a tool call waits by default.
  static let askingReason = "this tool asks before it runs (hearth mcp policy to change that)"

  /// The record of a tool call block: answered, pending, failed or not run. `waits` holds the call for the
  /// user whatever the tool's policy, with the reason given.
  func runTool(_ block: ActionBlock, session: UUID?, message: UUID?, waits: String?) async -> ActionRecord {
    var record = ActionRecord(
      sessionID: session, messageID: message, kind: block.kind.rawValue, block: block.raw, state: .invalid,
      summary: "")
    let server: ToolServer
    let tool: ToolDescription
    let arguments: JSONValue
    do {
      (server, tool, arguments) = try tools.resolve(block)
    } catch {
      record.summary = "Not run: \(error)"
      record.reason = "\(error)"
      return record
    }
    record.action = tool.name
    record.summary = ToolRunner.summary(server: server.name, tool: tool.name, arguments: arguments)
    if let waits {
      record.state = .pending
      record.reason = waits
      return record
    }
    guard server.policy(for: tool.name) == .allow else {
      record.state = .pending
      record.reason = Self.askingReason
      return record
    }
    return await called(record, tool: tool.name, arguments: arguments, on: server)
  }

  /// Runs a pending tool call the user confirmed.
  func confirmTool(_ record: ActionRecord) async throws -> ActionRecord {
    guard ToolRunner.confirming.withLock({ $0.insert(record.id).inserted }) else {
      throw ActionStateError(id: record.id, state: .pending, wanted: "be confirmed twice at once")
    }
    defer { _ = ToolRunner.confirming.withLock { $0.remove(record.id) } }
    guard let block = ActionBlockParser.parse(record.block).blocks.first else {
      return try settle(record, as: .cancelled, reason: "the call no longer reads")
    }
    let (server, tool, arguments): (ToolServer, ToolDescription, JSONValue)
    do {
      (server, tool, arguments) = try tools.resolve(block)
    } catch {
      return try settle(record, as: .cancelled, reason: "\(error)")
    }
    var outcome = await called(record, tool: tool.name, arguments: arguments, on: server)
    outcome.reason = outcome.state == .failed ? outcome.reason : nil
    return try settle(outcome, as: outcome.state, reason: outcome.reason)
  }

  private func called(
    _ record: ActionRecord, tool: String, arguments: JSONValue, on server: ToolServer
  ) async -> ActionRecord {
    var record = record
    do {
      let output = try await tools.call(tool, arguments: arguments, on: server)
      record.result = output.text
      record.state = output.isError ? .failed : .answered
      if output.isError { record.reason = "the tool reported an error" }
    } catch {
      record.state = .failed
      record.reason = "\(error)"
    }
    return record
  }
}
