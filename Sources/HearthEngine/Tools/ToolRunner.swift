import Foundation
import HearthActions
import HearthCore
import HearthStore
import Logging
import Synchronization

/// The MCP servers the user added, as the profile keeps them, and the calls made to their tools.
struct ToolRunner: Sendable {
  static let settingKey = "mcpServers"
  /// The longest result kept and shown; the rest is cut with a note.
  static let resultLimit = 4_000

  let database: HearthDatabase
  let connector: (any ToolConnector)?
  /// Where a list of servers that can not be read is told: the turn goes on without tools, not silently.
  var logger = Logger(label: "hearth.tools")

  func servers() throws -> [ToolServer] {
    try database.setting(Self.settingKey, as: [ToolServer].self) ?? []
  }

  func save(_ servers: [ToolServer]) throws {
    try database.setSetting(Self.settingKey, to: servers)
  }

  func server(named name: String) throws -> ToolServer {
    let servers = try servers()
    guard let server = servers.first(where: { $0.name == name }) else {
      throw ToolServerError.unknownServer(name, known: servers.map(\.name))
    }
    return server
  }

  /// The tools the model is offered: every tool of every server added.
  func callable() -> [CallableTool] {
    let servers: [ToolServer]
    do {
      servers = try self.servers()
    } catch {
      logger.error("the tool servers could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      return []
    }
    return servers.flatMap { server in
      server.tools.map {
        CallableTool(server: server.name, tool: $0.name, description: $0.description, schema: $0.inputSchema)
      }
    }
  }

  /// The call a block asks for, checked against the server's tools.
  func resolve(_ block: ActionBlock) throws -> (server: ToolServer, tool: ToolDescription, arguments: JSONValue) {
    guard let serverName = block.payload["server"]?.stringValue, let toolName = block.payload["tool"]?.stringValue
    else { throw ActionValidationError(field: "tool", "a tool call names its server and tool") }
    let server = try server(named: serverName)
    guard let tool = server.tools.first(where: { $0.name == toolName }) else {
      throw ToolServerError.unknownTool(server: serverName, tool: toolName, known: server.tools.map(\.name))
    }
    let arguments = block.payload["arguments"] ?? .object([])
    guard let given = arguments.objectMembers else {
      throw ActionValidationError(field: "arguments", "must be an object")
    }
    let missing = CallableTool(server: server.name, tool: tool.name, description: "", schema: tool.inputSchema)
      .parameters.filter { parameter in parameter.required && !given.contains { $0.key == parameter.name } }
    if let first = missing.first { throw ActionValidationError(field: first.name, "is required") }
    return (server, tool, arguments)
  }

  /// Whether the block calls a tool that only reads and that the user lets run.
  func runsUnasked(_ block: ActionBlock) -> Bool {
    guard let (server, tool, _) = try? resolve(block) else { return false }
    return tool.readOnly && server.policy(for: tool.name) == .allow
  }

  /// Runs the call and gives its result as text for the card and the answer.
  func call(_ tool: String, arguments: JSONValue, on server: ToolServer) async throws -> ToolOutput {
    guard let connector else { throw ToolServerError.noConnector }
    var output = try await connector.call(tool, arguments: arguments, on: server)
    output.text = Self.readable(output.text)
    return output
  }

  /// What a card says a call does: `time · get_current_time (timezone: Asia/Tokyo)`.
  static func summary(server: String, tool: String, arguments: JSONValue) -> String {
    let values = (arguments.objectMembers ?? []).map { key, value in
      "\(key): \(value.stringValue ?? value.jsonText)"
    }
    return "\(server) · \(tool)" + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))")
  }

  /// A flat JSON object as `key: value` lines; anything else as it is; at most ``resultLimit`` characters.
  static func readable(_ text: String) -> String {
    var shown = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(shown.utf8)),
      let members = value.objectMembers, !members.isEmpty,
      members.allSatisfy({ $0.value.objectMembers == nil && $0.value.arrayValue == nil })
    {
      shown = members.map { "\($0.key): \($0.value.stringValue ?? $0.value.jsonText)" }.joined(separator: "\n")
    }
    guard shown.count > resultLimit else { return shown }
    return String(shown.prefix(resultLimit)) + "\n(cut: the result was \(shown.count) characters)"
  }

  /// Calls being confirmed in this process, so a second confirmation does not call the tool again.
  static let confirming = Mutex<Set<UUID>>([])
}
