import Foundation

/// A suggestion for a note — a title, tags, a one-line summary — for the user to take or leave; nothing is
/// written until they do.
public struct NoteSuggestion: Sendable, Hashable, Codable {
  /// A title from the note's heading or first sentence; `nil` when the note's own title already says it.
  public var title: String?
  /// Tags the note has not got yet: tags of other notes that its words name, then its most used words.
  public var tags: [String]
  /// The sentence that carries most of the note's words; `nil` for a note of one sentence or none.
  public var summary: String?

  public init(title: String?, tags: [String], summary: String?) {
    self.title = title
    self.tags = tags
    self.summary = summary
  }
}

/// Reads a note's words for a title, tags and a summary, without a model: the same note gets the same
/// suggestion, at once, and nothing in it is invented.
public enum NoteSuggester {
  /// The most tags suggested at once.
  public static let tagLimit = 3

  public static func suggest(title: String, body: String, tags: [String], knownTags: [String] = []) -> NoteSuggestion {
    let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
    let sentences = Self.sentences(text)
    var counts: [String: Int] = [:]
    for word in Self.words(title + "\n" + text) { counts[word, default: 0] += 1 }

    var suggestedTitle: String?
    let heading = text.split(separator: "\n").first { $0.hasPrefix("#") }.map {
      $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
    }
    if let candidate = heading ?? sentences.first.map({ Self.clipped($0, words: 8) }), !candidate.isEmpty,
      candidate.caseInsensitiveCompare(title.trimmingCharacters(in: .whitespaces)) != .orderedSame,
      Self.isPlaceholder(title) || heading != nil
    {
      suggestedTitle = candidate
    }

    let have = Set(tags.map { $0.lowercased() })
    var suggested: [String] = []
    for tag in knownTags where !have.contains(tag.lowercased()) && !suggested.contains(tag.lowercased()) {
      if counts[tag.lowercased()] != nil { suggested.append(tag.lowercased()) }
      if suggested.count == tagLimit { break }
    }
    let frequent = counts.filter { $0.value >= 2 && $0.key.count >= 4 }
      .sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
    for word in frequent where suggested.count < tagLimit && !have.contains(word) && !suggested.contains(word) {
      suggested.append(word)
    }

    var summary: String?
    if sentences.count >= 2 {
      let scored = sentences.map { sentence -> (String, Double) in
        let words = Self.words(sentence)
        let weight = words.reduce(0) { $0 + Double(counts[$1] ?? 0) }
        return (sentence, words.isEmpty ? 0 : weight / Double(words.count).squareRoot())
      }
      summary = scored.max { $0.1 < $1.1 }.map { Self.clipped($0.0, characters: 160) }
    }
    return NoteSuggestion(title: suggestedTitle, tags: suggested, summary: summary)
  }

  static func isPlaceholder(_ title: String) -> Bool {
    let lowered = title.trimmingCharacters(in: .whitespaces).lowercased()
    return lowered.isEmpty || ["untitled", "new note", "note", "notes"].contains(lowered)
  }

  /// The note's sentences, headings and list marks left out.
  static func sentences(_ text: String) -> [String] {
    var sentences: [String] = []
    for line in text.split(separator: "\n") {
      var line = line.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("#") { continue }
      for mark in ["- [ ] ", "- [x] ", "- ", "* ", "> "] where line.hasPrefix(mark) {
        line = String(line.dropFirst(mark.count))
      }
      var current = ""
      for character in line {
        current.append(character)
        if ".!?".contains(character) {
          let sentence = current.trimmingCharacters(in: .whitespaces)
          if sentence.count > 3 { sentences.append(sentence) }
          current = ""
        }
      }
      let rest = current.trimmingCharacters(in: .whitespaces)
      if rest.count > 3 { sentences.append(rest) }
    }
    return sentences
  }

  static func words(_ text: String) -> [String] {
    text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init)
      .filter { $0.count > 2 && !stopWords.contains($0) && !$0.allSatisfy(\.isNumber) }
  }

  static func clipped(_ sentence: String, words limit: Int) -> String {
    let words = sentence.split(separator: " ")
    let kept = words.prefix(limit).joined(separator: " ")
    return (words.count > limit ? kept : kept.trimmingCharacters(in: CharacterSet(charactersIn: ".!?")))
  }

  static func clipped(_ sentence: String, characters limit: Int) -> String {
    guard sentence.count > limit else { return sentence }
    let cut = sentence.prefix(limit)
    return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
  }

  private static let stopWords: Set<String> = [
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "but", "not", "you", "your", "our",
    "have", "has", "had", "will", "would", "can", "could", "should", "into", "onto", "about", "then", "than", "there",
    "their", "they", "them", "what", "when", "where", "which", "who", "how", "all", "any", "each", "every", "some",
    "its", "it's", "also", "just", "very", "more", "most", "much", "many", "one", "two", "out", "off", "over",
    "under", "again", "once", "here", "why", "been", "being", "does", "did", "doing", "need", "needs", "get", "got",
    "make", "made", "use", "used", "like", "only", "own", "same", "too", "yet", "after", "before", "because",
    "while", "during", "between", "through", "these", "those", "him", "her", "his", "she", "he's", "i'm", "we're",
  ]
}
