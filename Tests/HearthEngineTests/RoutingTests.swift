import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import HearthEngine

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  private let time = Mutex<Duration>(.zero)
  var now: Duration { time.withLock { $0 } }
  func advance(_ by: Duration) { time.withLock { $0 += by } }
}

@Suite("Routing rules on an injected clock", .heavy)
struct ProviderRouterTests {
  @Test func theRulesInOrder() async {
    let clock = ManualClock()
    let router = ProviderRouter(now: { clock.now })
    // Forced local, or no remote configured: local.
    #expect(await router.choose(.local, remoteConfigured: true) == .local)
    #expect(await router.choose(.auto, remoteConfigured: false) == .local)
    #expect(await router.choose(.remote, remoteConfigured: false) == .local)
    // Forced remote: remote, whatever the probes said.
    #expect(await router.choose(.remote, remoteConfigured: true) == .remote)
    // Auto: remote only after 2 s of being reachable the first time.
    #expect(await router.choose(.auto, remoteConfigured: true) == .local)
    await router.observeProbe(reachable: true)
    clock.advance(.milliseconds(1_999))
    await router.observeProbe(reachable: true)
    #expect(await router.choose(.auto, remoteConfigured: true) == .local)
    clock.advance(.milliseconds(1))
    #expect(await router.choose(.auto, remoteConfigured: true) == .remote)
    // A failure sends turns local; after a reconnect the server must stay reachable 30 s.
    await router.noteFailure()
    #expect(await router.choose(.auto, remoteConfigured: true) == .local)
    await router.observeProbe(reachable: true)
    clock.advance(.seconds(29))
    #expect(await router.choose(.auto, remoteConfigured: true) == .local)
    clock.advance(.seconds(1))
    #expect(await router.choose(.auto, remoteConfigured: true) == .remote)
    // A failed probe restarts the window.
    await router.observeProbe(reachable: false)
    await router.observeProbe(reachable: true)
    clock.advance(.seconds(10))
    #expect(await router.choose(.auto, remoteConfigured: true) == .local)
  }

  @Test func settingsComeFromTheEnvironmentAndBadOnesAreNamed() throws {
    #expect(try RemoteSettings.from(environment: [:]) == nil)
    let settings = try #require(
      try RemoteSettings.from(environment: [
        "HEARTH_REMOTE_URL": "http://host:8080/v1", "HEARTH_REMOTE_API_KEY": "sk-secret-123456789",
      ]))
    #expect(settings.kind == .openai)
    #expect(settings.maskedKey == "…6789")
    #expect(throws: RemoteError.invalidSettings("HEARTH_REMOTE_KIND claude is not openai or gemini")) {
      try RemoteSettings.from(environment: ["HEARTH_REMOTE_URL": "http://h/v1", "HEARTH_REMOTE_KIND": "claude"])
    }
    #expect(throws: RemoteError.invalidSettings("HEARTH_REMOTE_MODEL is needed for a Gemini server")) {
      try RemoteSettings.from(environment: ["HEARTH_REMOTE_URL": "http://h/v1beta", "HEARTH_REMOTE_KIND": "gemini"])
    }
    #expect(throws: RemoteError.self) { try RemoteSettings.from(environment: ["HEARTH_REMOTE_URL": "ftp://h"]) }
  }
}

@Suite("Routing between the local model and a real llama-server, on an injected clock", .heavy)
struct RoutedModelTests {
  static let options = GenerationOptions(maxNewTokens: 6, sampling: SamplingParameters(temperature: 0))
  static let question: [ChatMessage] = [.user("Say hello.")]

  func answer(_ model: RoutedChatModel) async throws -> String {
    var text = ""
    for try await event in model.generate(messages: Self.question, options: Self.options) {
      if case .token(let piece) = event { text += piece }
    }
    return text
  }

  @Test func offlineFallsBackAndComingBackWaitsForTheWindow() async throws {
    let local = try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 1024, threads: TestModels.threads))
    let server = try LlamaServer(model: TestModels.smolLM2)
    let clock = ManualClock()
    let remote = RemoteChatModel(
      settings: RemoteSettings(url: URL(string: server.base)!, kind: .openai, model: "smol"), counter: local)
    let routed = RoutedChatModel(
      local: local, remote: remote, router: ProviderRouter(now: { clock.now }), preference: .auto)

    // First contact: probed, but not trusted before 2 s.
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    clock.advance(.seconds(2))
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .remote)
    #expect((routed.lastUsage?.generatedTokens ?? 0) > 0)

    // A chat turn records who answered on the message, and the figures in the telemetry.
    let database = try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("h.sqlite").path)
    let chat = ChatService(
      database: database, model: MeasuredChatModel(routed, record: Engine.recorder(database)),
      configuration: ChatConfiguration(generation: Self.options))
    let session = try await chat.newSession()
    var final: StoredMessage?
    for await event in try await chat.send("Say hello.", to: session.id) {
      if case .finished(let message) = event { final = message }
    }
    #expect(final?.provider == .remote)
    #expect(try database.messages(in: session.id).last?.provider == .remote)
    let record = try #require(try database.telemetry(kinds: [.generation]).last)
    #expect(record.provider == .remote)
    #expect((record.generatedTokens ?? 0) > 0)

    // Offline mid-session: the turn fails before its first token and the local model answers it.
    server.stop()
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)

    // Back online: probes succeed, but the reconnect window is 30 s.
    try server.start()
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    clock.advance(.seconds(10))
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    clock.advance(.seconds(20))
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .remote)

    // Forced remote fails with the server's absence named; forced local never asks it.
    server.stop()
    let forced = RoutedChatModel(local: local, remote: remote, router: ProviderRouter(), preference: .remote)
    await #expect(throws: RemoteError.self) { _ = try await answer(forced) }
  }
}

@Suite("A server speaking Gemini's streaming wire format", .heavy)
struct GeminiWireTests {
  /// `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`: streams the words of the last user text
  /// back, or fails as asked by the text.
  static func geminiServer() -> some ApplicationProtocol {
    let router = Router()
    router.post("/v1beta/models/:call") { request, _ -> Response in
      guard request.headers[.init("x-goog-api-key")!] == "g-key", request.uri.queryParameters.get("alt") == "sse"
      else {
        return Response(status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: #"{"error":"bad key"}"#)))
      }
      let body = try await request.body.collect(upTo: 1 << 20)
      let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
      let contents = object?["contents"] as? [[String: Any]] ?? []
      let text = ((contents.last?["parts"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
      if text == "fail" {
        return Response(
          status: .internalServerError,
          body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":500,"message":"model overloaded"}}"#)))
      }
      // A server that is up but slow to start answering: 5 s for "slow", 0.2 s for "sluggish".
      let delay: Duration? = text == "slow" ? .seconds(5) : text == "sluggish" ? .milliseconds(200) : nil
      let hasSystem = object?["systemInstruction"] != nil
      let words = text.split(separator: " ").map { "\($0) " } + (hasSystem ? ["[system seen]"] : [])
      return Response(
        status: .ok, headers: [.contentType: "text/event-stream"],
        body: ResponseBody { writer in
          if let delay { try await Task.sleep(for: delay) }
          for (index, word) in words.enumerated() {
            let last = index == words.count - 1
            let chunk: [String: Any] = [
              "candidates": [
                ["content": ["role": "model", "parts": [["text": word]]], "finishReason": last ? "STOP" : NSNull()]
              ],
              "usageMetadata": ["promptTokenCount": 7, "candidatesTokenCount": index + 1],
            ]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: chunk), as: UTF8.self)
            try await writer.write(ByteBuffer(string: "data: \(json)\r\n\r\n"))
          }
          if text == "drop" { throw CancellationError() }
          try await writer.finish(nil)
        })
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
  }

  @Test func streamsTextAndReadsBothErrorShapes() async throws {
    try await Self.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let model = RemoteChatModel(settings: settings)
      var pieces: [String] = []
      var usage: GenerationUsage?
      for try await event in model.generate(
        messages: [.system("Be brief."), .user("one two three")], options: GenerationOptions(maxNewTokens: 10))
      {
        if case .token(let piece) = event { pieces.append(piece) }
        if case .usage(let figures) = event { usage = figures }
      }
      #expect(pieces == ["one ", "two ", "three ", "[system seen]"])
      #expect(usage?.promptTokens == 7)
      #expect(usage?.generatedTokens == 4)

      await #expect(throws: RemoteError.server(status: 500, message: "model overloaded")) {
        for try await _ in model.generate(messages: [.user("fail")], options: GenerationOptions()) {}
      }
      var wrongKey = settings
      wrongKey.apiKey = "other"
      await #expect(throws: RemoteError.server(status: 401, message: "bad key")) {
        for try await _ in RemoteChatModel(settings: wrongKey).generate(
          messages: [.user("x")], options: GenerationOptions())
        {}
      }
    }
  }

  @Test func aSlowFirstTokenGoesToTheLocalModel() async throws {
    try await Self.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let clock = ManualClock()
      let router = ProviderRouter(now: { clock.now })
      await router.observeProbe(reachable: true)
      clock.advance(.seconds(3))
      func routed(_ preference: ProviderPreference) -> RoutedChatModel {
        RoutedChatModel(
          local: ScriptedChatModel(name: "fixed", contextSize: 2048, pieces: ["local answer"]),
          remote: RemoteChatModel(settings: settings), router: router, preference: preference,
          firstTokenTimeout: .seconds(2))
      }
      func answer(_ model: RoutedChatModel, _ text: String) async throws -> String {
        var pieces = ""
        for try await event in model.generate(messages: [.user(text)], options: GenerationOptions()) {
          if case .token(let piece) = event { pieces += piece }
        }
        return pieces
      }
      let auto = routed(.auto)
      // Slow but within the limit: the remote server answers.
      #expect(try await answer(auto, "sluggish") == "sluggish ")
      #expect(auto.lastProvider == .remote)
      // No first token within the limit: the local model answers the same turn.
      let started = ContinuousClock.now
      #expect(try await answer(auto, "slow") == "local answer")
      #expect(auto.lastProvider == .local)
      #expect(ContinuousClock.now - started < .seconds(4))
      // Asked to use the remote server only, the turn fails and says why.
      await #expect(throws: RemoteError.unreachable("no first token within 2 s")) {
        _ = try await answer(routed(.remote), "slow")
      }
    }
  }
}

@Suite("The local model lets its weights go while a trusted remote server answers", .heavy)
struct ParkingTests {
  @Test func weightsGoAfterTheRemoteIsTrustedAndComeBackWhenItFails() async throws {
    try await GeminiWireTests.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let clock = ManualClock()
      let host = LocalModelHost(
        active: .init(
          options: LocalModelOptions(path: TestModels.smolLM2, contextSize: 512, threads: TestModels.threads)),
        loaded: nil, environment: [:], record: { _ in }, now: { clock.now })
      try await host.prepare()
      let router = ProviderRouter(now: { clock.now })
      await router.observeProbe(reachable: true)
      clock.advance(.seconds(3))
      let routed = RoutedChatModel(
        local: host,
        route: .init(
          remote: RemoteChatModel(settings: settings, counter: host), router: router, preference: .auto,
          firstTokenTimeout: .seconds(10), parkLocalAfter: .seconds(60)))
      func answer(_ text: String) async throws -> String {
        try await routed.prepare()
        var pieces = ""
        for try await event in routed.generate(
          messages: [.user(text)], options: GenerationOptions(maxNewTokens: 6, sampling: .greedy))
        {
          if case .token(let piece) = event { pieces += piece }
        }
        return pieces
      }
      // Trusted for 3 s: the weights stay.
      #expect(try await answer("one two") == "one two ")
      #expect(host.loaded != nil)
      // Trusted past a minute: the next remote answer lets them go; counting still works.
      clock.advance(.seconds(60))
      #expect(try await answer("three four") == "three four ")
      #expect(host.loaded == nil)
      #expect(host.isParked)
      #expect(try host.countTokens([.user("How many tokens is this?")]) > 5)
      try await routed.prepare()
      #expect(host.loaded == nil)
      // The remote server fails: the local model is loaded again and answers the same turn.
      let local = try await answer("fail")
      #expect(!local.isEmpty)
      #expect(routed.lastProvider == .local)
      #expect(host.loaded != nil)
      #expect(!host.isParked)
    }
  }
}
