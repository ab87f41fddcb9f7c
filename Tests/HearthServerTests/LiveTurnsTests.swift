import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthServer

/// One truth for a chat's state on every page: what `GET /api/sessions/:id/live` tells a page that follows a chat
/// (another tab, or the same one after a reload) is what the page that asked hears.
@Suite("Following a chat from another page", .heavy)
struct LiveTurnsTests {
  private static func event(_ name: String, _ data: String = "{}") -> LiveTurns.Event {
    LiveTurns.Event(name: name, data: data)
  }

  @Test("a watcher hears the running turn from its start, then what comes, then idle; an old turn's end is ignored")
  func theRunningTurnIsReplayedAndFollowed() async throws {
    let live = LiveTurns()
    let chat = UUID()
    let first = await live.begin(chat)
    await live.send(Self.event("started"), of: first, in: chat)
    await live.send(Self.event("answer", #"{"text":"Hel"}"#), of: first, in: chat)
    var heard = await live.watch(chat, keepAlive: .seconds(3600)).makeAsyncIterator()
    #expect(await heard.next() == .event(Self.event("started")))
    #expect(await heard.next() == .event(Self.event("answer", #"{"text":"Hel"}"#)))
    await live.send(Self.event("done"), of: first, in: chat)
    await live.end(first, in: chat)
    #expect(await heard.next() == .event(Self.event("done")))
    #expect(await heard.next() == .event(LiveTurns.idle))
    // A turn that began before the last one's end arrived keeps running: the late end is not its end.
    let second = await live.begin(chat)
    await live.end(first, in: chat)
    #expect(await live.isRunning(chat))
    await live.send(Self.event("started"), of: second, in: chat)
    await live.send(Self.event("ignored"), of: first, in: chat)
    #expect(await heard.next() == .event(Self.event("started")))
    await live.end(second, in: chat)
    #expect(await heard.next() == .event(LiveTurns.idle))
    // A page that goes away is told of its turn's end; one that came back before the end is not. Neither a
    // finished turn nor a chat with none can be left.
    let third = await live.begin(chat)
    #expect(await live.leave(chat, notifying: .device(nil)))
    let thirdAway = await live.isAway(third, in: chat)
    let firstAway = await live.isAway(first, in: chat)
    #expect(thirdAway && !firstAway)
    #expect(await live.end(third, in: chat) == .device(nil))
    #expect(await heard.next() == .event(LiveTurns.idle))
    let fourth = await live.begin(chat)
    #expect(await live.leave(chat, notifying: .everyone))
    #expect(await live.comeBack(chat))
    #expect(await live.end(fourth, in: chat) == nil)
    #expect(await heard.next() == .event(LiveTurns.idle))
    let leftIdle = await live.leave(chat, notifying: .everyone)
    let cameBackToNone = await live.comeBack(UUID())
    #expect(!leftIdle && !cameBackToNone)
    // A watcher of a chat with no turn hears that at once; shutting down ends every stream.
    var quiet = await live.watch(UUID(), keepAlive: .seconds(3600)).makeAsyncIterator()
    #expect(await quiet.next() == .event(LiveTurns.idle))
    await live.closeAll()
    #expect(await heard.next() == nil)
    #expect(await quiet.next() == nil)
  }

  @Test("a watcher that stops reading is forgotten, and keep-alives come while nothing else is said")
  func watchersComeAndGo() async throws {
    let live = LiveTurns()
    let chat = UUID()
    var heard = await live.watch(chat, keepAlive: .milliseconds(20)).makeAsyncIterator()
    #expect(await heard.next() == .event(LiveTurns.idle))
    #expect(await heard.next() == .keepAlive)
  }

  /// The events of a live stream as they arrive, until `last` has come after `after`.
  private static func follow(
    _ server: LiveServer, _ session: String, until last: String = "idle", after: String = "done",
    onFirst: @Sendable (String) async throws -> Void = { _ in }
  ) async throws -> [EventParser.Event] {
    var request = HTTPClientRequest(url: server.base + "/api/sessions/\(session)/live")
    request.method = .GET
    let response = try await LiveServer.client.execute(request, timeout: .seconds(120))
    #expect(response.status.code == 200)
    var parser = EventParser()
    var events: [EventParser.Event] = []
    for try await chunk in response.body {
      for event in parser.feed(String(buffer: chunk)) {
        if events.isEmpty { try await onFirst(event.name ?? "") }
        events.append(event)
        let names = events.compactMap(\.name)
        if let end = names.firstIndex(of: after), names[end...].contains(last) { return events }
      }
    }
    return events
  }

  private static func answer(_ events: [EventParser.Event]) throws -> String? {
    let done = try #require(events.last { $0.name == "done" })
    return try JSONDecoder().decode(JSONValue.self, from: Data(done.data.utf8))["message"]?["content"]?.stringValue
  }

  @Test("another page sees the question and the answer as they are written, the same the asking page hears")
  func anotherPageSeesTheTurnAsItComes() async throws {
    let settings = ChatSettings(preset: .precise, maxTokens: 40)
    try await LiveServer.with(settings: settings) { server in
      let id = try await AppAPITests.newSession(server)
      let (asked, askedContinuation) = AsyncStream.makeStream(of: [EventParser.Event].self)
      // The other page follows the chat first; once it has heard that nothing runs, the turn is asked.
      async let watched = Self.follow(server, id) { first in
        #expect(first == "idle")
        Task {
          defer { askedContinuation.finish() }
          askedContinuation.yield(try await TurnInProcessTests.turn(server, session: id, text: "Name three colours."))
        }
      }
      let seen = try await watched
      let own = try #require(await asked.first { _ in true })
      let names = seen.compactMap(\.name)
      #expect(names.first == "idle" && names.contains("started") && names.last == "idle", "\(names)")
      #expect(try Self.answer(seen) == (try Self.answer(own)), "\(names)")
      #expect(try Self.answer(seen)?.isEmpty == false)
    }
  }

  @Test("a page that comes in during an answer hears it from its start, and how it ended")
  func aPageThatComesInLateHearsTheTurnFromItsStart() async throws {
    let settings = ChatSettings(preset: .precise, maxTokens: 160)
    try await LiveServer.with(settings: settings) { server in
      let id = try await AppAPITests.newSession(server)
      let session = try #require(UUID(uuidString: id))
      async let own = TurnInProcessTests.turn(server, session: id, text: "Write a long story about a lighthouse.")
      try await waitUntil(seconds: 30) { await server.engine.chat.isGenerating(session) }
      let seen = try await Self.follow(server, id)
      let names = seen.compactMap(\.name)
      #expect(names.first == "started", "\(names)")
      #expect(try Self.answer(seen) == (try Self.answer(try await own)))
    }
  }

  @Test("following a chat that does not exist is a 404")
  func anUnknownChatIsNotFound() async throws {
    try await LiveServer.inProcess { server in
      let reply = try await server.request(.GET, "/api/sessions/\(UUID().uuidString)/live")
      #expect(reply.status == 404, "\(reply.body)")
    }
  }
}
