import Foundation
import HearthCore

/// A question about what the user told Hearth of themselves ("What is my brother's name?", "What am I
/// allergic to?", "Where do I live?"), answered from the facts kept rather than by the model: the facts that
/// hold every word the question asks about are the answer.
public enum FactQuestion {
  /// The block that looks the facts up, when `request` asks about the user and at least one of `facts` holds
  /// every word it asks about; `nil` otherwise.
  public static func block(for request: String, facts: [String]) -> String? {
    guard asksAboutTheUser(request) else { return nil }
    let asked = contentWords(of: request)
    guard !asked.isEmpty, !matching(facts, asked: asked).isEmpty else { return nil }
    let payload = JSONValue.object([("action", .string("recall")), ("about", .string(asked.joined(separator: " ")))])
    return "[\(ActionKind.memory.rawValue):\(payload.jsonText)]"
  }

  /// The facts among `facts` holding every word of `about` (a word matches one of the same start: "allergies"
  /// finds "allergic"), in their order.
  public static func matching(_ facts: [String], about: String) -> [String] {
    matching(facts, asked: contentWords(of: about))
  }

  static func matching(_ facts: [String], asked: [String]) -> [String] {
    guard !asked.isEmpty else { return [] }
    return facts.filter { fact in
      let theirs = contentWords(of: fact, keepingAll: true)
      return asked.allSatisfy { word in theirs.contains { same($0, word) } }
    }
  }

  /// Whether a message is a question about the user themselves: it asks ("?", or opens with a question word)
  /// and speaks of "my", "I" or "me".
  static func asksAboutTheUser(_ request: String) -> Bool {
    let words = SpokenTime.words(of: request.lowercased().replacingOccurrences(of: "’", with: "'"))
    let openings: Set<String> = [
      "what", "what's", "whats", "who", "who's", "where", "where's", "when", "when's", "which", "how", "do", "does",
      "did", "am", "is", "are", "have", "tell", "remind",
    ]
    guard request.contains("?") || openings.contains(words.first ?? "") else { return false }
    return !Set(words).isDisjoint(with: ["my", "i", "me", "i'm", "mine"])
  }

  static let questionWords: Set<String> = [
    "what", "what's", "whats", "who", "who's", "where", "where's", "when", "when's", "which", "how", "do", "does",
    "did", "am", "is", "are", "was", "were", "have", "has", "had", "any", "my", "me", "i", "i'm", "mine", "you",
    "your", "the", "a", "an", "of", "to", "in", "on", "at", "for", "about", "tell", "know", "remember", "again",
    "please", "can", "could", "would", "will", "it", "that", "this", "there", "called", "s", "told", "say", "said",
    "kind", "sort", "thing", "things", "hearth", "remind", "and", "or", "with", "be", "get", "got",
  ]

  /// The words a text asks or tells about, without question words and "'s"; `keepingAll` keeps every word of a
  /// fact (its "called" and "name" count).
  static func contentWords(of text: String, keepingAll: Bool = false) -> [String] {
    let words = SpokenTime.words(of: text.lowercased().replacingOccurrences(of: "’", with: "'")).map { word in
      word.hasSuffix("'s") ? String(word.dropLast(2)) : word
    }
    return words.filter { word in
      word.count >= 2 && word.contains(where: \.isLetter) && (keepingAll || !questionWords.contains(word))
    }
  }

  /// Two words for the same thing: equal, or sharing their first five letters ("allergy", "allergic").
  static func same(_ one: String, _ other: String) -> Bool {
    one == other || (one.count >= 5 && other.count >= 5 && one.prefix(5) == other.prefix(5))
      || (min(one.count, other.count) >= 3 && (one + "s" == other || other + "s" == one))
  }
}
