import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Personas through the web app's API, in process on a scripted model")
struct PersonaAPITests {
  static let captain =
    #"{"name":"Captain","system_prompt":"You are Captain Wren, a retired sea captain. Speak plainly.","#
    + #""backstory":"I sailed the Baltic for thirty years on the Petrel.","preset":"creative"}"#

  @Test func aPersonaIsAddedFoundByNameOrIdChangedAndRefusedNamingTheField() async throws {
    try await LiveServer.inProcess(model: ScriptedChatModel(pieces: ["Ahoy."])) { server in
      let added = try await server.request(.POST, "/api/personas", body: Self.captain)
      #expect(added.status == 201, "\(added.body)")
      let id = try #require(added.json?["id"]?.stringValue)
      #expect(added.json?["preset"]?.stringValue == "creative")
      #expect(added.json?["model"] == .null || added.json?["model"] == nil)
      let byName = try await server.request(.GET, "/api/personas/captain")
      #expect(byName.json?["id"]?.stringValue == id)
      #expect(try await server.request(.GET, "/api/personas/\(id)").status == 200)

      let taken = try await server.request(.POST, "/api/personas", body: #"{"name":"CAPTAIN"}"#)
      #expect(taken.status == 409)
      #expect(taken.json?["error"]?["code"]?.stringValue == "persona_name_taken")
      let refusals: [(String, String)] = [
        (#"{"name":"Ada","preset":"wild"}"#, "preset"), (#"{"name":"Ada","preset":"custom"}"#, "preset"),
        (#"{"name":"Ada","model":"no-such-model"}"#, "model"),
        (#"{"name":"\#(String(repeating: "a", count: 61))"}"#, "name"), (#"{"name":"  "}"#, "name"),
        (#"{"backstory":"x"}"#, "name"),
        (#"{"name":"Ada","system_prompt":"\#(String(repeating: "a", count: 4001))"}"#, "system_prompt"),
      ]
      for (body, field) in refusals {
        let refused = try await server.request(.POST, "/api/personas", body: body)
        #expect(refused.status == 400, "\(body) → \(refused.status)")
        #expect(refused.json?["error"]?["param"]?.stringValue == field, "\(body) → \(refused.body)")
      }
      // The model this server answers with is one a persona may name.
      let named = try await server.request(.POST, "/api/personas", body: #"{"name":"Ada","model":"scripted"}"#)
      #expect(named.status == 201, "\(named.body)")

      let changed = try await server.request(
        .PATCH, "/api/personas/\(id)", body: #"{"preset":null,"backstory":"I kept bees after the sea."}"#)
      #expect(changed.status == 200, "\(changed.body)")
      #expect(changed.json?["preset"] == .null || changed.json?["preset"] == nil)
      #expect(changed.json?["system_prompt"]?.stringValue?.hasPrefix("You are Captain Wren") == true)
      #expect(changed.json?["created_at"] == added.json?["created_at"])
      // A bad change writes nothing.
      let badChange = try await server.request(.PATCH, "/api/personas/\(id)", body: #"{"name":"ada"}"#)
      #expect(badChange.status == 409)
      #expect(try await server.request(.GET, "/api/personas/\(id)").json?["name"]?.stringValue == "Captain")
      // Null clears what may be empty, and is refused for what may not.
      let ada = try await server.request(.PATCH, "/api/personas/Ada", body: #"{"model":null}"#)
      #expect(ada.status == 200 && ada.json?["model"] == nil, "\(ada.body)")
      let nullName = try await server.request(.PATCH, "/api/personas/Ada", body: #"{"name":null}"#)
      #expect(nullName.status == 400 && nullName.json?["error"]?["param"]?.stringValue == "name", "\(nullName.body)")
      let listed = try await server.request(.GET, "/api/personas")
      #expect(listed.json?["personas"]?.arrayValue?.map { $0["name"]?.stringValue } == ["Ada", "Captain"])
      #expect(try await server.request(.DELETE, "/api/personas/nobody").status == 404)
    }
  }

  @Test func aChatStartedWithAPersonaIsAnsweredAsItUntilThePersonaGoes() async throws {
    let model = ScriptedChatModel(pieces: ["Ahoy."])
    try await LiveServer.inProcess(model: model) { server in
      let added = try await server.request(.POST, "/api/personas", body: Self.captain)
      let personaID = try #require(added.json?["id"]?.stringValue)
      let before = try await server.request(.GET, "/api/sessions").json?["sessions"]?.arrayValue?.count
      let unknown = try await server.request(.POST, "/api/sessions", body: #"{"persona":"Nobody"}"#)
      #expect(unknown.status == 404, "\(unknown.body)")
      #expect(try await server.request(.GET, "/api/sessions").json?["sessions"]?.arrayValue?.count == before)

      let created = try await server.request(.POST, "/api/sessions", body: #"{"persona":"captain"}"#)
      #expect(created.status == 201, "\(created.body)")
      #expect(created.json?["persona"]?["name"]?.stringValue == "Captain")
      let session = try #require(created.json?["id"]?.stringValue)
      let detail = try await server.request(.GET, "/api/sessions/\(session)")
      #expect(detail.json?["persona"]?["name"]?.stringValue == "Captain")
      #expect(detail.json?["persona"]?["id"]?.stringValue == personaID)

      _ = try await TurnInProcessTests.turn(server, session: session, text: "Where did you sail?")
      let system = try #require(model.conversations.last?.first)
      #expect(system.role == .system)
      #expect(system.content.hasPrefix("You are Captain Wren"), "\(system.content)")
      #expect(system.content.contains("thirty years on the Petrel"))
      #expect(!system.content.contains("You are Hearth"))
      // Its preset's sampling, not the saved settings' (precise, in these tests).
      let creative = ChatSettings.Preset.creative.sampling
      #expect(model.options.last?.sampling.temperature == creative.temperature)
      #expect(model.options.last?.sampling.topK == creative.topK)

      // Another chat is Hearth's own.
      let plain = try await AppAPITests.newSession(server)
      _ = try await TurnInProcessTests.turn(server, session: plain, text: "Hello")
      #expect(model.conversations.last?.first?.content.hasPrefix("You are Hearth") == true)
      #expect(model.options.last?.sampling.temperature == 0)

      // Without its own instructions a persona is still called by its name.
      let cleared = try await server.request(.PATCH, "/api/personas/\(personaID)", body: #"{"system_prompt":null}"#)
      #expect(cleared.status == 200)
      _ = try await TurnInProcessTests.turn(server, session: session, text: "And now?")
      #expect(
        model.conversations.last?.first?.content.hasPrefix("You are Captain, a helpful") == true,
        "\(model.conversations.last?.first?.content ?? "")")

      // Gone, the persona leaves its chat to Hearth, with every message kept.
      #expect(try await server.request(.DELETE, "/api/personas/\(personaID)").status == 204)
      let after = try await server.request(.GET, "/api/sessions/\(session)")
      #expect(after.json?["persona"] == .null || after.json?["persona"] == nil)
      #expect(after.json?["messages"]?.arrayValue?.count == 4)
      _ = try await TurnInProcessTests.turn(server, session: session, text: "Who are you?")
      #expect(model.conversations.last?.first?.content.hasPrefix("You are Hearth") == true)
    }
  }
}
