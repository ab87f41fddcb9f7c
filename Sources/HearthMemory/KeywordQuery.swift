import Foundation

/// The words of a question worth matching by keyword: a question's function words ("what", "is", "the")
/// match nearly every chunk and only blur BM25's ranking.
public enum KeywordQuery {
  /// Words too common to tell texts apart.
  public static let stopWords: Set<String> = [
    "a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does", "for",
    "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "should", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "us", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
    "you", "your", "tell", "please", "again", "any", "some", "much", "many", "get", "got", "am", "been", "being",
  ]

  /// The query's words without function words; the whole query when nothing else is left.
  public static func terms(of query: String) -> String {
    words(of: query).joined(separator: " ")
  }

  static func words(of query: String) -> [String] {
    let words = query.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "'") }.map(String.init)
    let kept = words.filter { !stopWords.contains($0.lowercased()) }
    return kept.isEmpty ? words : kept
  }

  /// The lower-case words of `text` of `minimumLength` letters or more that are no function words: what a
  /// sentence is about, for telling whether two texts speak of the same thing.
  public static func contentWords(of text: String, minimumLength: Int) -> Set<String> {
    Set(
      text.lowercased().split(whereSeparator: { !$0.isLetter }).lazy.map(String.init).filter {
        $0.count >= minimumLength && !stopWords.contains($0)
      })
  }

  /// The most words a keyword search looks for: the rarest ones, which carry nearly all of BM25's ranking.
  public static let maximumWords = 4

  /// The words worth a keyword search: the rarest ``maximumWords`` of those in at most `limit` chunks. A word in nearly every chunk
  /// ranks nothing and makes BM25 score thousands of chunks; when every word is that common, the rarest
  /// one is kept. `counts` gives how many chunks hold an index term; a word's term is found as the longest
  /// of its prefixes the index holds (what a suffix-stripping stemmer leaves), and a word whose term is not
  /// found is rare.
  public static func informative(
    _ query: String, limit: Int, counts: (Set<String>) throws -> [String: Int]
  ) rethrows -> String {
    let words = words(of: query)
    let candidates = words.map(stemCandidates)
    let known = try counts(candidates.reduce(into: Set<String>()) { $0.formUnion($1) })
    let frequencies = candidates.map { stems in
      stems.sorted { $0.count > $1.count }.lazy.compactMap { known[$0] }.first ?? 0
    }
    let ranked = zip(words, frequencies).enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
    let kept = ranked.filter { $0.element.1 <= limit }.prefix(maximumWords).sorted { $0.offset < $1.offset }
    if !kept.isEmpty { return kept.map(\.element.0).joined(separator: " ") }
    return ranked.first?.element.0 ?? ""
  }

  /// The index terms a word may have become: its lower-case, accent-free prefixes of three letters or more
  /// (and with a final y as i, as the Porter stemmer writes it).
  static func stemCandidates(_ word: String) -> Set<String> {
    let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    let pieces = folded.split { !($0.isLetter || $0.isNumber) }
    var stems: Set<String> = []
    for piece in pieces {
      let characters = Array(piece)
      guard characters.count >= 3 else {
        stems.insert(String(characters))
        continue
      }
      for length in 3...characters.count { stems.insert(String(characters[0..<length])) }
      if characters.last == "y" { stems.insert(String(characters.dropLast()) + "i") }
    }
    return stems
  }

  /// Whether the query names something exact that meaning alone blurs: a token with a digit (a code, a
  /// number, a date) or a capitalised word after the first (a name, a brand, a place).
  public static func namesSomethingExact(_ query: String) -> Bool {
    let words = query.split { !($0.isLetter || $0.isNumber || $0 == "-") }
    return words.enumerated().contains { index, word in
      word.contains(where: \.isNumber) || (index > 0 && word.first?.isUppercase == true && word != "I")
    }
  }
}
