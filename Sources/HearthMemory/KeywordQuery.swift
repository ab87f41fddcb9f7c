/// The words of a question worth matching by keyword: a question's function words ("what", "is", "the")
/// match nearly every chunk and only blur BM25's ranking.
public enum KeywordQuery {
  private static let stopWords: Set<String> = [
    "a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does", "for",
    "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "should", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "us", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
    "you", "your", "tell", "please", "again", "any", "some", "much", "many", "get", "got", "am", "been", "being",
  ]

  /// The query's words without function words; the whole query when nothing else is left.
  public static func terms(of query: String) -> String {
    let words = query.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "'") }.map(String.init)
    let kept = words.filter { !stopWords.contains($0.lowercased()) }
    return (kept.isEmpty ? words : kept).joined(separator: " ")
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
