import Testing

@testable import HearthCore

@Suite struct SearchExcerptTests {
  static func snippet(_ words: String...) -> String {
    "…" + words.map { SearchExcerpt.openMark + $0 + SearchExcerpt.closeMark }.joined(separator: " x ") + "…"
  }

  @Test func theWindowOpensAFewWordsBeforeTheFirstMatch() {
    let shown = (1...30).map { "w\($0)" }.joined(separator: " ") + " the Dentist, at nine " + "tail words here"
    let excerpt = SearchExcerpt.make(shown: shown, snippet: Self.snippet("dentist"), words: 8)
    #expect(excerpt == "…w28 w29 w30 the [Dentist], at nine tail…")
  }

  @Test func everyMatchedWordIsMarkedAndBracketsInTheTextAreNot() {
    let excerpt = SearchExcerpt.make(
      shown: "Call [Ana] about the ferry and the Ferry times", snippet: Self.snippet("ferry"))
    #expect(excerpt == "Call (Ana) about the [ferry] and the [Ferry] times")
  }

  @Test func aMatchOnlyInsideWhatIsNotShownGivesTheStartAndNothingShownGivesTheSnippet() {
    #expect(SearchExcerpt.make(shown: "Done.", snippet: Self.snippet("plumber")) == "Done.")
    #expect(SearchExcerpt.make(shown: "  ", snippet: "a \u{E000}plumber\u{E001} [x]") == "a [plumber] (x)")
  }
}
