import HearthSpeech
import Testing

struct SpeakableTextTests {
  @Test func markdownMarksAreNotReadOut() {
    let markdown = """
      ## Your day
      - **Dentist** at _nine_, see [the clinic](https://example.com/clinic)
      1. Call `Anna`
      > Bring the ~~old~~ forms.
      ```
      let x = 1
      ```
      Done.
      """
    #expect(
      SpeakableText.plain(markdown)
        == "Your day\nDentist at nine, see the clinic\nCall Anna\nBring the old forms.\nDone.")
  }

  @Test func textIsCutIntoSentencesAndLinesOnTheirOwn() {
    let text = "Good morning! Dr. Lee moved your visit. Is that fine?\nShopping list\nMilk, e.g. oat milk."
    #expect(
      SpeakableText.sentences(text) == [
        "Good morning!", "Dr. Lee moved your visit.", "Is that fine?", "Shopping list", "Milk, e.g. oat milk.",
      ])
    // Decimal points and times do not end sentences.
    #expect(SpeakableText.sentences("It costs 3.50 today. Bye.") == ["It costs 3.50 today.", "Bye."])
  }

  @Test func aLongSentenceIsCutAtACommaOrASpaceAndNothingIsLost() {
    let clause = "and then the team walked along the river to the old mill"
    let sentence = Array(repeating: clause, count: 8).joined(separator: ", ") + "."
    let pieces = SpeakableText.sentences(sentence)
    #expect(pieces.count > 1)
    #expect(pieces.allSatisfy { $0.count <= SpeakableText.longestPiece })
    #expect(pieces.joined(separator: " ") == sentence)
    let unbroken = String(repeating: "a", count: 600)
    #expect(SpeakableText.sentences(unbroken).joined() == unbroken)
  }

  @Test func punctuationAloneIsNothingToSay() {
    #expect(SpeakableText.sentences("... !? --\n\n").isEmpty)
    #expect(SpeakableText.sentences("").isEmpty)
  }
}
