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

  /// The look-up for a question about the user's own life ("What am I allergic to?", "Where do I live?") that
  /// no fact answers: it finds nothing and says so, so that the model never answers it from nothing. `nil` for
  /// a question about anything else.
  public static func unansweredBlock(for request: String) -> String? {
    guard asksAboutTheUser(request) else { return nil }
    let asked = contentWords(of: request)
    guard asked.contains(where: { word in lifeWords.contains { same($0, word) } }) else { return nil }
    let payload = JSONValue.object([("action", .string("recall")), ("about", .string(asked.joined(separator: " ")))])
    return "[\(ActionKind.memory.rawValue):\(payload.jsonText)]"
  }

  /// Words of a person's own life, which only the user can tell: family, health, home, work, tastes.
  static let lifeWords: [String] = [
    "wife", "husband", "partner", "boyfriend", "girlfriend", "brother", "sister", "mother", "mum", "mom", "father",
    "dad", "son", "daughter", "kids", "children", "parents", "dog", "cat", "pet", "allergic", "allergy", "allergies",
    "vegetarian", "vegan", "diet", "eat", "drink", "live", "home", "address", "work", "job", "employer", "boss",
    "favourite", "favorite", "birthday", "born", "age", "old", "married", "speak", "languages", "drive", "car",
    "blood", "shoe", "dentist", "doctor", "hobby", "hobbies", "nickname", "middle",
  ]

  /// The facts among `facts` holding every word of `about` (a word matches one of the same start: "allergies"
  /// finds "allergic"), in their order.
  public static func matching(_ facts: [String], about: String) -> [String] {
    matching(facts, asked: contentWords(of: about))
  }

  static func matching(_ facts: [String], asked: [String]) -> [String] {
    // "Which languages do I speak?" finds "I speak Portuguese": a word naming only the kind of answer may be
    // missing from the fact, when another word of the question is in it.
    let specific = asked.filter { !answerKinds.contains($0) }
    guard !specific.isEmpty else { return [] }
    return facts.filter { fact in
      let theirs = contentWords(of: fact, keepingAll: true)
      return specific.allSatisfy { word in theirs.contains { same($0, word) } }
    }
  }

  /// Words that name the kind of answer a question wants rather than what it is about.
  static let answerKinds: Set<String> = [
    "language", "languages", "kind", "type", "city", "town", "country", "place", "food", "foods", "colour", "color",
    "car", "job", "name", "names", "thing", "day", "date", "number", "size", "brand", "sport", "team", "band",
    "music", "drink", "animal", "pet", "pets", "breed",
  ]

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
