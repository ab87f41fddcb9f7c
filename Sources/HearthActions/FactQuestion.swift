import Foundation
import HearthCore

/// A question about what the user told Hearth of themselves ("What is my brother's name?", "What am I
/// allergic to?", "Where do I live?"), answered from the facts kept rather than by the model: the facts that
/// hold every word the question asks about are the answer.
public enum FactQuestion {
  /// The block that looks the facts up, when `request` asks about the user and at least one of `facts` holds
  /// every word it asks about; `nil` otherwise.
  public static func block(for request: String, facts: [String]) -> String? {
    guard asksAboutTheUser(request) || asksAboutSomeoneTold(request, facts: facts) else { return nil }
    let asked = contentWords(of: request)
    guard !asked.isEmpty, !matching(facts, asked: asked).isEmpty else { return nil }
    return recallBlock(about: asked)
  }

  /// The look-up for a question about the user's own life ("What am I allergic to?", "Where do I live?") that
  /// no fact answers: it finds nothing and says so, so that the model never answers it from nothing. `nil` for
  /// a question about anything else.
  public static func unansweredBlock(for request: String) -> String? {
    guard asksAboutTheUser(request) else { return nil }
    // "How do I ask my boss for a raise?", "What should I get my wife?": advice, which the model gives.
    let lowered = " " + request.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    let advice = [
      " how ", " should ", " could ", " would ", " can i ", " can you ", " ideas ", " idea ", " tips ", " help ",
      " why ", " get my ", " give my ", " buy my ", " tell my ", " ask my ",
    ]
    guard !advice.contains(where: lowered.contains) else { return nil }
    // Only a question that asks what is so ("what is my …", "where do I …"), never "tell me what you can do".
    let opens: Set<String> = [
      "what", "what's", "whats", "who", "who's", "whos", "where", "where's", "which", "when", "when's", "am", "is",
      "are", "do", "does", "remind",
    ]
    guard opens.contains(SpokenTime.words(of: lowered).first ?? "") else { return nil }
    let asked = contentWords(of: request)
    guard asked.contains(where: { word in lifeWords.contains { same($0, word) } }) else { return nil }
    return recallBlock(about: asked)
  }

  /// The look-up of the facts that hold the words `asked`.
  static func recallBlock(about asked: [String]) -> String {
    let payload = JSONValue.object([("action", .string("recall")), ("about", .string(asked.joined(separator: " ")))])
    return "[\(ActionKind.memory.rawValue):\(payload.jsonText)]"
  }

  /// Words of a person's own life, which only the user can tell: family, health, home, work, tastes.
  static let lifeWords: [String] = [
    "wife", "husband", "partner", "boyfriend", "girlfriend", "brother", "sister", "mother", "mum", "mom", "father",
    "dad", "son", "daughter", "kids", "children", "parents", "dog", "cat", "pet", "allergic", "allergy", "allergies",
    "vegetarian", "vegan", "diet", "eat", "drink", "live", "home", "address", "work", "job", "employer", "boss",
    "favourite", "favorite", "birthday", "born", "age", "old", "married", "speak", "languages", "drive", "car",
    "blood", "shoe", "dentist", "doctor", "hobby", "hobbies", "nickname", "middle", "trip", "sign", "fun", "gp",
    "team", "support", "learning", "size",
  ]

  /// The facts among `facts` holding every word of `about` (a word matches one of the same start: "allergies"
  /// finds "allergic"), in their order.
  public static func matching(_ facts: [String], about: String) -> [String] {
    matching(facts, asked: contentWords(of: about))
  }

  static func matching(_ facts: [String], asked: [String]) -> [String] {
    // "Which languages do I speak?" finds "I speak Portuguese": a word naming only the kind of answer may be
    // missing from the fact, when another word of the question is in it. "Where do I work?" has only such a
    // word, and then it must be there; "name" alone names nothing.
    var specific = asked.filter { !answerKinds.contains($0) }
    if specific.isEmpty { specific = asked.filter { !["name", "names"].contains($0) } }
    // "What's my name?": the fact that names the user.
    if specific.isEmpty, asked.contains("name") {
      let own = ["my name ", "i'm called ", "i am called ", "i go by ", "call me "]
      return facts.filter { fact in own.contains { fact.lowercased().hasPrefix($0) } }
    }
    guard !specific.isEmpty else { return [] }
    let kinds = asked.filter(answerKinds.contains)
    let found = facts.filter { fact in
      let theirs = contentWords(of: fact, keepingAll: true)
      return specific.allSatisfy { word in theirs.contains { answers(word, with: $0) } }
    }
    // "What's my favourite food?" prefers "my favourite food is pierogi" to "my favourite drink is tea".
    let sameKind = found.filter { fact in
      let theirs = contentWords(of: fact, keepingAll: true)
      return kinds.contains { word in theirs.contains { answers(word, with: $0) } }
    }
    return sameKind.isEmpty ? found : sameKind
  }

  /// "When is Tamsin's birthday?": a question naming someone a fact names, though it says no "my".
  static func asksAboutSomeoneTold(_ request: String, facts: [String]) -> Bool {
    let words = request.split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "-" }).dropFirst()
    // Only a person named as someone's ("Tamsin's"), never a place ("Where is Porto?").
    let names = words.filter { $0.hasSuffix("'s") }.map { String($0.dropLast(2)) }.filter { word in
      word.count >= 3 && word.first?.isUppercase == true
    }
    guard request.contains("?") || asksAboutTheUser(request + "?") else { return false }
    return names.contains { name in facts.contains { $0.contains(name) } }
  }

  /// Words that name the kind of answer a question wants rather than what it is about.
  static let answerKinds: Set<String> = [
    "language", "languages", "kind", "type", "city", "town", "country", "place", "food", "foods", "colour", "color",
    "car", "job", "name", "names", "thing", "day", "date", "number", "size", "brand", "sport", "team", "band",
    "music", "drink", "animal", "pet", "pets", "breed", "work", "instrument", "dress", "group",
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
    return !Set(words).isDisjoint(with: ["my", "i", "me", "i'm", "mine", "we", "our", "us", "im"])
  }

  static let questionWords: Set<String> = [
    "what", "what's", "whats", "who", "who's", "where", "where's", "when", "when's", "which", "how", "do", "does",
    "did", "am", "is", "are", "was", "were", "have", "has", "had", "any", "my", "me", "i", "i'm", "mine", "you",
    "your", "the", "a", "an", "of", "to", "in", "on", "at", "for", "about", "tell", "know", "remember", "again",
    "please", "can", "could", "would", "will", "it", "that", "this", "there", "called", "s", "told", "say", "said",
    "kind", "sort", "thing", "things", "hearth", "remind", "and", "or", "with", "be", "get", "got", "many", "much",
    "now", "currently", "still", "these", "days", "we", "our", "us", "follow", "wear", "from",
  ]

  /// The words a text asks or tells about, without question words and "'s"; `keepingAll` keeps every word of a
  /// fact (its "called" and "name" count).
  static func contentWords(of text: String, keepingAll: Bool = false) -> [String] {
    let plain = text.lowercased().replacingOccurrences(of: "’", with: "'")
      .replacingOccurrences(of: "for a living", with: "work").replacingOccurrences(of: "do i do", with: "work")
    let words = SpokenTime.words(of: plain).map { word in
      word.hasSuffix("'s") ? String(word.dropLast(2)) : word
    }
    return words.filter { word in
      word.count >= 2 && word.contains(where: \.isLetter) && (keepingAll || !questionWords.contains(word))
    }
  }

  /// Two words for the same thing: equal, sharing their first five letters ("allergy", "allergic"), or a
  /// plural.
  static func same(_ one: String, _ other: String) -> Bool {
    one == other || (one.count >= 5 && other.count >= 5 && one.prefix(5) == other.prefix(5))
      || (min(one.count, other.count) >= 3 && (one + "s" == other || other + "s" == one))
  }

  /// Whether a fact's word answers a question's: the same word, or one the question's word stands for ("kids"
  /// is answered by "sons", "live" by "moved", "GP" by "doctor", "star sign" by "Capricorn"; not the other way:
  /// a question about a cat is not answered by a dog).
  static func answers(_ asked: String, with theirs: String) -> Bool {
    if same(asked, theirs) { return true }
    return senses.contains { key, words in same(key, asked) && words.contains(where: { same($0, theirs) }) }
  }

  /// The signs a "star sign" question is answered by.
  static let zodiac = [
    "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius", "capricorn", "aquarius",
    "pisces",
  ]

  /// What a question's word may be answered by, beside itself.
  static let senses: [(String, [String])] = [
    ("live", ["moved", "based", "relocated", "address", "living"]),
    ("home", ["live", "lives", "moved", "based"]),
    ("work", ["job", "employed", "employer", "working", "company", "profession", "career"]),
    ("job", ["work", "works", "working", "employer", "employed"]),
    ("kids", ["children", "child", "son", "sons", "daughter", "daughters", "boys", "girls", "twins", "baby"]),
    ("children", ["kids", "kid", "son", "sons", "daughter", "daughters", "boys", "girls", "twins", "baby"]),
    ("partner", ["wife", "husband", "girlfriend", "boyfriend", "spouse", "married", "fiance", "fiancee"]),
    ("married", ["wife", "husband", "spouse"]),
    ("allergic", ["allergy", "allergies", "intolerant", "intolerance"]),
    ("diet", ["vegetarian", "vegan", "pescatarian", "eat", "meat", "fish", "gluten", "lactose"]),
    ("eat", ["vegetarian", "vegan", "pescatarian", "diet"]),
    ("pet", ["dog", "dogs", "cat", "cats", "rabbit", "rabbits", "tortoise", "hamster", "parrot", "fish"]),
    ("doctor", ["gp", "physician"]),
    ("gp", ["doctor", "physician"]),
    ("team", ["support", "supports", "fan", "club"]),
    ("birthday", ["born"]),
    ("car", ["drive", "drives", "driving", "vehicle"]),
    ("languages", ["speak", "speaks", "fluent", "learning"]),
    ("favourite", ["favorite", "fav", "fave", "love", "prefer"]),
    ("fav", ["favourite", "favorite", "fave", "love", "prefer"]),
    ("fave", ["favourite", "favorite", "fav", "love", "prefer"]),
    ("favorite", ["favourite", "fav", "fave", "love", "prefer"]),
    ("fun", ["hobby", "hobbies", "enjoy", "love", "play", "spare"]),
    ("hobby", ["hobbies", "enjoy", "love", "play"]),
    ("sign", zodiac), ("star", zodiac),
    ("trip", ["until", "till", "staying", "travelling", "traveling", "holiday", "vacation", "visiting"]),
    ("back", ["until", "till", "return", "returning"]),
    ("end", ["until", "till"]),
    ("old", ["age", "years", "born"]),
  ]
}
