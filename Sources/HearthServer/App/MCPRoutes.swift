import Foundation
import HTTPTypes
import HearthEngine
import HearthMCP
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `/mcp`: Hearth as an MCP server over streamable HTTP, for other assistants. Requests pass the same checks as
/// every route (key, `Host`, origin, body size) before the MCP library's own (its `Accept`, content type,
/// protocol version and session checks).
struct MCPRoutes<Context: RequestContext>: RouteArea {
  let endpoint: MCPHTTPEndpoint
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/mcp"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post { request, _ in try await forward(request) }
    router.get { request, _ in try await forward(request) }
    router.delete { request, _ in try await forward(request) }
  }

  private func forward(_ request: Request) async throws -> Response {
    let body =
      request.method == .post ? try await RequestReader.bytes(of: request, limit: configuration.maxBodyBytes) : nil
    var headers: [String: String] = [:]
    for field in request.headers {
      let name = field.name.canonicalName
      headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
    }
    let answer = await endpoint.handle(
      method: request.method.rawValue, headers: headers, body: body, path: request.uri.path)
    var fields = HTTPFields()
    for (name, value) in answer.headers {
      if let name = HTTPField.Name(name) { fields[name] = value }
    }
    let status = HTTPResponse.Status(code: answer.status)
    switch answer.body {
    case .stream(let events):
      return Response(
        status: status, headers: fields,
        body: ResponseBody { writer in
          for try await chunk in events { try await writer.write(ByteBuffer(bytes: chunk)) }
          try await writer.finish(nil)
        })
    case .data(let data):
      return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
  }
}

/// Ends the MCP sessions when the server shuts down, so their servers and open streams stop with it.
struct MCPSessionsService: Service {
  let endpoint: MCPHTTPEndpoint

  func run() async throws {
    try? await gracefulShutdown()
    await endpoint.closeAll()
  }
}

/// `/api/mcp`: what MCP clients may do without asking, for the Settings page.
struct MCPSettingsRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/api/mcp"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(MCPSettingsInput(try dependencies.engine.mcpSettings())) }
    router.put { request, _ in
      let input = try await RequestReader.decodeStrict(
        MCPSettingsInput.self, from: request, limit: configuration.maxBodyBytes)
      try dependencies.engine.setMCPSettings(MCPSettings(allowsCreations: input.allowsCreations))
      return try AppJSON.make(input)
    }
  }
}

struct MCPSettingsInput: StrictInput, Encodable {
  var allowsCreations: Bool
  enum CodingKeys: String, CodingKey, CaseIterable { case allowsCreations = "allows_creations" }

  init(_ settings: MCPSettings) { allowsCreations = settings.allowsCreations }
}

/// `/api/mcp/servers`: the MCP servers whose tools the assistant may call, for the Settings page — add
/// (a command Hearth starts, or an HTTP address), remove, list again, and each tool's policy.
struct ToolServerRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/mcp/servers"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(["servers": try engine.toolServers().map(ToolServerView.init)]) }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        ToolServerInput.self, from: request, limit: configuration.maxBodyBytes)
      let endpoint: ToolServer.Endpoint
      switch (input.command, input.url) {
      case (let command?, nil): endpoint = .command(command)
      case (nil, let url?):
        guard let address = URL(string: url) else { throw ToolServerError.unsupportedURL(url) }
        endpoint = .url(address)
      default: throw APIError.invalidRequest("give either command or url", parameter: "command")
      }
      let timeout = input.timeoutSeconds ?? 30
      guard (1...3_600).contains(timeout) else {
        throw APIError.invalidRequest("timeout_seconds must be 1–3600", parameter: "timeout_seconds")
      }
      let server = try await engine.addToolServer(named: input.name, endpoint: endpoint, timeoutSeconds: timeout)
      return try AppJSON.make(ToolServerView(server), status: .created)
    }
    router.delete(":name") { _, context in
      try await engine.removeToolServer(named: try context.parameters.require("name"))
      return Response(status: .noContent)
    }
    router.post(":name/refresh") { _, context in
      try AppJSON.make(ToolServerView(try await engine.refreshTools(of: try context.parameters.require("name"))))
    }
    router.put(":name/tools/:tool") { request, context in
      let input = try await RequestReader.decodeStrict(
        ToolPolicyInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let policy = ToolPolicy(rawValue: input.policy) else {
        throw APIError.invalidRequest("policy must be ask or allow", parameter: "policy")
      }
      let server = try engine.setToolPolicy(
        policy, server: try context.parameters.require("name"), tool: try context.parameters.require("tool"))
      return try AppJSON.make(ToolServerView(server))
    }
  }
}

/// A server as the Settings page shows it.
struct ToolServerView: Encodable {
  struct Tool: Encodable {
    var name: String
    var description: String
    var readOnly: Bool
    var policy: ToolPolicy
  }
  var name: String
  var command: [String]?
  var url: String?
  var timeoutSeconds: Int
  var tools: [Tool]

  init(_ server: ToolServer) {
    name = server.name
    switch server.endpoint {
    case .command(let words): command = words
    case .url(let address): url = address.absoluteString
    }
    timeoutSeconds = server.timeoutSeconds
    tools = server.tools.map {
      Tool(name: $0.name, description: $0.description, readOnly: $0.readOnly, policy: server.policy(for: $0.name))
    }
  }
}

struct ToolServerInput: StrictInput {
  var name: String
  var command: [String]?
  var url: String?
  var timeoutSeconds: Int?
  enum CodingKeys: String, CodingKey, CaseIterable { case name, command, url, timeoutSeconds = "timeout_seconds" }
}

struct ToolPolicyInput: StrictInput {
  var policy: String
  enum CodingKeys: String, CodingKey, CaseIterable { case policy }
}
