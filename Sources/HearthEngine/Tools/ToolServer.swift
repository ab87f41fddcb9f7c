public import Foundation
public import HearthCore

/// An MCP server the user added to Hearth, whose tools the assistant may call.
public struct ToolServer: Sendable, Hashable, Codable, Identifiable {
  /// How Hearth reaches the server.
  public enum Endpoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A program Hearth starts, speaking MCP on its standard input and output: the executable, then its
    /// arguments.
    case command([String])
    /// An HTTP server that answers MCP requests with JSON.
    case url(URL)

    public var description: String {
      switch self {
      case .command(let words): words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
      case .url(let url): url.absoluteString
      }
    }
  }

  /// The name the user gave it: letters, digits, `-` and `_`.
  public var name: String
  public var endpoint: Endpoint
  /// The tools it offered when last asked.
  public var tools: [ToolDescription]
  /// The user's choice per tool, where it differs from the default (``ToolDescription/defaultPolicy``).
  public var policies: [String: ToolPolicy]
  /// How long a call may take before it is given up.
  public var timeoutSeconds: Int

  public var id: String { name }

  public init(
    name: String, endpoint: Endpoint, tools: [ToolDescription] = [], policies: [String: ToolPolicy] = [:],
    timeoutSeconds: Int = 30
  ) {
    self.name = name
    self.endpoint = endpoint
    self.tools = tools
    self.policies = policies
    self.timeoutSeconds = timeoutSeconds
  }

  /// Whether a call of `tool` runs at once or waits for the user.
  public func policy(for tool: String) -> ToolPolicy {
    policies[tool] ?? tools.first { $0.name == tool }?.defaultPolicy ?? .ask
  }

  /// Whether `name` can name a server.
  public static func isValidName(_ name: String) -> Bool {
    name.range(of: "^[A-Za-z0-9_-]{1,40}$", options: .regularExpression) != nil
  }
}

/// A tool as its server describes it.
public struct ToolDescription: Sendable, Hashable, Codable {
  public var name: String
  public var description: String
  /// The JSON Schema of its arguments.
  public var inputSchema: JSONValue
  /// The server says the tool only reads (MCP's `readOnlyHint`).
  public var readOnly: Bool

  public init(name: String, description: String, inputSchema: JSONValue, readOnly: Bool) {
    self.name = name
    self.description = description
    self.inputSchema = inputSchema
    self.readOnly = readOnly
  }

  /// A tool that only reads runs when the assistant calls it; anything else asks first.
  public var defaultPolicy: ToolPolicy { readOnly ? .allow : .ask }
}

/// Whether a tool's calls run at once or wait for the user's confirmation.
public enum ToolPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  case ask, allow
}

/// What a tool call returned.
public struct ToolOutput: Sendable, Hashable {
  /// Its text content, in order (other content is named, not shown).
  public var text: String
  /// The server says the call failed; the text says why.
  public var isError: Bool

  public init(text: String, isError: Bool) {
    self.text = text
    self.isError = isError
  }
}

/// What reaches MCP servers: lists their tools and calls them, starting a server when first needed and
/// stopping it with Hearth. The engine keeps the servers' settings; this keeps the connections.
public protocol ToolConnector: Sendable {
  /// The tools `server` offers now.
  func listTools(_ server: ToolServer) async throws -> [ToolDescription]
  /// Calls `tool` with `arguments`, giving up after the server's time limit.
  func call(_ tool: String, arguments: JSONValue, on server: ToolServer) async throws -> ToolOutput
  /// Stops the server's process or drops its connection, if there is one.
  func stop(_ server: String) async
  /// Stops every server.
  func stopAll() async
}

/// Why a tool server could not be added, listed or called.
public enum ToolServerError: Error, Sendable, Hashable, CustomStringConvertible {
  case invalidName(String)
  case duplicate(String)
  case unknownServer(String, known: [String])
  case unknownTool(server: String, tool: String, known: [String])
  case noConnector
  case emptyCommand
  case unsupportedURL(String)
  /// The server could not be started or reached.
  case unreachable(server: String, detail: String)
  /// The server ended while Hearth waited for it.
  case exited(server: String, status: Int32)
  case timedOut(server: String, seconds: Int)
  /// The server answered with an MCP error.
  case refused(server: String, detail: String)

  public var description: String {
    switch self {
    case .invalidName(let name):
      "“\(name)” cannot name a server: use 1–40 letters, digits, - or _"
    case .duplicate(let name): "a server named \(name) is already added; remove it first"
    case .unknownServer(let name, let known):
      "no MCP server named \(name)"
        + (known.isEmpty ? " (none is added)" : " (added: \(known.joined(separator: ", ")))")
    case .unknownTool(let server, let tool, let known):
      "\(server) has no tool named \(tool)" + (known.isEmpty ? "" : " (it has: \(known.joined(separator: ", ")))")
    case .noConnector: "this Hearth cannot reach MCP servers"
    case .emptyCommand: "give the command that starts the server after --"
    case .unsupportedURL(let url): "\(url) is not an http or https address"
    case .unreachable(let server, let detail): "the MCP server \(server) could not be reached: \(detail)"
    case .exited(let server, let status): "the MCP server \(server) stopped (exit status \(status))"
    case .timedOut(let server, let seconds): "the MCP server \(server) did not answer within \(seconds) s"
    case .refused(let server, let detail): "the MCP server \(server) answered with an error: \(detail)"
    }
  }
}
