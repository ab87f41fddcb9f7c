public import Foundation
public import HearthCore
public import HearthEngine
public import Logging
import MCP

/// Hearth as an MCP client: starts the user's stdio servers when a listing or call first needs them (or
/// reaches HTTP ones), keeps each connection for the next call, and stops them with Hearth. A call that
/// outlasts the server's time limit, or a server that ends while Hearth waits, is an error on that call only;
/// the next call starts the server again.
public actor MCPToolConnector: ToolConnector {
  private var connections: [String: MCPConnection] = [:]
  private let logsFolder: URL?
  private let logger: Logger

  /// `logsFolder` receives each stdio server's standard error as `mcp-NAME.log`; `nil` discards it.
  public init(logsFolder: URL?, logger: Logger = Logger(label: "hearth.mcp.client")) {
    self.logsFolder = logsFolder
    self.logger = logger
  }

  public func listTools(_ server: ToolServer) async throws -> [ToolDescription] {
    let connection = try await connection(for: server)
    return try await bounded(server, connection) {
      var tools: [ToolDescription] = []
      var cursor: String?
      repeat {
        let page = try await connection.client.listTools(cursor: cursor)
        tools += page.tools.map { tool in
          ToolDescription(
            name: tool.name, description: tool.description ?? tool.title ?? "",
            inputSchema: JSONValue(tool.inputSchema), readOnly: tool.annotations.readOnlyHint ?? false)
        }
        cursor = page.nextCursor
      } while cursor != nil && tools.count < 1_000
      return tools
    }
  }

  public func call(_ tool: String, arguments: JSONValue, on server: ToolServer) async throws -> ToolOutput {
    let connection = try await connection(for: server)
    let values = (arguments.objectMembers ?? []).reduce(into: [String: Value]()) { $0[$1.key] = $1.value.mcpValue }
    return try await bounded(server, connection) {
      let (content, isError) = try await connection.client.callTool(name: tool, arguments: values)
      let parts = content.map { part -> String in
        switch part {
        case .text(let text, _, _): text
        case .image(_, let mimeType, _, _): "[an image, \(mimeType)]"
        case .audio(_, let mimeType, _, _): "[audio, \(mimeType)]"
        case .resource(let resource, _, _): resource.text ?? "[a resource: \(resource.uri)]"
        case .resourceLink(let uri, let name, _, _, _, _): "[\(name): \(uri)]"
        }
      }
      return ToolOutput(text: parts.joined(separator: "\n"), isError: isError ?? false)
    }
  }

  public func stop(_ server: String) async {
    await connections.removeValue(forKey: server)?.close()
  }

  public func stopAll() async {
    let all = connections.values
    connections = [:]
    for connection in all { await connection.close() }
  }

  /// The open connection to `server`, or a new one when there is none, its settings changed, or its process
  /// ended.
  private func connection(for server: ToolServer) async throws -> MCPConnection {
    if let open = connections[server.name] {
      if open.endpoint == server.endpoint, open.exitStatus == nil { return open }
      connections[server.name] = nil
      await open.close()
    }
    let connection: MCPConnection
    switch server.endpoint {
    case .command(let words):
      connection = try MCPConnection.launch(words, name: server.name, log: logsFolder, logger: logger)
    case .url(let url):
      connection = MCPConnection(
        endpoint: server.endpoint, transport: HTTPClientTransport(endpoint: url, streaming: false), process: nil)
    }
    do {
      _ = try await bounded(server, connection) { try await connection.client.connect(transport: connection.transport) }
    } catch {
      await connection.close()
      throw error
    }
    connections[server.name] = connection
    return connection
  }

  /// `work`, given up when the server's time limit passes or its process ends first; the connection is then
  /// dropped, so the next call starts afresh.
  private func bounded<Value: Sendable>(
    _ server: ToolServer, _ connection: MCPConnection, _ work: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let seconds = server.timeoutSeconds
    let outcome = FirstOutcome<Value>()
    let tasks = [
      Task { await outcome.settle(with: await Result(catching: { try await work() })) },
      Task {
        try? await Task.sleep(for: .seconds(seconds))
        await outcome.settle(with: .failure(ToolServerError.timedOut(server: server.name, seconds: seconds)))
      },
      Task {
        guard let status = await connection.exited() else { return }
        await outcome.settle(with: .failure(ToolServerError.exited(server: server.name, status: status)))
      },
    ]
    let result = await outcome.value()
    for task in tasks { task.cancel() }
    switch result {
    case .success(let value): return value
    case .failure(let error as ToolServerError):
      if connections[server.name] === connection { connections[server.name] = nil }
      await connection.close()
      throw error
    case .failure(let error as MCPError):
      throw ToolServerError.refused(server: server.name, detail: error.localizedDescription)
    case .failure(let error):
      throw ToolServerError.unreachable(server: server.name, detail: "\(error)")
    }
  }
}

/// The first of several racing outcomes; later ones are dropped.
private actor FirstOutcome<Value: Sendable> {
  private var result: Result<Value, any Error>?
  private var waiter: CheckedContinuation<Result<Value, any Error>, Never>?

  func settle(with result: Result<Value, any Error>) {
    guard self.result == nil else { return }
    self.result = result
    waiter?.resume(returning: result)
    waiter = nil
  }

  func value() async -> Result<Value, any Error> {
    if let result { return result }
    return await withCheckedContinuation { waiter = $0 }
  }
}

extension Result where Failure == any Error {
  fileprivate init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
