import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import NIOHTTP1
import Testing

@testable import HearthEngine

@Suite("MCP over streamable HTTP at /mcp, in process")
struct MCPAPITests {
  static let headers = [("Accept", "application/json, text/event-stream")]

  /// The JSON-RPC messages of a reply, whether sent as JSON or as server-sent events.
  static func messages(_ reply: LiveServer.Reply) -> [JSONValue] {
    if reply.header("Content-Type")?.hasPrefix("application/json") == true { return reply.json.map { [$0] } ?? [] }
    var parser = EventParser()
    return parser.feed(reply.body + "\n\n").compactMap {
      try? JSONDecoder().decode(JSONValue.self, from: Data($0.data.utf8))
    }
  }

  static func rpc(_ id: Int, _ method: String, _ params: String = "{}") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
  }

  @Test func aClientBeginsASessionListsToolsAndItsChangeWaitsUnderItsName() async throws {
    try await LiveServer.inProcess { server in
      let initialize = try await server.request(
        .POST, "/mcp",
        body: Self.rpc(
          1, "initialize",
          #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"http-test","version":"1"}}"#),
        headers: Self.headers)
      #expect(initialize.status == 200, "\(initialize.body)")
      let session = try #require(initialize.header("Mcp-Session-Id"))
      let hello = try #require(Self.messages(initialize).first)
      #expect(hello["result"]?["serverInfo"]?["name"]?.stringValue == "hearth")
      let inSession = Self.headers + [("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-06-18")]
      let initialized = try await server.request(
        .POST, "/mcp", body: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, headers: inSession)
      #expect(initialized.status == 202)

      let list = try await server.request(.POST, "/mcp", body: Self.rpc(2, "tools/list"), headers: inSession)
      let tools = Self.messages(list).first?["result"]?["tools"]?.arrayValue ?? []
      #expect(tools.contains { $0["name"]?.stringValue == "calendar_create" })

      let call = try await server.request(
        .POST, "/mcp",
        body: Self.rpc(
          3, "tools/call",
          #"{"name":"calendar_create","arguments":{"title":"Standup","start":"2026-12-01T09:00"}}"#),
        headers: inSession)
      let result = Self.messages(call).first?["result"]
      #expect(result?["structuredContent"]?["state"]?.stringValue == "pending", "\(call.body)")
      let waiting = try server.database.actions(state: .pending)
      #expect(waiting.map(\.source) == ["mcp: http-test"])
      #expect(try server.database.actions(state: .created).isEmpty)
      // The web app lists what waits, with who asked.
      let listed = try await server.request(.GET, "/api/actions?state=pending")
      #expect(listed.json?["actions"]?.arrayValue?.first?["source"]?.stringValue == "mcp: http-test")
      #expect(try await server.request(.GET, "/api/actions?state=waiting").status == 400)

      let ended = try await server.request(.DELETE, "/mcp", headers: inSession)
      #expect(ended.status == 200)
      let gone = try await server.request(.POST, "/mcp", body: Self.rpc(4, "tools/list"), headers: inSession)
      #expect(gone.status == 404)
    }
  }

  @Test func theSettingsPageSwitchesWhetherCreationsWait() async throws {
    try await LiveServer.inProcess { server in
      #expect(try await server.request(.GET, "/api/mcp").json?["allows_creations"] == .bool(false))
      let saved = try await server.request(.PUT, "/api/mcp", body: #"{"allows_creations":true}"#)
      #expect(saved.json?["allows_creations"] == .bool(true))
      #expect(try server.engine.mcpSettings().allowsCreations)
      let unknown = try await server.request(
        .PUT, "/api/mcp", body: #"{"allows_creations":true,"allows_deletions":true}"#)
      #expect(unknown.status == 400)
      #expect(unknown.json?["error"]?["param"]?.stringValue == "allows_deletions")
    }
  }

  @Test func requestsOutsideASessionAreRefused() async throws {
    try await LiveServer.inProcess { server in
      let orphan = try await server.request(.POST, "/mcp", body: Self.rpc(1, "tools/list"), headers: Self.headers)
      #expect(orphan.status == 400)
      let malformed = try await server.request(.POST, "/mcp", body: "{not json", headers: Self.headers)
      #expect(malformed.status == 400)
      let listening = try await server.request(.GET, "/mcp", headers: Self.headers)
      #expect(listening.status == 400)
    }
  }
}
