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

  /// A router's sleep on this clock: the short waits (the 2 s stability window) pass at once and move the
  /// clock; the first-token watchdog's longer ones are real, so a stream is not cut the moment it starts.
  func sleep(_ duration: Duration) async throws {
    if duration <= .seconds(5) {
      advance(duration)
    } else {
      try await Task.sleep(for: duration)
    }
  }
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

  @Test func theFirstWindowCanBeWaitedOutAndTheSwitchIsTimedFromTheFirstRemoteAnswer() async {
    let clock = ManualClock()
    let router = ProviderRouter(now: { clock.now })
    #expect(await router.standing == .unknown)
    #expect(await !router.hasObserved)
    #expect(await router.firstWindowLeft == nil)
    // A first probe that fails: nothing to wait for, and still the short window once it answers.
    await router.observeProbe(reachable: false)
    #expect(await router.standing == .unreachable)
    #expect(await router.hasObserved)
    await router.observeProbe(reachable: true)
    #expect(await router.standing == .proving)
    clock.advance(.milliseconds(500))
    #expect(await router.firstWindowLeft == .milliseconds(1_500))
    #expect(await router.contactIsFresh)
    clock.advance(.milliseconds(1_500))
    #expect(await router.firstWindowLeft == nil)
    #expect(await router.standing == .usable)
    // Three seconds without a word: a turn probes again before it commits.
    clock.advance(.seconds(2))
    #expect(await !router.contactIsFresh)
    #expect(await router.answeringRemotelyFor == nil)
    #expect(await router.choose(.auto, remoteConfigured: true) == .remote)
    await router.observeSuccess()
    clock.advance(.seconds(30))
    #expect(await router.answeringRemotelyFor == .seconds(30))
    // After a failure the 30 s window is never waited out by a turn, and the switch must be confirmed again.
    await router.noteFailure()
    #expect(await router.answeringRemotelyFor == nil)
    await router.observeProbe(reachable: true)
    #expect(await router.firstWindowLeft == nil)
    #expect(await router.standing == .proving)
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
    let waited = Mutex<[Duration]>([])
    // Waiting moves the test's clock: the first-connect window passes at once.
    let routed = RoutedChatModel(
      local: local,
      route: .init(remote: remote, router: ProviderRouter(now: { clock.now }), preference: .auto),
      sleep: { duration in
        if duration <= .seconds(5) { waited.withLock { $0.append(duration) } }
        try await clock.sleep(duration)
      })

    // First contact (a one-shot command): probed, the rest of the 2 s window waited out, probed again, and
    // the remote server answers.
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .remote)
    #expect(waited.withLock { $0 } == [.seconds(2)])
    #expect((routed.lastUsage?.generatedTokens ?? 0) > 0)
    #expect(await routed.remoteStanding() == .usable)

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

    // Back online: the background probes hear it, but the reconnect window is 30 s and no turn waits it out.
    try server.start()
    #expect(await routed.watchOnce() == .seconds(1))
    #expect(await routed.remoteStanding() == .proving)
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    clock.advance(.seconds(10))
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    clock.advance(.seconds(20))
    #expect(await routed.watchOnce() == .seconds(10))
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .remote)
    #expect(waited.withLock { $0 } == [.seconds(2)])

    // Gone while trusted: the health probe before the turn finds it away (the last contact is old), and the
    // turn is local without trying the server.
    clock.advance(.seconds(5))
    server.stop()
    #expect(try await !answer(routed).isEmpty)
    #expect(routed.lastProvider == .local)
    #expect(await routed.remoteStanding() == .unreachable)
    #expect(await routed.watchOnce() == .seconds(2))

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
    // The health probe's listing.
    router.get("/v1beta/models") { request, _ -> Response in
      let allowed = request.headers[.init("x-goog-api-key")!] == "g-key"
      return Response(
        status: allowed ? .ok : .unauthorized,
        body: .init(byteBuffer: ByteBuffer(string: allowed ? #"{"models":[]}"# : #"{"error":"bad key"}"#)))
    }
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
      // Asked "slowly" with a system prompt: each word half a second after the last, ten times over.
      let drips = hasSystem && text.contains("slowly")
      return Response(
        status: .ok, headers: [.contentType: "text/event-stream"],
        body: ResponseBody { writer in
          if let delay { try await Task.sleep(for: delay) }
          for (index, word) in (drips ? Array(repeating: words, count: 10).flatMap { $0 } : words).enumerated() {
            if drips { try await Task.sleep(for: .milliseconds(500)) }
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

  @Test func aRemoteAnswerCutAtItsTimeLimitKeepsWhatCameAndSaysItTimedOut() async throws {
    try await Self.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let local = ScriptedChatModel(name: "local", pieces: ["local answer"])
      let routed = RoutedChatModel(
        local: local,
        route: .init(remote: RemoteChatModel(settings: settings), router: ProviderRouter(), preference: .remote))
      var options = GenerationOptions()
      options.timeout = .milliseconds(1_200)
      var pieces = ""
      var ends: [StopReason] = []
      let clock = ContinuousClock()
      let started = clock.now
      for try await event in routed.generate(
        messages: [.system("Be brief."), .user("say it slowly")], options: options)
      {
        if case .token(let piece) = event { pieces += piece }
        if case .done(let reason) = event { ends.append(reason) }
      }
      #expect(clock.now - started < .seconds(3))
      #expect(ends == [.timeout])
      #expect(pieces.hasPrefix("say it "), "\(pieces)")
      #expect(!pieces.contains("[system seen]"))
      #expect(local.conversations.isEmpty)
    }
  }

  @Test func anAnswerThatNeedsACapableModelIsNeverHandedToTheSmallLocalOne() async throws {
    try await Self.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let local = ScriptedChatModel(name: "tiny", contextSize: 2048, parameterCount: 135_000_000, pieces: ["made up"])
      let clock = ManualClock()
      let routed = RoutedChatModel(
        local: local,
        route: .init(
          remote: RemoteChatModel(settings: settings), router: ProviderRouter(now: { clock.now }),
          preference: .auto),
        sleep: { try await clock.sleep($0) })
      var options = GenerationOptions()
      options.needsCapableModel = true
      func answer(_ text: String) async throws -> String {
        var pieces = ""
        for try await event in routed.generate(messages: [.user(text)], options: options) {
          if case .token(let piece) = event { pieces += piece }
        }
        return pieces
      }
      // Not heard of yet: no one may write it. Heard and proving itself: a turn would wait for it, so it may.
      #expect(await !routed.writesFromFacts())
      _ = await routed.watchOnce()
      #expect(await routed.writesFromFacts())
      #expect(try await answer("from the facts") == "from the facts ")
      // It fails before its first token: the turn fails (the caller shows the facts) rather than fall back.
      await #expect(throws: RemoteError.server(status: 500, message: "model overloaded")) {
        _ = try await answer("fail")
      }
      // Away now, and not trusted again for 30 s: no one here may write it.
      #expect(await !routed.writesFromFacts())
      await #expect(throws: RemoteError.self) { _ = try await answer("from the facts") }
      #expect(local.conversations.isEmpty)
      // An answer that needs no such model still falls back.
      #expect(try await routed.wholeAnswer(to: [.user("hello")], options: GenerationOptions()) == "made up")
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

@Suite("The background watch of the remote server", .heavy)
struct RemoteWatchTests {
  @Test func theWeightsGoThirtySecondsAfterTheSwitchWithNoTurnAndComeBackWhenTheServerGoes() async throws {
    try await GeminiWireTests.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      #expect(settings.parkLocalAfter == .seconds(30))
      let clock = ManualClock()
      let host = LocalModelHost(
        active: .init(
          options: LocalModelOptions(path: TestModels.smolLM2, contextSize: 512, threads: TestModels.threads)),
        loaded: nil, environment: [:], record: { _ in }, now: { clock.now })
      try await host.prepare()
      let routed = RoutedChatModel(
        local: host,
        route: .init(
          remote: RemoteChatModel(settings: settings, counter: host), router: ProviderRouter(now: { clock.now }),
          preference: .auto, firstTokenTimeout: .seconds(10), parkLocalAfter: settings.parkLocalAfter),
        sleep: { try await clock.sleep($0) })
      // Heard, proving itself (probed again in a second), then usable (every 10 s) — before any turn.
      #expect(await routed.remoteStanding() == .unknown)
      #expect(await routed.watchOnce() == .seconds(1))
      #expect(await routed.remoteStanding() == .proving)
      clock.advance(.seconds(2))
      #expect(await routed.watchOnce() == .seconds(10))
      #expect(await routed.remoteStanding() == .usable)
      // Usable but never used: the switch is not confirmed, so the weights stay however long it lasts.
      clock.advance(.seconds(120))
      _ = await routed.watchOnce()
      #expect(host.loaded != nil)
      // One remote answer confirms the switch; 30 s on, the watch lets the weights go with no turn.
      var pieces = ""
      for try await event in routed.generate(
        messages: [.user("one two")], options: GenerationOptions(maxNewTokens: 6, sampling: .greedy))
      {
        if case .token(let piece) = event { pieces += piece }
      }
      #expect(pieces == "one two ")
      #expect(routed.lastProvider == .remote)
      clock.advance(.seconds(29))
      _ = await routed.watchOnce()
      #expect(host.loaded != nil)
      clock.advance(.seconds(1))
      _ = await routed.watchOnce()
      #expect(host.loaded == nil)
      #expect(host.isParked)
      #expect(try host.countTokens([.user("Still counted?")]) > 3)
      // The server is gone (here: the route now names a port nothing listens on): the watch hears it and
      // loads the weights again before a turn needs them.
      var gone = settings
      gone.url = URL(string: "http://127.0.0.1:9/v1beta")!
      routed.reroute(
        .init(
          remote: RemoteChatModel(settings: gone, counter: host), router: ProviderRouter(now: { clock.now }),
          preference: .auto, parkLocalAfter: gone.parkLocalAfter))
      #expect(await routed.watchOnce() == .seconds(2))
      #expect(await routed.remoteStanding() == .unreachable)
      try await waitUntil(seconds: 60) { host.loaded != nil }
      #expect(!host.isParked)
    }
  }
}
