import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthStore

/// Search results read as the chat and the note read: no action block's JSON, no Markdown marks.
@Suite("Search excerpts show the text as it is shown")
struct SearchExcerptStoreTests {
  private func freshDatabase() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  @Test func anAnswersExcerptLeavesOutItsBlockAndItsMarks() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "Teeth"))
    let answer =
      #"I'll add it. [CALENDAR_ACTION: {"action": "create", "title": "Dentist", "start": "2026-12-10T09:00"}] "#
      + "See you at the **dentist** on [the map](https://maps.example/x) at nine."
    try database.appendMessage(StoredMessage(sessionID: session.id, index: 0, role: .assistant, content: answer))
    let hit = try #require(try database.search("dentist", scope: .bodies).first)
    #expect(hit.snippet.contains("[dentist]"), "\(hit.snippet)")
    for raw in ["CALENDAR_ACTION", "{", "**", "https", "\"title\""] {
      #expect(!hit.snippet.contains(raw), "\(raw) in \(hit.snippet)")
    }
    #expect(hit.snippet.contains("the map at nine"))
  }

  @Test func aTitlesOwnBracketsAreNoMatchMarks() throws {
    let database = try freshDatabase()
    _ = try database.createSession(ChatSession(title: "Zeppelin [draft] notes"))
    let hit = try #require(try database.search("zeppelin", scope: .titles).first)
    #expect(hit.snippet == "[Zeppelin] (draft) notes")
  }

  @Test func aNotesExcerptReadsAsTheNoteDoes() throws {
    let database = try freshDatabase()
    let body = "# Boiler\n\n**Service** is due in [March](https://example.com/x). Call the *plumber* first.\n"
    try database.write(.insert(.note(Note(title: "House", body: body))))
    let found = try #require(try database.searchNotes("plumber").first)
    #expect(found.excerpt.contains("[plumber]"), "\(found.excerpt)")
    for raw in ["**", "#", "https", "*plumber*"] {
      #expect(!found.excerpt.contains(raw), "\(raw) in \(found.excerpt)")
    }
  }
}
