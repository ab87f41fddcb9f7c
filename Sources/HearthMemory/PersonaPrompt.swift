import Foundation

/// What the user wrote about themselves, as the system prompt holds it: whole when it fits the persona's budget;
/// else its opening sentences that fit, marked as the start of a longer text, the rest reaching each turn by
/// retrieval (the three pieces closest to the question), so no part of it is dropped without a word.
public enum PersonaPrompt {
  /// The part of `persona` that fits in `tokenBudget`, and whether that is all of it.
  public static func leading(
    _ persona: String, tokenBudget: Int, countTokens: (String) -> Int
  ) -> (text: String, isWhole: Bool) {
    if countTokens(persona) <= tokenBudget { return (persona, true) }
    var kept = ""
    for sentence in sentences(of: persona) {
      let longer = kept.isEmpty ? sentence : kept + " " + sentence
      guard countTokens(longer) <= tokenBudget else { break }
      kept = longer
    }
    if kept.isEmpty {
      // One sentence longer than the budget: its first words, cut between words.
      for word in persona.split(separator: " ") {
        let longer = kept.isEmpty ? String(word) : kept + " " + word
        guard countTokens(longer + " …") <= tokenBudget else { break }
        kept = longer
      }
      kept += " …"
    }
    return (kept, false)
  }

  /// Sentences and lines, each with its end mark.
  public static func sentences(of text: String) -> [String] {
    var sentences: [String] = []
    var current = ""
    for character in text {
      if character == "\n" {
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { sentences.append(current) }
        current = ""
        continue
      }
      current.append(character)
      if ".!?".contains(character) {
        sentences.append(current)
        current = ""
      }
    }
    if !current.trimmingCharacters(in: .whitespaces).isEmpty { sentences.append(current) }
    return sentences.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
