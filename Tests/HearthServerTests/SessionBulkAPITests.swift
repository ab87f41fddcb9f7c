import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Many chats at once through the web app's API, in process")
struct SessionBulkAPITests {
  @Test func chatsAreArchivedPinnedAndDeletedTogetherAndAnAnsweringOneIsSkipped() async throws {
    // Slow enough that a turn is still answering while the chats are deleted.
    let model = ScriptedChatModel(pieces: Array(repeating: "word ", count: 40), pause: .milliseconds(100))
    try await LiveServer.inProcess(model: model) { server in
      var ids: [String] = []
      for _ in 0..<3 { ids.append(try await AppAPITests.newSession(server)) }
      let archived = try await server.request(
        .POST, "/api/sessions/bulk", body: #"{"ids":["\#(ids[0])","\#(ids[1])"],"action":"archive"}"#)
      #expect(archived.status == 200, "\(archived.body)")
      #expect(archived.json?["done"]?.arrayValue?.count == 2)
      let listed = try await server.request(.GET, "/api/sessions?archived=true")
      let flags = listed.json?["sessions"]?.arrayValue?.filter { ids.contains($0["id"]?.stringValue ?? "") }
        .map { $0["is_archived"] == .bool(true) }
      #expect(flags?.filter { $0 }.count == 2)
      let pinned = try await server.request(
        .POST, "/api/sessions/bulk", body: #"{"ids":["\#(ids[2])","\#(ids[2])"],"action":"pin"}"#)
      #expect(pinned.json?["done"]?.arrayValue?.count == 1)

      // Refused whole, naming the field: an action it does not do, an id that is no id.
      let unknownAction = try await server.request(
        .POST, "/api/sessions/bulk", body: #"{"ids":["\#(ids[0])"],"action":"burn"}"#)
      #expect(unknownAction.status == 400 && unknownAction.json?["error"]?["param"]?.stringValue == "action")
      let badID = try await server.request(.POST, "/api/sessions/bulk", body: #"{"ids":["nope"],"action":"delete"}"#)
      #expect(badID.status == 400 && badID.json?["error"]?["param"]?.stringValue == "ids")
      #expect(try await server.request(.GET, "/api/sessions/\(ids[0])").status == 200)

      // One answering while the others go: it is kept, and says why; an unknown chat is named as such.
      let talking = ids[2]
      async let answering = TurnInProcessTests.turn(server, session: talking, text: "Talk to me.")
      let id = try #require(UUID(uuidString: ids[2]))
      try await waitUntil(seconds: 20) { await server.engine.chat.isGenerating(id) }
      let unknown = UUID().uuidString
      let deleted = try await server.request(
        .POST, "/api/sessions/bulk",
        body: #"{"ids":["\#(ids[0])","\#(ids[1])","\#(ids[2])","\#(unknown)"],"action":"delete"}"#)
      #expect(deleted.status == 200, "\(deleted.body)")
      #expect(deleted.json?["done"]?.arrayValue?.compactMap(\.stringValue) == [ids[0], ids[1]])
      let skipped = deleted.json?["skipped"]?.arrayValue ?? []
      #expect(skipped.map { $0["id"]?.stringValue } == [ids[2], unknown])
      #expect(skipped.first?["reason"]?.stringValue?.contains("answering") == true)
      _ = try await answering
      #expect(try await server.request(.GET, "/api/sessions/\(ids[0])").status == 404)
      #expect(try await server.request(.GET, "/api/sessions/\(ids[2])").status == 200)
    }
  }
}
