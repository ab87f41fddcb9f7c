import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthStore
import HearthTestSupport
import LlamaKit
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthEngine

@Suite("The web app's API, in process and through the live server with the real model", .serialized, .heavy)
struct AppAPITests {
  /// Runs a turn and returns its events.
  /// Runs a turn to its end; `onStarted` is called once its `started` event has arrived (it holds the model).
  static func turn(
    _ server: LiveServer, session: String, text: String, onStarted: @Sendable () -> Void = {}
  ) async throws -> [EventParser.Event] {
    let (status, body) = try await server.stream(
      "/api/sessions/\(session)/turns", body: JSONValue.object([("text", .string(text))]).jsonText)
    #expect(status == 200)
    var parser = EventParser()
    var events: [EventParser.Event] = []
    for try await buffer in body {
      let new = parser.feed(String(buffer: buffer))
      if new.contains(where: { $0.name == "started" }) { onStarted() }
      events += new
    }
    return events
  }

  static func newSession(_ server: LiveServer) async throws -> String {
    let created = try await server.request(.POST, "/api/sessions", body: "{}")
    #expect(created.status == 201)
    return try #require(created.json?["id"]?.stringValue)
  }

  static func decode(_ data: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(data.utf8))
  }

  @Test func aTurnThatMustLoadTheModelFirstSaysSo() async throws {
    try await LiveServer.routed { server in
      let session = try await Self.newSession(server)
      // As the idle timer would: the model is let go, and the next turn loads it again.
      await server.engine.host?.unload(reason: "idle")
      let events = try await Self.turn(server, session: session, text: "Hello")
      let names = events.map(\.name)
      let loading = try #require(names.firstIndex(of: "loading"), "\(names)")
      #expect(loading < (names.firstIndex(of: "started") ?? 0))
      #expect(try Self.decode(events[loading].data)["model"]?.stringValue == "SmolLM2-135M-Instruct.Q4_1.gguf")
      // Loaded now: the next turn has nothing to wait for.
      let again = try await Self.turn(server, session: session, text: "Hello again")
      #expect(!again.map(\.name).contains("loading"))
    }
  }

  @Test func aModelThatFailsToLoadReachesTheClientAsAnErrorEvent() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("SmolLM2-135M-Instruct.Q4_1.gguf")
    try FileManager.default.copyItem(atPath: TestModels.smolLM2, toPath: copy.path)
    try await LiveServer.routed(modelPath: copy.path) { server in
      let session = try await Self.newSession(server)
      await server.engine.host?.unload(reason: "idle")
      // While the model is out of memory its file goes bad: the next turn's load fails.
      try Data("GGUF, but only the magic".utf8).write(to: copy)
      let events = try await Self.turn(server, session: session, text: "Hello")
      let names = events.map(\.name)
      let loading = try #require(names.firstIndex(of: "loading"), "\(names)")
      let error = try #require(names.firstIndex(of: "error"), "no error event: \(names)")
      #expect(loading < error)
      #expect(!names.contains("started") && !names.contains("done"), "\(names)")
      let message = try Self.decode(events[error].data)["message"]?.stringValue ?? ""
      #expect(!message.isEmpty)
    }
  }

  @Test func aTurnStreamsItsEventsAndIsSaved() async throws {
    try await LiveServer.routed { server in
      let id = try await Self.newSession(server)
      let events = try await Self.turn(server, session: id, text: "What is the capital of France?")
      let names = events.compactMap(\.name)
      #expect(names.first == "started")
      #expect(names.last == "done")
      #expect(names.filter { $0 == "answer" }.count >= 3)
      let streamed = try events.filter { $0.name == "answer" }.map {
        try Self.decode($0.data)["text"]?.stringValue ?? ""
      }
      .joined()
      // An answer without blocks is shown as written.
      let shown = try events.filter { $0.name == "answer" }.map {
        try Self.decode($0.data)["shown"]?.stringValue ?? ""
      }
      .joined()
      #expect(shown == streamed)
      let done = try Self.decode(try #require(events.last).data)["message"]
      #expect(done?["state"]?.stringValue == "complete")
      #expect(done?["content"]?.stringValue == streamed)
      #expect(done?["action_blocks"]?.arrayValue?.isEmpty == true)
      #expect(streamed.contains("Paris"))

      let detail = try await server.request(.GET, "/api/sessions/\(id)")
      let messages = try #require(detail.json?["messages"]?.arrayValue)
      #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant"])
      #expect(messages.last?["content"]?.stringValue == streamed)
      #expect(detail.json?["session"]?["title"]?.stringValue == "What is the capital of France?")
    }
  }

  @Test func sessionsCanBeSearchedRenamedPinnedArchivedExportedImportedAndDeleted() async throws {
    try await LiveServer.inProcess { server in
      let session = try server.database.createSession(ChatSession(title: "Garden plans"))
      _ = try server.database.appendMessage(
        StoredMessage(sessionID: session.id, index: 0, role: .user, content: "Where should the rhubarb go?"))
      let id = session.id.uuidString

      let bodies = try await server.request(.GET, "/api/sessions/search?q=rhubarb&scope=bodies")
      #expect(bodies.json?["hits"]?.arrayValue?.first?["session"]?["id"]?.stringValue == id)
      let titles = try await server.request(.GET, "/api/sessions/search?q=rhubarb&scope=titles")
      #expect(titles.json?["hits"]?.arrayValue?.isEmpty == true)
      #expect(try await server.request(.GET, "/api/sessions/search?q=x&scope=everything").status == 400)
      #expect(try await server.request(.GET, "/api/sessions/search").status == 400)

      let renamed = try await server.request(.PATCH, "/api/sessions/\(id)", body: #"{"title":"  Vegetable garden "}"#)
      #expect(renamed.json?["title"]?.stringValue == "Vegetable garden")
      #expect(try await server.request(.PATCH, "/api/sessions/\(id)", body: #"{"title":"  "}"#).status == 400)
      let pinned = try await server.request(.PATCH, "/api/sessions/\(id)", body: #"{"pinned":true}"#)
      #expect(pinned.json?["is_pinned"] == .bool(true))
      let pinnedSearch = try await server.request(.GET, "/api/sessions/search?q=vegetable&scope=pinned")
      #expect(pinnedSearch.json?["hits"]?.arrayValue?.count == 1)

      _ = try await server.request(.PATCH, "/api/sessions/\(id)", body: #"{"archived":true}"#)
      let visible = try await server.request(.GET, "/api/sessions")
      #expect(visible.json?["sessions"]?.arrayValue?.isEmpty == true)
      let all = try await server.request(.GET, "/api/sessions?archived=true")
      #expect(all.json?["sessions"]?.arrayValue?.count == 1)

      let markdown = try await server.request(.GET, "/api/sessions/\(id)/export?format=md")
      #expect(markdown.header("Content-Type")?.hasPrefix("text/markdown") == true)
      #expect(markdown.body.contains("# Vegetable garden"))
      #expect(markdown.body.contains("Where should the rhubarb go?"))
      let exported = try await server.request(.GET, "/api/sessions/\(id)/export?format=json")
      #expect(exported.header("Content-Disposition")?.contains("hearth-vegetable-garden.json") == true)

      #expect(try await server.request(.DELETE, "/api/sessions/\(id)").status == 204)
      #expect(try await server.request(.GET, "/api/sessions/\(id)").status == 404)
      let imported = try await server.request(.POST, "/api/sessions/import", body: exported.body)
      #expect(imported.status == 201)
      let back = try await server.request(.GET, "/api/sessions/\(id)/export?format=json")
      #expect(back.json == exported.json)

      let broken = try await server.request(.POST, "/api/sessions/import", body: #"{"format":1,"session":{}}"#)
      #expect(broken.status == 400)
      #expect(broken.json?["error"]?["message"]?.stringValue?.contains("session") == true)
      #expect(try await server.request(.GET, "/api/sessions/not-a-uuid").status == 404)
      #expect(try await server.request(.GET, "/api/sessions/\(UUID().uuidString)").status == 404)
    }
  }

  @Test func settingsAreValidatedAndKept() async throws {
    try await LiveServer.inProcess { server in
      let current = try await server.request(.GET, "/api/settings")
      #expect(current.json?["preset"]?.stringValue == "precise")
      var settings = ChatSettings(preset: .creative, maxTokens: 300, systemPrompt: "Be brief.")
      settings.topK = 12
      let body = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
      #expect(try await server.request(.PUT, "/api/settings", body: body).status == 200)
      #expect(try server.database.setting("chat", as: ChatSettings.self) == settings)
      let reread = try await server.request(.GET, "/api/settings")
      #expect(reread.json?["top_k"]?.numberValue == 12)
      #expect(reread.json?["system_prompt"]?.stringValue == "Be brief.")

      settings.temperature = -1
      let invalid = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
      let refused = try await server.request(.PUT, "/api/settings", body: invalid)
      #expect(refused.status == 400)
      #expect(refused.json?["error"]?["message"]?.stringValue?.contains("temperature") == true)
      #expect(try server.database.setting("chat", as: ChatSettings.self)?.temperature == 1.0)
    }
  }

  @Test func leavingATurnStopsItAndKeepsWhatWasSaid() async throws {
    try await LiveServer.with(settings: ChatSettings(preset: .precise, maxTokens: 1000)) { server in
      let id = try await Self.newSession(server)
      let reader = Task {
        let (_, body) = try await server.stream(
          "/api/sessions/\(id)/turns", body: #"{"text":"Count from 1 to 300, one number per line."}"#)
        var reads = 0
        for try await _ in body {
          reads += 1
          if reads == 6 { break }
        }
      }
      try await reader.value
      let sessionID = try #require(UUID(uuidString: id))
      try await waitUntil(seconds: 10) {
        (try? server.database.messages(in: sessionID).last?.state) == .cancelled
      }
      let answer = try #require(try server.database.messages(in: sessionID).last)
      #expect(answer.state == .cancelled)
      #expect(!answer.content.isEmpty)
      let record = try #require(try await LiveServer.sharedSession().lastRecord)
      #expect(record.stopReason == .cancelled)
      #expect(record.usage.generatedTokens < 1000)
    }
  }

  @Test func badTurnRequestsAreRefused() async throws {
    try await LiveServer.routed { server in
      let id = try await Self.newSession(server)
      let empty = try await server.request(.POST, "/api/sessions/\(id)/turns", body: #"{"text":"   "}"#)
      #expect(empty.status == 400)
      let missing = try await server.request(.POST, "/api/sessions/\(UUID().uuidString)/turns", body: #"{"text":"hi"}"#)
      #expect(missing.status == 404)
      let malformed = try await server.request(.POST, "/api/sessions/\(id)/turns", body: #"{"txt":"hi"}"#)
      #expect(malformed.status == 400)
      #expect(malformed.json?["error"]?["message"]?.stringValue?.contains("text") == true)
    }
    try await LiveServer.inProcess { server in
      let id = try await Self.newSession(server)
      let noModel = try await server.request(.POST, "/api/sessions/\(id)/turns", body: #"{"text":"hi"}"#)
      #expect(noModel.status == 503)
      #expect(try await server.request(.GET, "/health").json?["status"]?.stringValue == "no_model")
    }
  }

  @Test func healthMetricsAndDiagnosticsCarryNoContent() async throws {
    try await LiveServer.routed { server in
      let id = try await Self.newSession(server)
      let secret = "zanzibar-marmalade"
      _ = try await Self.turn(server, session: id, text: "Remember the word \(secret).")
      let metrics = try await server.request(.GET, "/metrics")
      #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
      for name in [
        "hearth_http_requests_total", "hearth_generated_tokens_total", "hearth_time_to_first_token_seconds",
        "hearth_queue_depth", "hearth_generation_tokens_per_second",
      ] {
        #expect(metrics.body.contains(name), "\(name)")
      }
      let diagnostics = try await server.request(.GET, "/api/diagnostics")
      #expect(diagnostics.json?["sessions"]?.numberValue == 1)
      #expect(diagnostics.json?["messages"]?.numberValue == 2)
      // The doctor report rides along, with the answer's figures and its text for copying.
      let performance = diagnostics.json?["report"]?["performance"]
      #expect((performance?["generations"]?.numberValue ?? 0) >= 1)
      #expect(performance?["recent"]?.arrayValue?.last?["provider"]?.stringValue == "local")
      #expect(diagnostics.json?["text"]?.stringValue?.contains("Recent performance") == true)
      let models = try await server.request(.GET, "/api/models")
      #expect(models.json?["loaded"]?.stringValue == "SmolLM2-135M-Instruct.Q4_1.gguf")
      // The latest log lines, as the server logs them: the turn's request is there by its route, its words not.
      let log = try await server.request(.GET, "/api/diagnostics/log?limit=500")
      let lines = try #require(log.json?["lines"]?.arrayValue)
      #expect(
        lines.contains {
          $0["message"]?.stringValue == "request"
            && $0["metadata"]?["route"]?.stringValue?.hasPrefix("/api/sessions/:id") == true
        }, "\(log.body)")
      let fewer = try await server.request(.GET, "/api/diagnostics/log?limit=1")
      #expect(fewer.json?["lines"]?.arrayValue?.count == 1)
      let refused = try await server.request(.GET, "/api/diagnostics/log?limit=0")
      #expect(refused.status == 400)
      #expect(refused.json?["error"]?["param"]?.stringValue == "limit", "\(refused.body)")
      for reply in [metrics, diagnostics, models, log] {
        #expect(!reply.body.contains(secret))
        #expect(!reply.body.contains(id))
      }
    }
  }
}
