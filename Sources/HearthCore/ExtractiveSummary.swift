/// A deterministic summary of dropped turns, made without calling a model: the opening sentence of each
/// message, most recent first to survive the length limit.
public enum ExtractiveSummary {
  /// Summarises `messages` in at most `limit` characters.
  public static func summarize(_ messages: [ChatMessage], limit: Int = 600) -> String {
    var parts: [String] = []
    var length = 0
    for message in messages.reversed() where message.role != .system {
      let sentence = openingSentence(of: message.content, maximum: message.role == .user ? 120 : 80)
      guard !sentence.isEmpty else { continue }
      let part = message.role == .user ? "the user said “\(sentence)”" : "the assistant replied “\(sentence)”"
      guard length + part.count + 2 <= limit else { break }
      parts.append(part)
      length += part.count + 2
    }
    guard !parts.isEmpty else { return "earlier messages were left out." }
    return parts.reversed().joined(separator: "; ") + "."
  }

  private static func openingSentence(of text: String, maximum: Int) -> String {
    let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    var sentence = ""
    for character in flattened.drop(while: \.isWhitespace) {
      sentence.append(character)
      if ".!?".contains(character) { break }
    }
    if sentence.count > maximum { sentence = String(sentence.prefix(maximum - 1)) + "…" }
    return sentence
  }
}
