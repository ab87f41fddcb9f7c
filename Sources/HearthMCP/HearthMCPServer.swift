import Foundation
import HearthActions
import HearthCore
public import HearthEngine
import HearthMemory
public import Logging
public import MCP
import Synchronization

/// Hearth as an MCP server: the user's calendar, reminders, notes, habits, contacts and memory as tools for
/// other assistants. Reads answer at once; every change goes through the same checks and audit log as the
/// assistant's own action blocks, recorded as asked for by `mcp: CLIENT-NAME`, and waits for the user in Hearth
/// (creations too, unless the profile allows them).
public struct HearthMCPServer: Sendable {
  let engine: Engine
  let logger: Logger

  public init(engine: Engine, logger: Logger) {
    self.engine = engine
    self.logger = logger
  }

  /// The name clients see.
  public static let name = "hearth"

  /// Starts a server on `transport` and returns it; it runs until the transport ends (stdio) or it is stopped.
  public func start(on transport: any Transport) async throws -> Server {
    let client = Mutex("an unnamed client")
    let server = Server(
      name: Self.name, version: "1.0",
      instructions:
        "Hearth holds the user's own calendar, reminders, notes, habits and contacts. Reads answer at once. "
        + "Changes you ask for wait for the user's confirmation in Hearth; say so to the user instead of "
        + "assuming they happened.",
      capabilities: .init(tools: .init(listChanged: false)))
    await server.withMethodHandler(ListTools.self) { _ in
      ListTools.Result(tools: HearthTool.all.map(\.mcpTool))
    }
    await server.withMethodHandler(CallTool.self) { parameters in
      try await call(parameters, source: "mcp: \(client.withLock { $0 })")
    }
    try await server.start(transport: transport) { info, _ in
      client.withLock { $0 = info.name.isEmpty ? "an unnamed client" : info.name }
    }
    return server
  }

  /// Runs one tool call. An unknown tool is a protocol error; a call that cannot be done is a result that
  /// says why (`isError`), as MCP asks, so the calling model can read it.
  func call(_ parameters: CallTool.Parameters, source: String) async throws -> CallTool.Result {
    guard let tool = HearthTool.named(parameters.name) else {
      throw MCPError.invalidParams("no tool named \(parameters.name)")
    }
    let arguments = (parameters.arguments ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }
    do {
      switch tool.work {
      case .action(let spec):
        let payload = (spec.action.map { [("action", JSONValue.string($0))] } ?? []) + arguments
        let record = try await engine.actions.request(
          spec.kind, payload: .object(payload), source: source,
          allowsCreations: try engine.mcpSettings().allowsCreations)
        logger.info("mcp tool call", metadata: ["tool": "\(tool.name)", "state": "\(record.state.rawValue)"])
        return Self.result(of: record)
      case .memorySearch:
        return try await searchMemory(JSONValue.object(arguments))
      }
    } catch {
      // The error's kind only: its text may quote the user's data, which the log never holds.
      logger.info("mcp tool call failed", metadata: ["tool": "\(tool.name)", "error": "\(type(of: error))"])
      return CallTool.Result(content: [.text(text: "\(error)", annotations: nil, _meta: nil)], isError: true)
    }
  }

  /// What became of an action, as text for the calling model and as structured fields for its program.
  static func result(of record: ActionRecord) -> CallTool.Result {
    var fields: [(String, JSONValue)] = [
      ("state", .string(record.state.rawValue)), ("summary", .string(record.summary)),
      ("action_id", .string(record.id.uuidString)),
    ]
    if let kind = record.itemKind { fields.append(("item_kind", .string(kind.rawValue))) }
    if let id = record.itemID { fields.append(("item_id", .string(id))) }
    if let reason = record.reason { fields.append(("reason", .string(reason))) }
    let text: String
    switch record.state {
    case .answered:
      text = record.result ?? record.summary
      if let result = record.result { fields.append(("result", .string(result))) }
    case .pending:
      text =
        "Pending: \(record.summary). It waits for the user's confirmation in Hearth and has not happened yet "
        + "(action \(record.id.uuidString))."
    case .created:
      text = "Done: \(record.summary) (id \(record.itemID ?? "?")). The user can undo it in Hearth."
    default:
      text = "Not done: \(record.summary)" + (record.reason.map { " (\($0))" } ?? "")
    }
    let failed = [.invalid, .failed, .cancelled].contains(record.state)
    let structured: Value? = JSONValue.object(fields).mcpValue
    return CallTool.Result(
      content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured,
      isError: failed ? true : nil)
  }

  private func searchMemory(_ arguments: JSONValue) async throws -> CallTool.Result {
    guard let query = arguments["query"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
      !query.isEmpty, query.count <= 500
    else { throw MCPToolError.invalidArgument("query", "a text of 1 to 500 characters") }
    if case .object(let fields, _) = arguments,
      let name = fields.keys.sorted().first(where: { $0 != "query" && $0 != "limit" })
    {
      throw MCPToolError.invalidArgument(name, "not an argument of memory_search")
    }
    var limit = 5
    if let given = arguments["limit"] {
      guard let number = given.numberValue, number.rounded() == number, (1...20).contains(number) else {
        throw MCPToolError.invalidArgument("limit", "a whole number from 1 to 20")
      }
      limit = Int(number)
    }
    let hits = try await engine.memory.recall(query, options: RetrievalOptions(k: limit))
    let citations: [JSONValue] = hits.enumerated().map { index, hit in
      .object([
        ("number", .number(Double(index + 1))), ("title", .string(hit.source.title)),
        ("collection", .string(hit.source.collection.rawValue)), ("location", .string(hit.source.location)),
        ("heading", .string(hit.chunk.heading)), ("text", .string(hit.chunk.text)),
      ])
    }
    let text =
      hits.isEmpty
      ? "Nothing in memory matches “\(query)”."
      : hits.enumerated().map { index, hit in
        let heading = hit.chunk.heading.isEmpty ? "" : " — \(hit.chunk.heading)"
        return "[\(index + 1)] \(hit.source.title)\(heading)\n\(hit.chunk.text)"
      }
      .joined(separator: "\n\n")
    let structured: Value? = JSONValue.object([("citations", .array(citations))]).mcpValue
    return CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured)
  }
}

/// A tool's arguments that cannot be used, named.
enum MCPToolError: Error, CustomStringConvertible {
  case invalidArgument(String, String)

  var description: String {
    switch self {
    case .invalidArgument(let name, let wanted): "the argument \(name) must be \(wanted)"
    }
  }
}

extension HearthTool {
  /// The tool as MCP lists it, with hints of what it does to the user's data.
  var mcpTool: Tool {
    Tool(
      name: name, description: description, inputSchema: inputSchema.mcpValue,
      annotations: .init(
        readOnlyHint: readsOnly, destructiveHint: readsOnly ? nil : isDestructive, idempotentHint: nil,
        openWorldHint: false))
  }
}
