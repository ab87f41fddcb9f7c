import HearthCore
import Testing

@Suite("Note suggestions from the note's own words")
struct NoteSuggesterTests {
  static let boiler = """
    # Boiler service

    The boiler service is booked with Anna's Heating for March. The boiler pressure dropped twice in January,
    so ask Anna to check the pressure valve. Keep the boiler manual in the kitchen drawer.
    """

  @Test func aHeadingTitlesTheNoteAndItsMostUsedWordsTagIt() {
    let suggestion = NoteSuggester.suggest(title: "Untitled", body: Self.boiler, tags: [], knownTags: ["home", "anna"])
    #expect(suggestion.title == "Boiler service")
    // A tag the user already uses that the note names comes first, then the note's most used words.
    #expect(suggestion.tags == ["anna", "boiler", "pressure"])
    #expect(suggestion.summary?.contains("boiler") == true)
    #expect((suggestion.summary?.count ?? 0) <= 161)
  }

  @Test func whatTheNoteHasAlreadyIsNotSuggestedAgain() {
    let suggestion = NoteSuggester.suggest(title: "Boiler service", body: Self.boiler, tags: ["boiler", "Anna"])
    #expect(suggestion.title == nil)
    #expect(!suggestion.tags.contains("boiler"))
    #expect(!suggestion.tags.contains("anna"))
    // One sentence is its own summary.
    #expect(NoteSuggester.suggest(title: "Milk", body: "Buy milk", tags: []).summary == nil)
    // A title from the first sentence when the note has no heading and no title of its own.
    #expect(
      NoteSuggester.suggest(title: "", body: "Call the dentist about the crown. Then pay.", tags: []).title
        == "Call the dentist about the crown")
  }
}
