import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Every chat exported at once, in process")
struct ExportAllTests {
  @Test func everyChatComesOutAsJSONTheImportReadsAndAsMarkdown() async throws {
    let model = ScriptedChatModel(pieces: ["Paris."])
    try await LiveServer.inProcess(model: model) { server in
      for question in ["Capital of France?", "Capital of Italy?"] {
        let session = try await AppAPITests.newSession(server)
        _ = try await TurnInProcessTests.turn(server, session: session, text: question)
      }
      let json = try await server.request(.GET, "/api/sessions/export")
      #expect(json.status == 200)
      #expect(json.header("Content-Disposition")?.contains("hearth-chats.json") == true)
      let sessions = json.json?["sessions"]?.arrayValue ?? []
      #expect(sessions.count == 2)
      // Each one is a session export the import takes back.
      let first = try #require(sessions.first).jsonText
      let imported = try await server.request(.POST, "/api/sessions/import", body: first)
      #expect(imported.status == 201, "\(imported.body)")
      let markdown = try await server.request(.GET, "/api/sessions/export?format=md")
      #expect(markdown.body.contains("Capital of France?"))
      #expect(markdown.body.contains("Capital of Italy?"))
      #expect(markdown.body.contains("\n---\n"))
      #expect(try await server.request(.GET, "/api/sessions/export?format=pdf").status == 400)
    }
  }
}
