import Foundation
import HearthCore
import HearthServer
import HearthStore
import HearthTestSupport
import NIOHTTP1
import Synchronization
import Testing

@testable import HearthEngine

/// The web app's turns through the application `hearth serve` builds, in process (HummingbirdTesting's router
/// client, no socket) on a scripted model: the turn's events, its cards, the line, stopping and a model that
/// cannot be made ready, in milliseconds. What only a real connection or real weights show stays in
/// `AppAPITests` and `EarlyStopBurstTests`.
@Suite("Turns through the web app's API, in process on a scripted model")
struct TurnInProcessTests {
  /// Runs a turn and returns its events (the router client hands over the whole stream at its end).
  static func turn(_ server: LiveServer, session: String, text: String) async throws -> [EventParser.Event] {
    let reply = try await server.request(
      .POST, "/api/sessions/\(session)/turns", body: JSONValue.object([("text", .string(text))]).jsonText)
    #expect(reply.status == 200, "\(reply.body)")
    var parser = EventParser()
    return parser.feed(reply.body)
  }

  static func data(_ event: EventParser.Event?) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(try #require(event).data.utf8))
  }

  @Test func aTurnStreamsItsEventsShowsItsBlockAsACardAndIsSaved() async throws {
    let block = #"[NOTE_ACTION:{"action":"create","title":"Packing list","body":"Tent, stove"}]"#
    let model = ScriptedChatModel(pieces: [
      "Here it is. ", String(block.prefix(20)), String(block.dropFirst(20)), " Done.",
    ])
    try await LiveServer.inProcess(model: model) { server in
      let id = try await AppAPITests.newSession(server)
      let events = try await Self.turn(server, session: id, text: "Tell me what you can do for my trip.")
      #expect(events.first?.name == "started")
      #expect(events.last?.name == "done")
      let answers = try events.filter { $0.name == "answer" }.map { try Self.data($0) }
      let written = answers.compactMap { $0["text"]?.stringValue }.joined()
      let shown = answers.compactMap { $0["shown"]?.stringValue }.joined()
      #expect(written == "Here it is. \(block) Done.")
      // The block is a card, not text: the server says what to show.
      #expect(shown == "Here it is.  Done.")
      // While the block is written the page is told so, in every kind's words (it says "Preparing the change…").
      #expect(answers.map { $0["writing_block"] } == [.bool(false), .bool(true), .bool(false), .bool(false)])
      let actions = try Self.data(events.first { $0.name == "actions" })["actions"]?.arrayValue ?? []
      #expect(actions.map { $0["state"]?.stringValue } == ["created"])
      // The card's words are the server's.
      #expect(actions.first?["label"]?.stringValue == "Done")
      #expect(actions.first?["narration"]?.stringValue == "Done: Note “Packing list”")
      let listed = try await server.request(.GET, "/api/actions?session=\(id)")
      #expect(listed.json?["actions"]?.arrayValue?.first?["label"]?.stringValue == "Done", "\(listed.body)")
      let done = try Self.data(events.last)["message"]
      #expect(done?["state"]?.stringValue == "complete")
      #expect(done?["action_blocks"]?.arrayValue?.count == 1)
      #expect(try server.engine.notes.list().map(\.title) == ["Packing list"])
      let stored = try server.database.messages(in: try #require(UUID(uuidString: id)))
      #expect(stored.map(\.role) == [.user, .assistant])
      #expect(stored.last?.content == written)
      // The model read the user's message in a conversation of its own.
      #expect(model.conversations.last?.last?.content.contains("for my trip") == true)
      // Read as text — the Markdown export — the answer tells what happened, never the block; the JSON export
      // keeps the answer as written.
      let markdown = try await server.request(.GET, "/api/sessions/\(id)/export?format=md")
      #expect(markdown.body.contains("Here it is. (Done: Note “Packing list”) Done."), "\(markdown.body)")
      #expect(!markdown.body.contains("NOTE_ACTION"))
      let json = try await server.request(.GET, "/api/sessions/\(id)/export?format=json")
      #expect(json.body.contains("NOTE_ACTION"))
    }
  }

  @Test func turnsWaitTheirTurnAndHearTheirPlace() async throws {
    let model = ScriptedChatModel(pieces: (1...20).map { "\($0) " }, pause: .milliseconds(20))
    try await LiveServer.inProcess(model: model) { server in
      let first = try await AppAPITests.newSession(server)
      let second = try await AppAPITests.newSession(server)
      async let firstEvents = Self.turn(server, session: first, text: "Count from 1 to 20.")
      // The first turn holds the model once the model has been asked.
      try await waitUntil(seconds: 10) { model.conversations.count == 1 }
      let secondEvents = try await Self.turn(server, session: second, text: "Say hello.")
      let queued = secondEvents.filter { $0.name == "queued" }
      #expect(try queued.first.map { try Self.data($0)["position"]?.numberValue } == 1)
      #expect(secondEvents.last?.name == "done")
      #expect(try await firstEvents.last?.name == "done")
      // One after the other: the first conversation was answered before the second was asked.
      #expect(model.conversations.count == 2)
    }
  }

  @Test func stoppingKeepsThePartialAnswer() async throws {
    let model = ScriptedChatModel(pieces: (1...300).map { "\($0)\n" }, pause: .milliseconds(10))
    try await LiveServer.inProcess(model: model) { server in
      let id = try await AppAPITests.newSession(server)
      async let events = Self.turn(server, session: id, text: "Count from 1 to 300, one number per line.")
      let sessionID = try #require(UUID(uuidString: id))
      try await waitUntil(seconds: 10) { model.conversations.count == 1 }
      try await Task.sleep(for: .milliseconds(100))
      let stop = try await server.request(.POST, "/api/sessions/\(id)/stop", body: "{}")
      #expect(stop.json?["stopped"] == .bool(true))
      let done = try Self.data(try await events.last { $0.name == "done" })["message"]
      #expect(done?["state"]?.stringValue == "cancelled")
      let content = try #require(done?["content"]?.stringValue)
      #expect(content.hasPrefix("1\n2\n"))
      #expect(!content.contains("300\n"))
      let stored = try server.database.messages(in: sessionID)
      #expect(stored.last?.state == .cancelled)
      #expect(stored.last?.content == content)
      // The session is free again at once.
      #expect(await !server.engine.chat.isGenerating(sessionID))
    }
  }

  @Test func aTurnStoppedWhileItWaitsInLineEndsStoppedWithNothingGenerated() async throws {
    let model = ScriptedChatModel(pieces: (1...150).map { "\($0) " }, pause: .milliseconds(20))
    try await LiveServer.inProcess(model: model) { server in
      let first = try await AppAPITests.newSession(server)
      let second = try await AppAPITests.newSession(server)
      let secondID = try #require(UUID(uuidString: second))
      async let firstEvents = Self.turn(server, session: first, text: "Count from 1 to 40.")
      try await waitUntil(seconds: 10) { model.conversations.count == 1 }
      async let secondEvents = Self.turn(server, session: second, text: "Write a long story.")
      // The second turn is taken in and waits for the model: Stop is heard, not dropped.
      try await waitUntil(seconds: 10) { await server.engine.chat.isGenerating(secondID) }
      let stop = try await server.request(.POST, "/api/sessions/\(second)/stop", body: "{}")
      #expect(stop.json?["stopped"] == .bool(true), "\(stop.body)")
      let events = try await secondEvents
      #expect(events.contains { $0.name == "queued" }, "\(events.map(\.name))")
      let finished = events.last(where: { $0.name == "done" })
      #expect(finished != nil, "\(events.map(\.name))")
      let done = try Self.data(finished)["message"]
      #expect(done?["state"]?.stringValue == "cancelled")
      #expect(done?["content"]?.stringValue == "")
      #expect(try await firstEvents.last?.name == "done")
      // The model was never asked the stopped turn's question, and both sessions are free.
      #expect(model.conversations.count == 1)
      let stored = try server.database.messages(in: secondID)
      #expect(stored.map(\.role) == [.user, .assistant])
      #expect(stored.last?.state == .cancelled)
      #expect(await !server.engine.chat.isGenerating(secondID))
      // The next turn in that session runs as usual.
      let again = try await Self.turn(server, session: second, text: "Say hello.")
      #expect(try Self.data(again.last { $0.name == "done" })["message"]?["state"]?.stringValue == "complete")
    }
  }

  @Test func aModelThatCannotBeMadeReadyIsTheTurnsErrorEvent() async throws {
    try await LiveServer.inProcess(model: UnreadyModel()) { server in
      let id = try await AppAPITests.newSession(server)
      let events = try await Self.turn(server, session: id, text: "Hello?")
      #expect(events.map(\.name) == ["error"])
      #expect(try Self.data(events.last)["message"]?.stringValue?.contains("weights are missing") == true)
      // Nothing was saved for a turn that never started.
      #expect(try server.database.messages(in: try #require(UUID(uuidString: id))).isEmpty)
    }
  }
}

/// A model whose preparation fails, as a local model whose file went bad does when it is loaded.
private struct UnreadyModel: ChatModel {
  struct Missing: Error, CustomStringConvertible {
    var description: String { "the weights are missing" }
  }
  let name = "unready"
  let contextSize = 4096
  func countTokens(_ messages: [ChatMessage]) throws -> Int { 0 }
  func prepare() async throws { throw Missing() }
  func generate(messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<GenerationEvent, any Error>
  {
    AsyncThrowingStream { $0.finish(throwing: Missing()) }
  }
}
