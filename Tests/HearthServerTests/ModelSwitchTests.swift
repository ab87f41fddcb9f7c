import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthStore
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Choosing and naming models in a running server", .heavy)
struct ModelSwitchTests {
  static func ask(_ model: String?, tokens: Int = 4, extra: String = "") -> String {
    let named = model.map { #""model":"\#($0)","# } ?? ""
    return #"{\#(named)"messages":[{"role":"user","content":"Say hi."}],"max_tokens":\#(tokens)\#(extra)}"#
  }

  @Test func requestsGetTheModelTheyNameAndAChoiceWaitsForTheLine() async throws {
    try await LiveServer.routed { server in
      let smol = "SmolLM2-135M-Instruct.Q4_1.gguf"
      let gemma = "gemma-3-270m-Q4_K_M.gguf"
      let list = try await server.request(.GET, "/v1/models")
      #expect(list.json?["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [smol, gemma])

      // Named requests, concurrently and alternating: each is answered by the model it names.
      let names = ["gemma-3-270m", nil, gemma, "smollm2", "hearth", "Gemma-3-270M-Q4_K_M"]
      let replies = try await withThrowingTaskGroup(of: (Int, LiveServer.Reply).self) { group in
        for (index, name) in names.enumerated() {
          group.addTask { (index, try await server.request(.POST, "/v1/chat/completions", body: Self.ask(name))) }
        }
        return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
      }
      for (index, name) in names.enumerated() {
        let reply = try #require(replies[index])
        #expect(reply.status == 200, "\(reply.body)")
        let expected = (name ?? "hearth").lowercased().hasPrefix("gemma") ? gemma : smol
        #expect(reply.json?["model"]?.stringValue == expected, "\(name ?? "no name")")
      }

      // A choice made while an answer runs waits for it, and the request queued behind the choice gets the
      // new model.
      @Sendable func depth() async throws -> Int {
        Int(try await server.request(.GET, "/api/diagnostics").json?["queue_depth"]?.numberValue ?? -1)
      }
      let long = Task {
        try await server.request(
          .POST, "/v1/chat/completions", body: Self.ask(nil, tokens: 200, extra: #","ignore_eos":true"#))
      }
      try await waitUntil(seconds: 20) { try await depth() == 1 }
      let choosing = Task {
        try await server.request(.PUT, "/api/models/active", body: #"{"model":"gemma-3-270m"}"#)
      }
      try await waitUntil(seconds: 20) { try await depth() == 2 }
      let after = Task { try await server.request(.POST, "/v1/chat/completions", body: Self.ask(nil)) }
      let running = try await long.value
      #expect(running.status == 200)
      #expect(running.json?["model"]?.stringValue == smol)
      #expect(running.json?["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue == "length")
      let chosen = try await choosing.value
      #expect(chosen.status == 200, "\(chosen.body)")
      #expect(chosen.json?["active"]?.stringValue == gemma)
      #expect(chosen.json?["loaded"]?.stringValue == gemma)
      let afterReply = try await after.value
      #expect(afterReply.json?["model"]?.stringValue == gemma, "\(afterReply.body) \(chosen.body)")

      // Refusals name what is wrong; the choice stands.
      for (body, status, code) in [
        (#"{"model":"no-such-model"}"#, 404, "model_not_found"),
        (#"{"model":"all-MiniLM-L6-v2"}"#, 400, "wrong_model_role"),
        (#"{"model":"gemma-3-270m","context":512}"#, 400, nil),
      ] {
        let reply = try await server.request(.PUT, "/api/models/active", body: body)
        #expect(reply.status == status, "\(body): \(reply.body)")
        if let code { #expect(reply.json?["error"]?["code"]?.stringValue == code) }
      }
      #expect(try await server.request(.GET, "/api/models").json?["active"]?.stringValue == gemma)

      let back = try await server.request(.PUT, "/api/models/active", body: #"{"model":"\#(smol)"}"#)
      #expect(back.json?["active"]?.stringValue == smol)
      #expect(
        try await server.request(.POST, "/v1/chat/completions", body: Self.ask(nil)).json?["model"]?.stringValue == smol
      )
    }
  }
  @Test func aPersonaChatIsAnsweredByItsOwnModelWhileAnotherChatKeepsTheChosenOne() async throws {
    try await LiveServer.routed { server in
      let smol = "SmolLM2-135M-Instruct.Q4_1.gguf"
      let gemma = "gemma-3-270m-Q4_K_M.gguf"
      let added = try await server.request(
        .POST, "/api/personas", body: #"{"name":"Poet","model":"gemma-3-270m","preset":"precise"}"#)
      #expect(added.status == 201, "\(added.body)")
      let refused = try await server.request(.POST, "/api/personas", body: #"{"name":"Ghost","model":"no-such"}"#)
      #expect(refused.json?["error"]?["param"]?.stringValue == "model", "\(refused.body)")
      let poet = try #require(
        try await server.request(.POST, "/api/sessions", body: #"{"persona":"Poet"}"#).json?["id"]?.stringValue)
      let plain = try await AppAPITests.newSession(server)
      // Both at once: each waits for its model in the same line, and neither takes the other's.
      async let poetTurn = TurnInProcessTests.turn(server, session: poet, text: "Say hi.")
      async let plainTurn = TurnInProcessTests.turn(server, session: plain, text: "Say hi.")
      let (poetEvents, _) = try await (poetTurn, plainTurn)
      #expect(poetEvents.last?.name == "done", "\(poetEvents.map(\.name))")
      // Its model was not in memory: the wait for it is said for what it is.
      #expect(poetEvents.contains { $0.name == "loading" && $0.data.contains(gemma) }, "\(poetEvents.map(\.name))")
      for (session, expected) in [(poet, gemma), (plain, smol)] {
        let detail = try await server.request(.GET, "/api/sessions/\(session)")
        #expect(detail.json?["session"]?["model"]?.stringValue == expected, "\(detail.body)")
        let answer = detail.json?["messages"]?.arrayValue?.last
        #expect(answer?["state"]?.stringValue == "complete", "\(detail.body)")
      }
      // Written again, the answer is its model's again.
      let poetDetail = try await server.request(.GET, "/api/sessions/\(poet)")
      let answer = try #require(poetDetail.json?["messages"]?.arrayValue?.last?["id"]?.stringValue)
      let again = try await server.request(.POST, "/api/sessions/\(poet)/messages/\(answer)/regenerate", body: "{}")
      #expect(again.status == 200, "\(again.body)")
      let regenerated = try await server.request(.GET, "/api/sessions/\(poet)")
      #expect(regenerated.json?["session"]?["model"]?.stringValue == gemma)
      #expect(regenerated.json?["messages"]?.arrayValue?.last?["state"]?.stringValue == "complete")
      // The persona's model answered for it alone: the chosen one is still the one chosen.
      #expect(try await server.request(.GET, "/api/models").json?["active"]?.stringValue == smol)
      let after = try await server.request(.POST, "/v1/chat/completions", body: Self.ask(nil))
      #expect(after.json?["model"]?.stringValue == smol)
    }
  }

}

@Suite("Runtime settings through the API", .heavy)
struct RuntimeAPITests {
  @Test func previewApplyValidateAndTest() async throws {
    try await LiveServer.routed { server in
      let overview = try await server.request(.GET, "/api/runtime")
      #expect(overview.json?["settings"]?["preset"]?.stringValue == "balanced")
      #expect(overview.json?["presets"]?["efficient"]?["context_size"]?.numberValue == 1024)

      let preview = try await server.request(
        .POST, "/api/runtime/preview", body: #"{"preset":"efficient","context_size":1024,"threads":1,"batch_size":128}"#
      )
      #expect(preview.status == 200, "\(preview.body)")
      #expect(preview.json?["proposed"]?["context_size"]?.numberValue == 1024)
      #expect(preview.json?["current"]?["context_size"]?.numberValue == 2048)
      // One thread where the server runs on TestModels.threads: speed scales with threads.
      #expect(preview.json?["generation_speed_factor"]?.numberValue == 1 / Double(TestModels.threads))
      // Nothing was applied by a preview.
      #expect(try await server.request(.GET, "/api/runtime").json?["settings"]?["preset"]?.stringValue == "balanced")

      // Every preset offloads what fits; the process under test sees no GPU, so nothing would be.
      #expect(overview.json?["presets"]?["quality"]?["gpu_layers"]?.stringValue == "auto")
      #expect(preview.json?["proposed"]?["gpu_layers"]?.numberValue == 0)

      for (body, parameter) in [
        (#"{"preset":"efficient","n_gpu_layers":99}"#, "n_gpu_layers"), (#"{"preset":"turbo"}"#, nil),
        (#"{"preset":"custom","threads":0}"#, nil), (#"{"preset":"custom","gpu_layers":"all"}"#, "gpu_layers"),
        (#"{"preset":"custom","gpu_layers":-1}"#, "gpu_layers"),
      ] {
        let refused = try await server.request(.PUT, "/api/runtime", body: body)
        #expect(refused.status == 400, "\(body)")
        if let parameter { #expect(refused.json?["error"]?["param"]?.stringValue == parameter) }
      }

      let applied = try await server.request(
        .PUT, "/api/runtime", body: #"{"preset":"custom","context_size":1000,"gpu_layers":0}"#)
      #expect(applied.status == 200, "\(applied.body)")
      #expect(try await server.request(.GET, "/api/runtime").json?["settings"]?["gpu_layers"]?.numberValue == 0)
      let checks = try await server.request(.POST, "/api/runtime/validate", body: "{}")
      let context = checks.json?["checks"]?.arrayValue?.first { $0["name"]?.stringValue == "context size" }
      #expect(context?["given"]?.stringValue == "1024")
      #expect(context?["verdict"]?.stringValue == "differs")
      let test = try await server.request(.POST, "/api/runtime/test", body: "{}")
      #expect(test.status == 200, "\(test.body)")
      #expect((test.json?["tokens_per_second"]?.numberValue ?? 0) > 0)
      #expect(try await server.request(.GET, "/api/runtime").json?["last_test"]?["model"]?.stringValue != nil)
    }
  }
}

@Suite("Model downloads from the web app's API", .heavy)
struct ModelPullAPITests {
  @Test func aDownloadShowsProgressCanBeCancelledAndResumesToAnInstall() async throws {
    let served = try TestModels.temporaryDirectory()
    let bytes = GGUFBuilder.modelBytes(megabytes: 6, seed: 9)
    try bytes.write(to: served.appendingPathComponent("fresh.gguf"))
    try bytes.write(to: served.appendingPathComponent("other.gguf"))
    var digest = SHA256Digest()
    digest.update(bytes)
    let hash = digest.hex()
    // The same file twice: slowly (so it can be watched and cancelled) and at full speed.
    let nginx = try NginxServer(
      root: served, extraLocations: "location /slow/ { alias \(served.path)/; limit_rate 1m; }")
    // The test's download server is on this machine: refused unless private networks are allowed.
    try await LiveServer.with { server in
      let refused = try await server.request(
        .POST, "/api/models/pulls", body: #"{"url":"\#(nginx.base)/fresh.gguf","sha256":"\#(hash)"}"#)
      #expect(refused.status == 400)
      #expect(refused.json?["error"]?["param"]?.stringValue == "url")
      #expect(refused.json?["error"]?["message"]?.stringValue?.contains("loopback") == true)
      #expect(try await server.request(.GET, "/api/models/pulls").json?["pulls"]?.arrayValue?.isEmpty == true)
    }
    var allowing = ServerConfiguration(port: 0)
    allowing.allowsPrivateNetworkPulls = true
    try await LiveServer.with(configuration: allowing) { server in
      let started = try await server.request(
        .POST, "/api/models/pulls", body: #"{"url":"\#(nginx.base)/slow/fresh.gguf","sha256":"\#(hash)"}"#)
      #expect(started.status == 202, "\(started.body)")
      let id = try #require(started.json?["id"]?.stringValue)
      @Sendable func status() async throws -> JSONValue? {
        try await server.request(.GET, "/api/models/pulls").json?["pulls"]?.arrayValue?.first {
          $0["id"]?.stringValue == id
        }
      }
      try await waitUntil(seconds: 20) { (try await status()?["received"]?.numberValue ?? 0) > 500_000 }
      #expect(try await status()?["state"]?.stringValue == "running")
      #expect(try await status()?["total"]?.numberValue == Double(bytes.count))
      // Two downloads at once at most: a second runs (another file, so no lock is shared), a third waits
      // for one of them to end.
      let other = String(repeating: "1", count: 64)
      let beside = try await server.request(
        .POST, "/api/models/pulls", body: #"{"url":"\#(nginx.base)/slow/other.gguf","sha256":"\#(other)"}"#)
      #expect(beside.status == 202, "\(beside.body)")
      let third = try await server.request(
        .POST, "/api/models/pulls", body: #"{"url":"\#(nginx.base)/slow/third.gguf","sha256":"\#(other)"}"#)
      #expect(third.status == 429, "\(third.body)")
      #expect(third.json?["error"]?["code"]?.stringValue == "too_many_downloads")
      let cancelled = try await server.request(.DELETE, "/api/models/pulls/\(id)")
      #expect(cancelled.status == 200)
      try await waitUntil(seconds: 10) { try await status()?["state"]?.stringValue == "cancelled" }
      #expect(!(try await server.request(.GET, "/api/models").body.contains("fresh.gguf")))

      // Again, from the fast address: it resumes where the cancelled one stopped, and installs.
      let again = try await server.request(
        .POST, "/api/models/pulls", body: #"{"url":"\#(nginx.base)/fresh.gguf","sha256":"\#(hash)","name":"fresh"}"#)
      let second = try #require(again.json?["id"]?.stringValue)
      try await waitUntil(seconds: 30) {
        try await server.request(.GET, "/api/models/pulls").json?["pulls"]?.arrayValue?.first {
          $0["id"]?.stringValue == second
        }?["state"]?.stringValue == "done"
      }
      let pulls = try await server.request(.GET, "/api/models/pulls").json?["pulls"]?.arrayValue ?? []
      let done = try #require(pulls.first { $0["id"]?.stringValue == second })
      #expect(done["model"]?.stringValue == "fresh")
      #expect((done["resumed_from"]?.numberValue ?? 0) > 500_000)
      #expect(try await server.request(.GET, "/api/models").body.contains("fresh.gguf"))

      for (body, parameter) in [
        (#"{"url":"ftp://x/y.gguf","sha256":"\#(hash)"}"#, "url"),
        (#"{"url":"http://x/y.gguf","sha256":"abc"}"#, "sha256"),
        (#"{"url":"http://x/y.gguf","sha256":"\#(hash)","mirror":"z"}"#, "mirror"),
      ] {
        let refused = try await server.request(.POST, "/api/models/pulls", body: body)
        #expect(refused.status == 400, "\(body)")
        #expect(refused.json?["error"]?["param"]?.stringValue == parameter)
      }
      #expect(try await server.request(.DELETE, "/api/models/pulls/nope").status == 404)
    }
  }
}

@Suite("The remote server set from the web app, against a real llama-server", .heavy)
struct RemoteSettingsAPITests {
  /// The provider recorded on a web turn's answer.
  static func provider(_ server: LiveServer, session: String) async throws -> String? {
    let events = try await AppAPITests.turn(server, session: session, text: "Say hello.")
    let done = try #require(events.last { $0.name == "done" })
    return try AppAPITests.decode(done.data)["message"]?["provider"]?.stringValue
  }

  @Test func savedSettingsRouteTheNextTurnAndTheKeyIsNeverShown() async throws {
    let llama = try LlamaServer(model: TestModels.smolLM2)
    defer { llama.stop() }
    let key = "sk-hearth-remote-Zanzibar9876"
    try await LiveServer.with { server in
      let none = try await server.request(.GET, "/api/remote")
      #expect(none.json?["source"]?.stringValue == "none")
      #expect(none.json?["preference"]?.stringValue == "local")

      let saved = try await server.request(
        .PUT, "/api/remote",
        body:
          #"{"url":"\#(llama.base)","model":"smol","api_key":"\#(key)","preference":"remote","first_token_timeout":30}"#
      )
      #expect(saved.status == 200, "\(saved.body)")
      #expect(saved.json?["key"]?.stringValue == "…9876")
      #expect(saved.json?["source"]?.stringValue == "profile")
      let check = try await server.request(.POST, "/api/remote/check", body: "{}")
      #expect(check.json?["reachable"]?.boolValue == true)

      let session = try await AppAPITests.newSession(server)
      #expect(try await Self.provider(server, session: session) == "remote")
      // Another preference, the key kept because none was sent.
      let local = try await server.request(
        .PUT, "/api/remote", body: #"{"url":"\#(llama.base)","model":"smol","preference":"local"}"#)
      #expect(local.json?["key"]?.stringValue == "…9876")
      #expect(try await Self.provider(server, session: session) == "local")
      // The key belongs to its server: another port (or host, or scheme) without a key of its own has none,
      // and coming back does not bring it back.
      let base = try #require(URL(string: llama.base))
      let elsewhere = "http://\(base.host ?? "127.0.0.1"):\((base.port ?? 80) + 1)/v1"
      let moved = try await server.request(
        .PUT, "/api/remote", body: #"{"url":"\#(elsewhere)","model":"smol","preference":"local"}"#)
      #expect(moved.status == 200, "\(moved.body)")
      #expect(moved.json?["key"] == .null || moved.json?["key"] == nil, "\(moved.body)")
      let back = try await server.request(
        .PUT, "/api/remote", body: #"{"url":"\#(llama.base)","model":"smol","preference":"local"}"#)
      #expect(back.json?["key"] == .null || back.json?["key"] == nil, "\(back.body)")

      for body in [
        #"{"url":"ftp://x","preference":"auto"}"#, #"{"url":"\#(llama.base)","kind":"gemini"}"#,
        #"{"url":"\#(llama.base)","first_token_timeout":0}"#, #"{"url":"\#(llama.base)","proxy":"x"}"#,
      ] {
        #expect(try await server.request(.PUT, "/api/remote", body: body).status == 400, "\(body)")
      }
      for path in ["/api/remote", "/api/diagnostics", "/api/settings", "/api/models"] {
        #expect(!(try await server.request(.GET, path).body.contains(key)), "\(path)")
      }
      let forgotten = try await server.request(.DELETE, "/api/remote")
      #expect(forgotten.json?["source"]?.stringValue == "none")
      #expect(try await Self.provider(server, session: session) == "local")
    }
  }

  @Test func autoTurnsGoWhereTheBackgroundProbesFoundTheServerAndTheLocalModelIsLetGoAfterTheSwitch() async throws {
    let llama = try LlamaServer(model: TestModels.smolLM2)
    defer { llama.stop() }
    try await LiveServer.with { server in
      let saved = try await server.request(
        .PUT, "/api/remote",
        body: #"{"url":"\#(llama.base)","model":"smol","preference":"auto","park_local_after":1}"#)
      #expect(saved.status == 200, "\(saved.body)")
      #expect(saved.json?["park_local_after"]?.numberValue == 1)
      #expect(saved.json?["writes_from_facts"]?.boolValue == true)
      // The probes in the background, not a turn, find it reachable for its 2 s window.
      try await waitUntil(seconds: 30) {
        try await server.request(.GET, "/api/remote").json?["standing"]?.stringValue == "usable"
      }
      let session = try await AppAPITests.newSession(server)
      #expect(try await Self.provider(server, session: session) == "remote")
      // A second after the switch was confirmed, the local weights go, with no turn to trigger it; the next
      // turn is still answered (and counted) while they are away.
      try await waitUntil(seconds: 30) { server.engine.model == nil }
      let loads = try server.database.telemetry(kinds: [.load]).count
      let events = try await AppAPITests.turn(server, session: session, text: "Say hello.")
      let done = try #require(events.last { $0.name == "done" })
      #expect(try AppAPITests.decode(done.data)["message"]?["provider"]?.stringValue == "remote")
      // Nothing was loaded for it, and the page was not told of a load.
      #expect(!events.contains { $0.name == "loading" })
      #expect(try server.database.telemetry(kinds: [.load]).count == loads)
      #expect(server.engine.model == nil)
      for body in [
        #"{"url":"\#(llama.base)","park_local_after":-1}"#, #"{"url":"\#(llama.base)","park_local_after":"soon"}"#,
        #"{"url":"\#(llama.base)","writes_from_facts":"yes"}"#,
      ] {
        let refused = try await server.request(.PUT, "/api/remote", body: body)
        #expect(refused.status == 400, "\(body)")
      }
    }
  }
}

extension JSONValue {
  fileprivate var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }
}
