import HearthMemory
import Testing

@Suite("The persona in the system prompt: whole when it fits, else its start in whole sentences")
struct PersonaPromptTests {
  let words: (String) -> Int = { $0.split(separator: " ").count }

  @Test("a short persona is whole; a long one keeps the sentences that fit, and one long sentence its first words")
  func leading() {
    #expect(PersonaPrompt.leading("I sail. I cook.", tokenBudget: 10, countTokens: words) == ("I sail. I cook.", true))
    let long = PersonaPrompt.leading(
      "I sail on weekends. I cook on Sundays.\nMy dog is Pepperoni.", tokenBudget: 8, countTokens: words)
    #expect(long == ("I sail on weekends. I cook on Sundays.", false))
    let one = PersonaPrompt.leading("one two three four five six", tokenBudget: 4, countTokens: words)
    #expect(one == ("one two three …", false))
  }
}
