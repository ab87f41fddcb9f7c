import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Pinned prompts and replies through the web app's API, in process")
struct PromptAPITests {
  @Test func promptsArePinnedEditedMovedAndUnpinnedByID() async throws {
    try await LiveServer.inProcess { server in
      let first = try await server.request(.POST, "/api/prompts", body: #"{"name":"Review","text":"What did I do?"}"#)
      #expect(first.status == 201, "\(first.body)")
      let second = try await server.request(.POST, "/api/prompts", body: #"{"name":"Plan","text":"Plan my day."}"#)
      let id = try #require(second.json?["id"]?.stringValue)
      let moved = try await server.request(.POST, "/api/prompts/\(id)/move", body: #"{"position":1}"#)
      #expect(moved.json?["prompts"]?.arrayValue?.map { $0["name"]?.stringValue } == ["Plan", "Review"])
      let edited = try await server.request(.PUT, "/api/prompts/\(id)", body: #"{"text":"Plan my whole day."}"#)
      #expect(edited.json?["text"]?.stringValue == "Plan my whole day.")
      #expect(try await server.request(.POST, "/api/prompts", body: #"{"name":"plan","text":"x"}"#).status == 409)
      #expect(try await server.request(.POST, "/api/prompts", body: #"{"name":"x"}"#).status == 400)
      #expect(
        try await server.request(.POST, "/api/prompts", body: #"{"name":"x","text":"y","icon":"z"}"#).status == 400)
      #expect(try await server.request(.POST, "/api/prompts/\(id)/move", body: #"{"position":5}"#).status == 400)
      #expect(try await server.request(.DELETE, "/api/prompts/\(id)").status == 204)
      let listed = try await server.request(.GET, "/api/prompts")
      #expect(listed.json?["prompts"]?.arrayValue?.map { $0["name"]?.stringValue } == ["Review"])
      #expect(try await server.request(.DELETE, "/api/prompts/\(id)").status == 404)
    }
  }

  @Test func aReplyQuotesTheMessageItAnswersInTheTurn() async throws {
    let model = ScriptedChatModel(pieces: ["Paris."])
    try await LiveServer.inProcess(model: model) { server in
      let session = try await AppAPITests.newSession(server)
      _ = try await TurnInProcessTests.turn(server, session: session, text: "Capital of France?")
      let messages = try server.engine.sessions.messages(in: try #require(UUID(uuidString: session)))
      let answer = try #require(messages.last)
      let reply = try await server.request(
        .POST, "/api/sessions/\(session)/turns",
        body: #"{"text":"Are you sure?","reply_to":"\#(answer.id.uuidString)"}"#)
      #expect(reply.status == 200)
      let stored = try server.engine.sessions.messages(in: try #require(UUID(uuidString: session)))
      #expect(stored.map(\.content).contains("> Paris.\n\nAre you sure?"))
      // What the model read holds the quote.
      #expect(model.conversations.last?.last?.content.contains("> Paris.") == true)
      let unknown = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"x","reply_to":"\#(UUID().uuidString)"}"#)
      #expect(unknown.status == 400)
      #expect(unknown.body.contains("reply_to"))
      let bad = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"x","reply_to":"nope"}"#)
      #expect(bad.status == 400)
    }
  }
}
