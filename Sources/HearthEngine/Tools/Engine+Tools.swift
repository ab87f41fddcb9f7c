import Foundation
import HearthActions
import HearthCore

/// The MCP servers the user adds to Hearth: their tools are offered to the model, and each call is an action
/// record (a card) that runs at once or waits for the user by the tool's policy.
extension Engine {
  /// The servers added, in the order they were added.
  public func toolServers() throws -> [ToolServer] {
    try actions.tools.servers()
  }

  /// Adds a server: it is started (or reached) once to list its tools, which are kept; it starts again when
  /// a call first needs it.
  /// - Throws: ``ToolServerError`` for a bad or taken name, an empty command, an address that is not HTTP,
  ///   or a server that cannot be reached or listed.
  @discardableResult
  public func addToolServer(
    named name: String, endpoint: ToolServer.Endpoint, timeoutSeconds: Int = 30
  ) async throws -> ToolServer {
    guard ToolServer.isValidName(name) else { throw ToolServerError.invalidName(name) }
    switch endpoint {
    case .command(let words) where words.first?.isEmpty ?? true: throw ToolServerError.emptyCommand
    case .url(let url) where !url.isWebAddress:
      throw ToolServerError.unsupportedURL(url.absoluteString)
    default: break
    }
    guard try !toolServers().contains(where: { $0.name == name }) else { throw ToolServerError.duplicate(name) }
    var server = ToolServer(name: name, endpoint: endpoint, timeoutSeconds: timeoutSeconds)
    server.tools = try await listTools(of: server)
    // Listing took a while; another process may have added the name meanwhile.
    var servers = try toolServers()
    guard !servers.contains(where: { $0.name == name }) else { throw ToolServerError.duplicate(name) }
    servers.append(server)
    try actions.tools.save(servers)
    return server
  }

  /// Removes a server and stops it.
  public func removeToolServer(named name: String) async throws {
    var servers = try toolServers()
    guard servers.contains(where: { $0.name == name }) else {
      throw ToolServerError.unknownServer(name, known: servers.map(\.name))
    }
    servers.removeAll { $0.name == name }
    try actions.tools.save(servers)
    await configuration.toolConnector?.stop(name)
  }

  /// Asks a server for its tools again and keeps the new list (and the user's policies for tools still there).
  @discardableResult
  public func refreshTools(of name: String) async throws -> ToolServer {
    var server = try actions.tools.server(named: name)
    server.tools = try await listTools(of: server)
    server.policies = server.policies.filter { policy in server.tools.contains { $0.name == policy.key } }
    try replace(server)
    return server
  }

  /// Sets whether calls of a server's tool run at once (`allow`) or wait for the user (`ask`).
  @discardableResult
  public func setToolPolicy(_ policy: ToolPolicy, server name: String, tool: String) throws -> ToolServer {
    var server = try actions.tools.server(named: name)
    guard let described = server.tools.first(where: { $0.name == tool }) else {
      throw ToolServerError.unknownTool(server: name, tool: tool, known: server.tools.map(\.name))
    }
    server.policies[tool] = policy == described.defaultPolicy ? nil : policy
    try replace(server)
    return server
  }

  /// Stops every MCP server Hearth started; they start again when next needed.
  public func stopToolServers() async {
    await configuration.toolConnector?.stopAll()
  }

  private func listTools(of server: ToolServer) async throws -> [ToolDescription] {
    guard let connector = configuration.toolConnector else { throw ToolServerError.noConnector }
    return try await connector.listTools(server)
  }

  private func replace(_ server: ToolServer) throws {
    var servers = try toolServers()
    guard let index = servers.firstIndex(where: { $0.name == server.name }) else {
      throw ToolServerError.unknownServer(server.name, known: servers.map(\.name))
    }
    servers[index] = server
    try actions.tools.save(servers)
  }

  /// What a turn says while it prepares the answer to `request`: the tool it will ask, or the data it will look
  /// at; `nil` for a request that asks for neither.
  static func preparingWords(_ request: String, tools: [CallableTool], today: LocalDate, dayFirst: Bool) -> String? {
    let words = ToolDrafter.words(request)
    if let tool = tools.first(where: { !words.isDisjoint(with: ToolDrafter.words($0.tool + " " + $0.server)) }) {
      return "Asking \(tool.server)…"
    }
    switch RequestHints(request, today: today, dayFirst: dayFirst).kind {
    case .calendar?: return "Checking your calendar…"
    case .reminder?: return "Looking at your reminders…"
    case .note?: return "Looking through your notes…"
    case .habit?: return "Checking your habits…"
    case .contactsSearch?: return "Looking up your contacts…"
    case .webSearch?: return "Preparing a web search…"
    case .memory?: return "Looking at what you told me…"
    case .toolCall?, nil: return nil
    }
  }
}
