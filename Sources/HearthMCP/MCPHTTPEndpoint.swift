public import Foundation
import Logging
import MCP

/// MCP over streamable HTTP, whatever the web framework: one MCP server per client session (its
/// `Mcp-Session-Id`), begun by the client's `initialize` request and ended by its DELETE, by an hour unused, or
/// when too many are open (the longest unused goes first). The `Host`, origin, key and size checks are the web
/// server's, made before a request gets here.
public actor MCPHTTPEndpoint {
  private struct Session {
    let server: Server
    let transport: StatefulHTTPServerTransport
    var lastUsed: ContinuousClock.Instant
  }

  private let hearth: HearthMCPServer
  private let idleLimit: Duration
  private let maximumSessions: Int
  private var sessions: [String: Session] = [:]

  public init(server: HearthMCPServer, idleLimit: Duration = .seconds(3600), maximumSessions: Int = 32) {
    self.hearth = server
    self.idleLimit = idleLimit
    self.maximumSessions = maximumSessions
  }

  /// How many client sessions are open.
  public var sessionCount: Int { sessions.count }

  /// Answers one HTTP request to the MCP address, in the web framework's terms.
  public func handle(method: String, headers: [String: String], body: Data?, path: String) async -> MCPHTTPReply {
    let response = await handle(HTTPRequest(method: method, headers: headers, body: body, path: path))
    if case .stream(let events, _) = response {
      return MCPHTTPReply(status: response.statusCode, headers: response.headers, body: .stream(events))
    }
    return MCPHTTPReply(
      status: response.statusCode, headers: response.headers, body: .data(response.bodyData ?? Data()))
  }

  /// Answers one HTTP request to the MCP address.
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    await closeIdleSessions()
    if let id = request.header(HTTPHeaderName.sessionID) {
      guard var session = sessions[id] else {
        return .error(
          statusCode: 404, .invalidRequest("no MCP session \(id): it ended or never began; initialize again"))
      }
      session.lastUsed = .now
      sessions[id] = session
      let response = await session.transport.handleRequest(request)
      if request.method.uppercased() == "DELETE", response.statusCode == 200 {
        sessions[id] = nil
        await session.transport.disconnect()
      }
      return response
    }
    guard request.method.uppercased() == "POST", let body = request.body, Self.isInitialize(body) else {
      return .error(
        statusCode: 400, .invalidRequest("a request without an \(HTTPHeaderName.sessionID) header must initialize"))
    }
    return await begin(with: request)
  }

  /// Ends every session: their servers stop and their open streams close.
  public func closeAll() async {
    let open = sessions.values
    sessions = [:]
    for session in open { await session.transport.disconnect() }
  }

  private func begin(with request: HTTPRequest) async -> HTTPResponse {
    if sessions.count >= maximumSessions, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
      sessions[oldest.key] = nil
      await oldest.value.transport.disconnect()
    }
    let id = UUID().uuidString
    // Origins are checked by the web server against its own list, so the library's localhost-only check is left out.
    let transport = StatefulHTTPServerTransport(
      sessionIDGenerator: FixedSessionID(id: id),
      validationPipeline: StandardValidationPipeline(validators: [
        AcceptHeaderValidator(mode: .sseRequired), ContentTypeValidator(), ProtocolVersionValidator(),
        SessionValidator(),
      ]))
    do {
      let server = try await hearth.start(on: transport)
      let response = await transport.handleRequest(request)
      if case .error = response {
        await transport.disconnect()
      } else {
        sessions[id] = Session(server: server, transport: transport, lastUsed: .now)
      }
      return response
    } catch {
      await transport.disconnect()
      return .error(statusCode: 500, .internalError("the MCP session could not begin: \(error)"))
    }
  }

  /// Whether a body is the JSON-RPC `initialize` request that begins a session.
  private static func isInitialize(_ body: Data) -> Bool {
    struct Message: Decodable { var method: String? }
    return (try? JSONDecoder().decode(Message.self, from: body))?.method == "initialize"
  }

  private func closeIdleSessions() async {
    let now = ContinuousClock.now
    for (id, session) in sessions where now - session.lastUsed > idleLimit {
      sessions[id] = nil
      await session.transport.disconnect()
    }
  }
}

/// An MCP answer to an HTTP request, for the web framework to send: a whole body, or server-sent events as
/// they come.
public struct MCPHTTPReply: Sendable {
  public enum Body: Sendable {
    case data(Data)
    case stream(AsyncThrowingStream<Data, any Error>)
  }

  public var status: Int
  public var headers: [String: String]
  public var body: Body
}

/// Gives the transport the session id chosen before it was made, so the session is known by it at once.
private struct FixedSessionID: SessionIDGenerator {
  let id: String
  func generateSessionID() -> String { id }
}
