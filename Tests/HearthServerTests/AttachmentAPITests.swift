import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Attachments through the web app's API, in process")
struct AttachmentAPITests {
  static let sentence = TestModels.packageRoot.appendingPathComponent("Tests/HearthOCRTests/Fixtures/sentence.png")

  @Test func anImageIsReadKeptUntilSentAndGoesWithTheMessage() async throws {
    let model = ScriptedChatModel(pieces: ["By the back door."])
    try await LiveServer.inProcess(model: model) { server in
      let session = try await AppAPITests.newSession(server)
      let uploaded = try await server.request(
        .POST, "/api/sessions/\(session)/attachments?name=sentence.png", bytes: try Data(contentsOf: Self.sentence))
      #expect(uploaded.status == 201, "\(uploaded.body)")
      #expect(uploaded.json?["reading"]?.stringValue == "ocr")
      let id = try #require(uploaded.json?["id"]?.stringValue)
      let read = try await server.request(.GET, "/api/attachments/\(id)")
      #expect(read.json?["text"]?.stringValue?.contains("spare key") == true)

      let spare = try await server.request(
        .POST, "/api/sessions/\(session)/attachments?name=spare.txt", bytes: Data("A spare note.".utf8))
      let spareID = try #require(spare.json?["id"]?.stringValue)
      #expect(try await server.request(.DELETE, "/api/attachments/\(spareID)").status == 204)

      let turn = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"Where is the key?","attachments":["\#(id)"]}"#)
      #expect(turn.status == 200)
      #expect(model.conversations.last?.last?.content.contains("blue flowerpot") == true)
      let messages = try await server.request(.GET, "/api/sessions/\(session)")
      #expect(messages.body.contains(#""name":"sentence.png""#))
      // The image itself, for its thumbnail and full-size view: the very bytes sent, as their type.
      let image = try await server.request(.GET, "/api/attachments/\(id)/content")
      #expect(image.status == 200)
      #expect(image.data == (try Data(contentsOf: Self.sentence)))
      #expect(image.header("Content-Type") == "image/png")
      #expect(image.header("X-Content-Type-Options") == "nosniff")
      // A document has text, not an image.
      let note = try await server.request(
        .POST, "/api/sessions/\(session)/attachments?name=note.txt", bytes: Data("Plain words.".utf8))
      let noteID = try #require(note.json?["id"]?.stringValue)
      #expect(try await server.request(.GET, "/api/attachments/\(noteID)/content").status == 404)
      #expect(try await server.request(.GET, "/api/attachments/\(UUID())/content").status == 404)
      // Sent: no longer waiting, not removable, not sent twice.
      #expect(try await server.request(.DELETE, "/api/attachments/\(id)").status == 404)
      let again = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"Again","attachments":["\#(id)"]}"#)
      #expect(again.status == 404)

      let unnamed = try await server.request(.POST, "/api/sessions/\(session)/attachments", bytes: Data("x".utf8))
      #expect(unnamed.status == 400)
      let binary = try await server.request(
        .POST, "/api/sessions/\(session)/attachments?name=tool.exe", bytes: Data([0x4D, 0x5A]))
      #expect(binary.status == 400)
      #expect(binary.body.contains("tool.exe cannot be attached"))
      let badID = try await server.request(
        .POST, "/api/sessions/\(session)/turns", body: #"{"text":"x","attachments":["nope"]}"#)
      #expect(badID.status == 400)
    }
  }
}
