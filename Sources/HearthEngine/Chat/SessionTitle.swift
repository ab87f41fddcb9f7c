/// Makes a session title from the first user message: its first line, whitespace collapsed, cut at a word
/// boundary. No model call is needed.
public enum SessionTitle {
  /// Title of a session that has no messages yet.
  public static let placeholder = "New chat"

  /// A title of at most `limit` characters.
  public static func from(_ text: String, limit: Int = 48) -> String {
    let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let words = firstLine.split(whereSeparator: \.isWhitespace)
    guard !words.isEmpty else { return placeholder }
    var title = ""
    for word in words {
      let candidate = title.isEmpty ? String(word) : title + " " + word
      if candidate.count > limit {
        if title.isEmpty { title = String(word.prefix(limit - 1)) }
        return title + "…"
      }
      title = candidate
    }
    return title
  }
}
