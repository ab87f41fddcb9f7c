import Foundation

/// A search hit's excerpt as a person reads it: the words around the first match in the text as it is shown
/// (an answer without its action blocks, a note without its Markdown), each matched word in `[` `]`.
/// The full-text index works on the stored text, so its own snippet can show a block's JSON or a note's marks;
/// it serves only to say which words matched.
public enum SearchExcerpt {
  /// The marks the store asks the index to put around matched words: private-use characters, which no
  /// text holds, so a bracket in the text is never taken for one.
  public static let openMark = "\u{E000}"
  public static let closeMark = "\u{E001}"

  /// About `words` words of `shown` around the first word the index's `snippet` marked; the start of
  /// `shown` when none of them is in it (a match inside a block), and the snippet itself, cleaned, when
  /// nothing is shown at all.
  public static func make(shown: String, snippet: String, words: Int = 14) -> String {
    let matched = Set(matchedWords(in: snippet).map(normalized).filter { !$0.isEmpty })
    let tokens = shown.split(whereSeparator: \.isWhitespace).map {
      String($0).replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
    }
    guard !tokens.isEmpty else { return marked(snippet) }
    let first = tokens.firstIndex { matched.contains(normalized($0)) }
    let start = max(0, (first ?? 0) - 4)
    let end = min(tokens.count, start + words)
    let window = tokens[start..<end].map { token in matched.contains(normalized(token)) ? mark(token) : token }
    return (start > 0 ? "…" : "") + window.joined(separator: " ") + (end < tokens.count ? "…" : "")
  }

  /// The index's snippet with its marks as `[` `]` and the text's own brackets as parentheses.
  public static func marked(_ snippet: String) -> String {
    snippet.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
      .replacingOccurrences(of: openMark, with: "[").replacingOccurrences(of: closeMark, with: "]")
  }

  /// The words between the marks.
  static func matchedWords(in snippet: String) -> [String] {
    var words: [String] = []
    var rest = Substring(snippet)
    while let open = rest.range(of: openMark),
      let close = rest.range(of: closeMark, range: open.upperBound..<rest.endIndex)
    {
      words += rest[open.upperBound..<close.lowerBound].split(whereSeparator: \.isWhitespace).map(String.init)
      rest = rest[close.upperBound...]
    }
    return words
  }

  /// A token's letters and digits, lower-cased: "Dentist," and "dentist" are one word.
  static func normalized(_ token: String) -> String {
    String(token.lowercased().filter { $0.isLetter || $0.isNumber })
  }

  /// The token's word in `[` `]`, its punctuation outside ("[Dentist],").
  static func mark(_ token: String) -> String {
    guard let first = token.firstIndex(where: { $0.isLetter || $0.isNumber }),
      let last = token.lastIndex(where: { $0.isLetter || $0.isNumber })
    else { return token }
    return "\(token[..<first])[\(token[first...last])]\(token[token.index(after: last)...])"
  }
}
