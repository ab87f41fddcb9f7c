import Foundation
import HearthTestSupport
import Testing

@Suite("hearth notes suggest: shown, and written only with --accept", .heavy)
struct NoteSuggestCommandTests {
  @Test func aSuggestionIsShownAndOnlyTheAcceptedPartIsWritten() async throws {
    let runner = CommandRunner()
    let added = try await runner.run([
      "notes", "add", "Untitled", "--body",
      "# Boiler service\nThe boiler service is booked for March. Ask about the boiler pressure valve.", "--json",
    ])
    #expect(added.status == 0, "\(added.standardError)")
    let id = try #require(added.standardOutput.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) })
    let shown = try await runner.run(["notes", "suggest", id])
    #expect(shown.standardOutput.contains("title:   Boiler service"), "\(shown.standardOutput)")
    #expect(shown.standardOutput.contains("tags:    boiler"))
    let untouched = try await runner.run(["notes", "show", id, "--json"])
    #expect(untouched.standardOutput.contains(#""title":"Untitled""#))
    let accepted = try await runner.run(["notes", "suggest", id, "--accept", "title", "--json"])
    #expect(accepted.standardOutput.contains(#""title":"Boiler service""#), "\(accepted.standardOutput)")
    #expect(accepted.standardOutput.contains(#""tags":[]"#))
    let wrong = try await runner.run(["notes", "suggest", id, "--accept", "everything"])
    #expect(wrong.status != 0)
  }
}
