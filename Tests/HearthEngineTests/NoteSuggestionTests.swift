import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("Note suggestions: shown, and written only when taken")
struct NoteSuggestionTests {
  @Test func onlyThePartsTakenAreWritten() async throws {
    let engine = try await Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]))
    _ = try engine.notes.create(Note(title: "Chores", body: "Water the plants.", tags: ["home"]))
    let body = "The plants on the balcony need water every evening. The plants inside need water on Sundays."
    let note = try engine.notes.create(Note(title: "Untitled", body: body, tags: []))
    let suggestion = try engine.suggestion(forNoteTitled: note.title, body: note.body, tags: note.tags)
    #expect(suggestion.tags.first == "plants")
    #expect(suggestion.title == "The plants on the balcony need water every")
    // Looking writes nothing.
    #expect(try engine.notes.item(note.id) == note)
    let saved = try engine.accept([.tags, .summary], of: suggestion, forNote: note.id)
    #expect(saved.title == "Untitled")
    #expect(saved.tags == suggestion.tags)
    #expect(saved.body.hasPrefix("*Summary:* "))
    let again = try engine.accept([.summary], of: suggestion, forNote: note.id)
    #expect(again.body == saved.body)
    #expect(NoteSuggestionPart.withSummary("Book it.", body: "Text") == "*Summary:* Book it.\n\nText")
  }
}
