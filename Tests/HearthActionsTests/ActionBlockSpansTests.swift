import Foundation
import HearthCore
import Testing

/// The blocks a surface leaves out of an answer: while it streams (``ActionBlockFilter``) and once stored
/// (``ActionBlockParser/blockSpans(in:)``, the offsets the server sends the web app).
@Suite struct ActionBlockSpansTests {
  private static let answer = """
    Done 🎉 — the café [booking] is in.
    [CALENDAR_ACTION:{"action":"create","title":"Lunch at \\"Zoë's\\" ]{","start":"2026-11-24T12:00"}]
    And [REMINDER_ACTION: {"action":"create","title":"Pay 💶"} ] too. [not a block]
    """

  /// What JavaScript's `slice` makes of the text without the spans: UTF-16 offsets, cut from the end.
  private func cut(_ text: String, _ spans: [Range<Int>]) -> String {
    var units = Array(text.utf16)
    for span in spans.reversed() { units.removeSubrange(span) }
    return String(decoding: units, as: UTF16.self)
  }

  @Test func spansAreUTF16OffsetsOfEachWholeBlock() {
    let spans = ActionBlockParser.blockSpans(in: Self.answer)
    #expect(spans.count == 2)
    let units = Array(Self.answer.utf16)
    for span in spans {
      let block = String(decoding: units[span], as: UTF16.self)
      #expect(block.hasPrefix("[") && block.hasSuffix("]"), "\(block)")
    }
    #expect(cut(Self.answer, spans) == "Done 🎉 — the café [booking] is in.\n\nAnd  too. [not a block]")
  }

  @Test func streamingInAnyPiecesShowsWhatTheSpansLeave() {
    var generator = SeededRandom(seed: 7)
    let characters = Array(Self.answer)
    for _ in 0..<200 {
      var filter = ActionBlockFilter()
      var shown = ""
      var index = 0
      while index < characters.count {
        let length = Int.random(in: 1...12, using: &generator)
        shown += filter.feed(String(characters[index..<min(index + length, characters.count)]))
        index += length
      }
      shown += filter.finish()
      #expect(shown == cut(Self.answer, ActionBlockParser.blockSpans(in: Self.answer)))
    }
  }

  @Test func textThatOnlyLooksLikeABlockIsShownWhenTheAnswerEnds() {
    var filter = ActionBlockFilter()
    #expect(filter.feed("See [CALENDAR") == "See ")
    #expect(filter.finish() == "[CALENDAR")
    #expect(ActionBlockParser.blockSpans(in: "See [CALENDAR").isEmpty)
  }
}
