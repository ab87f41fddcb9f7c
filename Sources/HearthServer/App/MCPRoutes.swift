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
    router.get { _, _ in try JSONResponse.make(MCPSettingsInput(try dependencies.engine.mcpSettings())) }
    router.put { request, _ in
      let input = try await RequestReader.decodeStrict(
        MCPSettingsInput.self, from: request, limit: configuration.maxBodyBytes)
      try dependencies.engine.setMCPSettings(MCPSettings(allowsCreations: input.allowsCreations))
      return try JSONResponse.make(input)
    }
  }
}

struct MCPSettingsInput: StrictInput, Encodable {
  var allowsCreations: Bool
  static let fields: Set<String> = ["allowsCreations"]

  init(_ settings: MCPSettings) { allowsCreations = settings.allowsCreations }
}
