import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("MCP servers on the Settings page's API: added by command, listed, their tools' policies, removed", .heavy)
struct ToolServerAPITests {
  /// A body that adds Hearth's own MCP server (`hearth mcp` on a profile of its own) as a tool server: a real
  /// stdio server that needs nothing beyond this package.
  static func selfServer(name: String) -> String {
    let hearth = TestModels.packageRoot.appendingPathComponent(".build/debug/hearth").path
    let home = (try? TestModels.temporaryDirectory().path) ?? NSTemporaryDirectory()
    let command = JSONValue.array(["env", "HEARTH_HOME=\(home)", hearth, "mcp"].map(JSONValue.string)).jsonText
    return #"{"name":"\#(name)","command":\#(command)}"#
  }

  @Test func aServerIsAddedWithItsToolsAndItsPoliciesChangeByName() async throws {
    try await LiveServer.inProcess { server in
      let added = try await server.request(.POST, "/api/mcp/servers", body: Self.selfServer(name: "hearth"))
      #expect(added.status == 201, "\(added.body)")
      let tools = added.json?["tools"]?.arrayValue ?? []
      let query = try #require(tools.first { $0["name"]?.stringValue == "calendar_query" })
      #expect(query["read_only"] == .bool(true))
      #expect(query["policy"]?.stringValue == "allow")
      let create = try #require(tools.first { $0["name"]?.stringValue == "calendar_create" })
      #expect(create["policy"]?.stringValue == "ask")

      let listed = try await server.request(.GET, "/api/mcp/servers")
      #expect(listed.json?["servers"]?.arrayValue?.map { $0["name"]?.stringValue } == ["hearth"])
      #expect(listed.json?["servers"]?.arrayValue?.first?["command"]?.arrayValue?.last == .string("mcp"))

      let allowed = try await server.request(
        .PUT, "/api/mcp/servers/hearth/tools/calendar_create", body: #"{"policy":"allow"}"#)
      #expect(allowed.status == 200)
      let after = allowed.json?["tools"]?.arrayValue?.first { $0["name"]?.stringValue == "calendar_create" }
      #expect(after?["policy"]?.stringValue == "allow")
      #expect(try server.engine.toolServers().first?.policy(for: "calendar_create") == .allow)

      // Refused by name: a second server of the same name, a bad name, a bad policy, an unknown tool.
      let twice = try await server.request(.POST, "/api/mcp/servers", body: Self.selfServer(name: "hearth"))
      #expect(twice.status == 409)
      let badName = try await server.request(.POST, "/api/mcp/servers", body: #"{"name":"a b","command":["x"]}"#)
      #expect(badName.status == 400)
      let both = try await server.request(
        .POST, "/api/mcp/servers", body: #"{"name":"b","command":["x"],"url":"http://127.0.0.1:1/mcp"}"#)
      #expect(both.status == 400)
      let unknownField = try await server.request(
        .POST, "/api/mcp/servers", body: #"{"name":"c","command":["x"],"env":{"A":"1"}}"#)
      #expect(unknownField.status == 400)
      #expect(unknownField.body.contains("env"))
      let badPolicy = try await server.request(
        .PUT, "/api/mcp/servers/hearth/tools/calendar_create", body: #"{"policy":"sometimes"}"#)
      #expect(badPolicy.status == 400)
      let noTool = try await server.request(.PUT, "/api/mcp/servers/hearth/tools/nope", body: #"{"policy":"ask"}"#)
      #expect(noTool.status == 404)
      let missing = try await server.request(
        .POST, "/api/mcp/servers", body: #"{"name":"gone","command":["no-such-program-x"]}"#)
      #expect(missing.status == 502)
      #expect(missing.body.contains("no program named no-such-program-x"))

      let refreshed = try await server.request(.POST, "/api/mcp/servers/hearth/refresh")
      #expect(refreshed.status == 200)
      #expect(refreshed.json?["tools"]?.arrayValue?.count == tools.count)
      let removed = try await server.request(.DELETE, "/api/mcp/servers/hearth")
      #expect(removed.status == 204)
      #expect(try await server.request(.GET, "/api/mcp/servers").json?["servers"]?.arrayValue?.isEmpty == true)
      await server.engine.stopToolServers()
    }
  }
}
