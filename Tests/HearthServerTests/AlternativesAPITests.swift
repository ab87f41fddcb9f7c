import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthStore
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// What the server does with a chat's versions is the same whatever model writes the answers, so these run the
/// application in process on a scripted model; the web tests regenerate, edit and continue with the real one.
@Suite("Regenerate, edit, continue and versions through the web app's API, in process on a scripted model")
struct AlternativesAPITests {
  /// Runs a turn started at `path` to its end and returns its events.
  static func turn(_ server: LiveServer, _ path: String, body: String = "{}") async throws -> [EventParser.Event] {
    let reply = try await server.request(.POST, path, body: body)
    #expect(reply.status == 200, "\(path): \(reply.body)")
    var parser = EventParser()
    return parser.feed(reply.body)
  }

  /// A new message's turn, to its end.
  static func turn(_ server: LiveServer, session: String, text: String) async throws -> [EventParser.Event] {
    try await TurnInProcessTests.turn(server, session: session, text: text)
  }

  static func finished(_ events: [EventParser.Event]) throws -> JSONValue {
    let done = try #require(events.last { $0.name == "done" }, "\(events.map(\.name))")
    return try #require(try AppAPITests.decode(done.data)["message"])
  }

  static func detail(_ server: LiveServer, _ session: String) async throws -> JSONValue {
    let reply = try await server.request(.GET, "/api/sessions/\(session)")
    #expect(reply.status == 200)
    return try #require(reply.json)
  }

  static func ids(_ detail: JSONValue) -> [String] {
    detail["messages"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }

  @Test func regenerateEditAndVersionsKeepEveryAnswer() async throws {
    try await LiveServer.inProcess(model: ScriptedChatModel(pieces: ["Blue", "."])) { server in
      let session = try await AppAPITests.newSession(server)
      let opening = try await Self.turn(server, session: session, text: "Name a colour.")
      // The turn's last event says what it made of the chat: its title from the first message, no versions yet.
      let openingDone = try AppAPITests.decode(try #require(opening.last { $0.name == "done" }).data)
      #expect(openingDone["session"]?["title"]?.stringValue == "Name a colour.", "\(openingDone)")
      #expect(openingDone["forks"]?.arrayValue?.isEmpty == true)
      let before = try await Self.detail(server, session)
      let (question, first) = (Self.ids(before)[0], Self.ids(before)[1])
      #expect(before["forks"]?.arrayValue?.isEmpty == true)

      let events = try await Self.turn(server, "/api/sessions/\(session)/messages/\(first)/regenerate")
      #expect(events.map(\.name).first == "started")
      let second = try #require(try Self.finished(events)["id"]?.stringValue)
      let after = try await Self.detail(server, session)
      #expect(Self.ids(after) == [question, second])
      // The regenerate's own `done` holds the versions the chat now has, as the chat's detail does.
      let regenerated = try AppAPITests.decode(try #require(events.last { $0.name == "done" }).data)
      #expect(regenerated["forks"] == after["forks"], "\(regenerated)")
      let fork = try #require(after["forks"]?.arrayValue?.first)
      #expect(after["forks"]?.arrayValue?.count == 1)
      #expect([fork["position"], fork["count"], fork["current"]].map { $0?.numberValue } == [1, 2, 1])

      // Version 1 again: the first answer is back, in its place.
      let shown = try await server.request(.PUT, "/api/sessions/\(session)/forks/1", body: #"{"current":0}"#)
      #expect(shown.status == 200, "\(shown.body)")
      #expect(shown.json.map(Self.ids) == [question, first])
      #expect(shown.json?["forks"]?.arrayValue?.first?["current"]?.numberValue == 0)

      // Editing the question forks the chat before both answers; the old path keeps its own fork.
      let edited = try await Self.turn(
        server, "/api/sessions/\(session)/messages/\(question)/edit", body: #"{"text":"Name a fruit."}"#)
      #expect(try Self.finished(edited)["state"]?.stringValue == "complete")
      let now = try await Self.detail(server, session)
      #expect(now["messages"]?.arrayValue?.first?["content"]?.stringValue == "Name a fruit.")
      #expect(now["forks"]?.arrayValue?.count == 1)
      let back = try await server.request(.PUT, "/api/sessions/\(session)/forks/0", body: #"{"current":0}"#)
      #expect(back.json.map(Self.ids) == [question, first])
      #expect(back.json?["forks"]?.arrayValue?.count == 2)

      // The export carries every version; the Markdown says which one it shows.
      let export = try await server.request(.GET, "/api/sessions/\(session)/export")
      #expect(export.json?["format"]?.numberValue == 2)
      #expect(export.body.contains(second) && export.body.contains("Name a fruit."))
      let markdown = try await server.request(.GET, "/api/sessions/\(session)/export?format=md")
      #expect(markdown.body.contains("Version 1 of 2"))
    }
  }

  @Test func anAnswerCutShortContinuesInPlace() async throws {
    // An answer that ends at its length limit, twelve pieces long each time.
    let model = ScriptedChatModel(pieces: (1...12).map { "word\($0) " }, ending: .maxTokens)
    try await LiveServer.inProcess(model: model) { server in
      let session = try await AppAPITests.newSession(server)
      let first = try Self.finished(
        try await Self.turn(server, session: session, text: "Tell me a long story about a brave fox."))
      #expect(first["stop_reason"]?.stringValue == "max_tokens")
      let id = try #require(first["id"]?.stringValue)
      let text = try #require(first["content"]?.stringValue)

      let events = try await Self.turn(server, "/api/sessions/\(session)/messages/\(id)/continue")
      let added = events.filter { $0.name == "answer" }.compactMap {
        try? AppAPITests.decode($0.data)["text"]?.stringValue
      }
      let whole = try Self.finished(events)
      #expect(whole["id"]?.stringValue == id)
      #expect(whole["content"]?.stringValue == text + added.joined())
      #expect(whole["generated_tokens"]?.numberValue == 24)
      #expect(Self.ids(try await Self.detail(server, session)).count == 2)
      // The model went on from the answer as it stood: its own words last in the conversation it read.
      #expect(model.conversations.last?.last?.content == text)
    }
  }

  @Test func badRequestsAreRefusedByName() async throws {
    try await LiveServer.inProcess(model: ScriptedChatModel(pieces: ["Hi", "."])) { server in
      let session = try await AppAPITests.newSession(server)
      _ = try await Self.turn(server, session: session, text: "Hello")
      let ids = Self.ids(try await Self.detail(server, session))
      let base = "/api/sessions/\(session)/messages"
      let unknownField = try await server.request(.POST, "\(base)/\(ids[1])/regenerate", body: #"{"seed":4}"#)
      #expect(unknownField.status == 400)
      #expect(unknownField.json?["error"]?["param"]?.stringValue == "seed")
      let editField = try await server.request(.POST, "\(base)/\(ids[0])/edit", body: #"{"text":"Hi","role":"user"}"#)
      #expect(editField.json?["error"]?["param"]?.stringValue == "role")
      #expect(try await server.request(.POST, "\(base)/\(ids[0])/regenerate", body: "").status == 400)
      #expect(try await server.request(.POST, "\(base)/\(ids[1])/edit", body: #"{"text":"Hi"}"#).status == 400)
      #expect(try await server.request(.POST, "\(base)/\(ids[0])/edit", body: #"{"text":"  "}"#).status == 400)
      #expect(try await server.request(.POST, "\(base)/\(UUID().uuidString)/regenerate").status == 404)
      #expect(try await server.request(.POST, "\(base)/not-an-id/continue").status == 404)
      let finished = try await server.request(.POST, "\(base)/\(ids[1])/continue")
      #expect([409, 200].contains(finished.status))
      let forks = "/api/sessions/\(session)/forks"
      #expect(try await server.request(.PUT, "\(forks)/1", body: #"{"current":0}"#).status == 404)
      #expect(try await server.request(.PUT, "\(forks)/x", body: #"{"current":0}"#).status == 404)
      #expect(try await server.request(.PUT, "\(forks)/1", body: #"{"current":-1}"#).status == 400)
      #expect(try await server.request(.PUT, "\(forks)/1", body: #"{"current":0,"keep":true}"#).status == 400)
      // Nothing of that changed the chat.
      #expect(Self.ids(try await Self.detail(server, session)).prefix(2) == ids.prefix(2))
    }
  }

  @Test func aRegenerateInOneChatWaitsInLineWhileAnotherAnswers() async throws {
    let model = ScriptedChatModel(pause: .milliseconds(20)) { conversation in
      conversation.last?.content.contains("Count") == true ? (1...30).map { "\($0) " } : ["Hello", "."]
    }
    try await LiveServer.inProcess(model: model) { server in
      let busy = try await AppAPITests.newSession(server)
      let other = try await AppAPITests.newSession(server)
      _ = try await Self.turn(server, session: other, text: "Say hello.")
      let answer = Self.ids(try await Self.detail(server, other))[1]
      async let long = Self.turn(server, session: busy, text: "Count from 1 to 30.")
      // The first chat holds the model once the model has been asked.
      try await waitUntil(seconds: 10) { model.conversations.count == 2 }
      // The busy chat refuses a second turn; the other chat's regenerate waits its turn and is answered.
      let busyAnswer = try #require(Self.ids(try await Self.detail(server, busy)).last)
      let refused = try await server.request(.POST, "/api/sessions/\(busy)/messages/\(busyAnswer)/regenerate")
      #expect(refused.status == 409)
      let events = try await Self.turn(server, "/api/sessions/\(other)/messages/\(answer)/regenerate")
      #expect(events.contains { $0.name == "queued" })
      #expect(try Self.finished(events)["state"]?.stringValue == "complete")
      #expect(try await long.last?.name == "done")
      #expect(try await Self.detail(server, other)["forks"]?.arrayValue?.count == 1)
    }
  }
}
