import HearthCore
import Testing

@Suite("An answer caught in a loop is cut where its repeats begin")
struct RepetitionGuardTests {
  /// What is kept of `text` (all of it when it ends in no loop).
  private func kept(_ text: String) -> String {
    RepetitionGuard.repeatsStart(in: text).map { String(text[..<$0]) } ?? text
  }

  @Test func aLineSaidThreeTimesIsKeptOnce() {
    let opening = "In the heart of the autumn, a leaf's path,\n"
    let line = "A leaf's path, a leaf's path,\n"
    #expect(RepetitionGuard.repeatsStart(in: opening + line + line) == nil)
    #expect(kept(opening + line + line + line) == opening + line)
  }

  @Test func twoSentencesSaidTwiceAreKeptOnce() {
    let opening = "Romeo and Juliet is a tragic play about two young lovers. "
    let passage =
      "The play is set in a medieval French setting, with a focus on the clashing of love and fate. "
      + "The story is told from the perspective of two young lovers, who are doomed to a tragic fate. "
    #expect(RepetitionGuard.repeatsStart(in: opening + passage) == nil)
    // Kept up to the sentence's end, its trailing space left out.
    #expect(kept(opening + passage + passage) == String((opening + passage).dropLast()))
  }

  @Test func aLoopIsFoundWhereverTheNewestPieceEnds() {
    let line = "The leaves fall softly, one by one.\n"
    let text = "Autumn:\n" + line + line + line + "The lea"
    // Cut at the end of the line before, not mid-word.
    #expect(kept(text) == "Autumn:\n" + line)
  }

  @Test func textThatOnlyResemblesALoopIsLeftAlone() {
    let table = "| Day | Plan |\n|-----|------|\n| Mon | Gym  |\n| Tue | Gym  |\n| Wed | Gym  |\n"
    let list = "- Buy milk for the week\n- Buy eggs for the week\n- Buy rice for the week\n"
    let rule = "Summary\n" + String(repeating: "=", count: 80)
    let dots = "Loading" + String(repeating: ".", count: 60)
    let numbers = "Counting: " + (1...40).map(String.init).joined(separator: ", ")
    let code = "```swift\n" + String(repeating: "    total += value\n", count: 5)
    for text in [table, list, rule, dots, numbers, code] {
      #expect(RepetitionGuard.repeatsStart(in: text) == nil, "\(text)")
    }
  }

  @Test func aClosedCodeFenceDoesNotShieldALoopAfterIt() {
    let line = "Then run it again to see.\n"
    let text = "```\nmake\n```\n" + line + line + line
    #expect(kept(text) == "```\nmake\n```\n" + line)
  }

  @Test func lettersOfAnyScriptCount() {
    let line = "Листья падают тихо,\n"
    #expect(kept("Осень.\n" + line + line + line) == "Осень.\n" + line)
  }
}
