import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Chat templates through the API, in process")
struct TemplateAPITests {
  static let instructions = "You are a packing list maker. Answer with a list and nothing else."

  @Test func templatesAreAddedChangedAndRefusedByTheirRules() async throws {
    try await LiveServer.inProcess { server in
      func error(_ reply: LiveServer.Reply) -> String? { reply.json?["error"]?["param"]?.stringValue }
      let unnamed = try await server.request(.POST, "/api/templates", body: #"{"first_message":"Hi"}"#)
      #expect(unnamed.status == 400 && error(unnamed) == "name")
      let empty = try await server.request(.POST, "/api/templates", body: #"{"name":"Empty","instructions":"  "}"#)
      #expect(empty.status == 400 && error(empty) == "instructions", "\(empty.body)")
      let unknown = try await server.request(.POST, "/api/templates", body: #"{"name":"X","prompt":"y"}"#)
      #expect(unknown.status == 400 && error(unknown) == "prompt")
      let long = String(repeating: "x", count: ChatTemplate.maximumInstructionsLength + 1)
      let tooLong = try await server.request(.POST, "/api/templates", body: #"{"name":"L","instructions":"\#(long)"}"#)
      #expect(tooLong.status == 400 && error(tooLong) == "instructions")

      let made = try await server.request(
        .POST, "/api/templates",
        body: #"{"name":" Packing ","instructions":"\#(Self.instructions)","first_message":"Pack for a weekend."}"#)
      #expect(made.status == 201, "\(made.body)")
      #expect(made.json?["name"]?.stringValue == "Packing")
      let id = try #require(made.json?["id"]?.stringValue)
      let twin = try await server.request(.POST, "/api/templates", body: #"{"name":"packing","first_message":"x"}"#)
      #expect(twin.status == 409, "\(twin.body)")

      let changed = try await server.request(
        .PATCH, "/api/templates/\(id)", body: #"{"first_message":"Pack for a week in the hills."}"#)
      #expect(changed.json?["first_message"]?.stringValue == "Pack for a week in the hills.")
      #expect(changed.json?["instructions"]?.stringValue == Self.instructions)
      let byName = try await server.request(.GET, "/api/templates/PACKING")
      #expect(byName.json?["id"]?.stringValue == id)
      // Clearing both leaves nothing to start from: refused, and nothing is written.
      let cleared = try await server.request(
        .PATCH, "/api/templates/\(id)", body: #"{"instructions":null,"first_message":""}"#)
      #expect(cleared.status == 400)
      #expect(try await server.request(.GET, "/api/templates/\(id)").json?["instructions"] != nil)
      let list = try await server.request(.GET, "/api/templates")
      #expect(list.json?["templates"]?.arrayValue?.count == 1)

      #expect(try await server.request(.DELETE, "/api/templates/\(id)").status == 204)
      #expect(try await server.request(.GET, "/api/templates/\(id)").status == 404)
      #expect(try await server.request(.DELETE, "/api/templates/\(id)").status == 404)
    }
  }

  @Test func aChatStartedFromATemplateIsAnsweredByItsInstructionsAndKeepsThem() async throws {
    let model = ScriptedChatModel(pieces: ["- socks"])
    try await LiveServer.inProcess(model: model) { server in
      let made = try await server.request(
        .POST, "/api/templates", body: #"{"name":"Packing","instructions":"\#(Self.instructions)"}"#)
      let template = try #require(made.json?["id"]?.stringValue)
      let started = try await server.request(.POST, "/api/sessions", body: #"{"template":"Packing"}"#)
      #expect(started.status == 201, "\(started.body)")
      #expect(started.json?["instructions"]?.stringValue == Self.instructions)
      let session = try #require(started.json?["id"]?.stringValue)

      // The system prompt of the latest generation that answered `question` (a chat's title is asked apart).
      func systemPrompt(answering question: String) -> String? {
        model.conversations.last { $0.last?.content.contains(question) == true }?.first { $0.role == .system }?.content
      }
      let turn = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"Write a poem about the sea."}"#)
      #expect(turn.status == 200)
      let prompt = try #require(systemPrompt(answering: "Write a poem about the sea."))
      #expect(prompt.hasPrefix(Self.instructions), "\(prompt.prefix(200))")
      #expect(!prompt.contains("You are Hearth"))

      // The chat keeps its instructions when the template is changed or goes.
      #expect(try await server.request(.DELETE, "/api/templates/\(template)").status == 204)
      let detail = try await server.request(.GET, "/api/sessions/\(session)")
      #expect(detail.json?["instructions"]?.stringValue == Self.instructions)
      _ = try await server.request(.POST, "/api/sessions/\(session)/turns", body: #"{"text":"And one about hills."}"#)
      #expect(systemPrompt(answering: "And one about hills.")?.hasPrefix(Self.instructions) == true)

      // Another chat is Hearth's own.
      let plain = try await AppAPITests.newSession(server)
      _ = try await server.request(.POST, "/api/sessions/\(plain)/turns", body: #"{"text":"Hello"}"#)
      #expect(systemPrompt(answering: "Hello")?.hasPrefix(Self.instructions) == false)
      #expect(try await server.request(.GET, "/api/sessions/\(plain)").json?["instructions"] == nil)

      let missing = try await server.request(.POST, "/api/sessions", body: #"{"template":"Nope"}"#)
      #expect(missing.status == 404, "\(missing.body)")
      _ = try await server.request(.POST, "/api/personas", body: #"{"name":"Ada"}"#)
      _ = try await server.request(.POST, "/api/templates", body: #"{"name":"Other","first_message":"Hi"}"#)
      let both = try await server.request(.POST, "/api/sessions", body: #"{"template":"Other","persona":"Ada"}"#)
      #expect(both.status == 400 && both.json?["error"]?["param"]?.stringValue == "template", "\(both.body)")
    }
  }
}
