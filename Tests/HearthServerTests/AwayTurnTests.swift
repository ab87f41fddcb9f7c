import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
import HearthStore
import HearthTestSupport
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing

/// An answer finished while its page was out of sight (a phone locked mid-answer): the page says it is away, its
/// connection then drops, and the answer is still written to its end and stored, and the browsers of the device
/// that asked — only those — are sent a notification that opens the chat. Its decryption by a receiver written
/// apart from Hearth is in the web tests (`push_test.py`); here the push service is a loopback one that records.
@Suite("An answer that finishes while its page is away", .heavy)
struct AwayTurnTests {
  /// A push service on loopback: it records the path and headers of every push and answers 201.
  actor PushInbox {
    struct Push: Sendable {
      var path: String
      var encoding: String?
      var bytes: Int
    }
    private(set) var received: [Push] = []

    func add(_ push: Push) { received.append(push) }

    /// Runs `body` with the inbox and its address while a loopback server feeds it.
    static func run(_ body: @Sendable (PushInbox, String) async throws -> Void) async throws {
      let inbox = PushInbox()
      let router = Router()
      router.post("/push/:name") { request, context in
        let bytes = try await request.body.collect(upTo: 1 << 16).readableBytes
        await inbox.add(
          Push(path: request.uri.path, encoding: request.headers[.contentEncoding], bytes: bytes))
        return Response(status: .created)
      }
      let (ports, found) = AsyncStream.makeStream(of: Int.self)
      let logger = Logger(label: "push-inbox") { _ in SwiftLogNoOpLogHandler() }
      let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
          found.yield(channel.localAddress?.port ?? 0)
          found.finish()
        }, logger: logger)
      let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        let port = try #require(await ports.first { _ in true })
        do {
          try await body(inbox, "http://127.0.0.1:\(port)")
        } catch {
          await group.triggerGracefulShutdown()
          throw error
        }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
      }
    }
  }

  @Test("a page that is away keeps its turn when it drops, and only its own browsers are told it finished")
  func anAwayPageKeepsItsTurnAndIsToldWhenItIsThere() async throws {
    try await PushInbox.run { inbox, base in
      try await LiveServer.with(settings: ChatSettings(preset: .precise, maxTokens: 120)) { server in
        let push = server.engine.push
        push.allowPrivateNetwork(true)
        // Two subscriptions: a paired phone's, and this page's (it holds no device secret, as a page with the key).
        let code = try server.engine.devices.makePairingCode()
        let phone = try server.engine.devices.pair(code: code.code, name: "Phone")
        let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        try await push.subscribe(
          endpoint: base + "/push/phone", receiverKey: PushAPITests.receiver, authSecret: auth,
          device: phone.device.id)
        try await push.subscribe(endpoint: base + "/push/page", receiverKey: PushAPITests.receiver, authSecret: auth)
        let id = try await AppAPITests.newSession(server)
        let session = try #require(UUID(uuidString: id))
        // With no answer being written there is nothing to stay for.
        let early = try await server.request(.POST, "/api/sessions/\(id)/away")
        #expect(early.status == 409 && early.json?["error"]?["code"]?.stringValue == "not_generating")

        let reader = Task {
          let (_, body) = try await server.stream(
            "/api/sessions/\(id)/turns", body: #"{"text":"Count from 1 to 300, one number per line."}"#)
          var reads = 0
          for try await _ in body {
            reads += 1
            if reads == 2 {
              let away = try await server.request(.POST, "/api/sessions/\(id)/away")
              #expect(away.status == 204, "\(away.body)")
            }
            // The page's connection drops, as a locked phone's does.
            if reads == 6 { break }
          }
        }
        try await reader.value
        try await waitUntil(seconds: 60) {
          try server.database.messages(in: session).last?.state != .generating
        }
        let answer = try #require(try server.database.messages(in: session).last)
        #expect(answer.state == .complete, "\(answer.state)")
        #expect(answer.generatedTokens == 120, "the answer was written to its end: \(answer.generatedTokens ?? 0)")
        try await waitUntil(seconds: 20) { await !inbox.received.isEmpty }
        let pushes = await inbox.received
        #expect(pushes.map(\.path) == ["/push/page"], "\(pushes.map(\.path))")
        #expect(pushes.first?.encoding == "aes128gcm" && (pushes.first?.bytes ?? 0) > 86)
        // Nothing is left running: the chat takes its next turn.
        #expect(await !server.engine.chat.isGenerating(session))
        let back = try await server.request(.DELETE, "/api/sessions/\(id)/away")
        #expect(back.status == 409)
      }
    }
  }
}
