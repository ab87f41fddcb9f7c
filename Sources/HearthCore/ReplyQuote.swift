import Foundation

/// A reply to an earlier message: the message quoted (as a Markdown quote, cut to ``limit`` characters), then
/// the reply. The model reads the quote as part of the user's turn; the transcript shows it as a quote.
public enum ReplyQuote {
  /// The most characters of the quoted message kept.
  public static let limit = 600

  /// `reply` after a quote of `quoted`. Blocks in the quoted text are defused: quoting an answer never repeats
  /// its actions.
  public static func compose(_ reply: String, quoting quoted: String) -> String {
    var text = ActionBlockParser.defused(quoted).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.count > limit { text = String(text.prefix(limit)).trimmingCharacters(in: .whitespaces) + "…" }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }
    return lines.joined(separator: "\n") + "\n\n" + reply.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The quote and the reply of a message written by ``compose(_:quoting:)``; `nil` for any other message.
  public static func split(_ message: String) -> (quote: String, reply: String)? {
    guard message.hasPrefix("> "), let gap = message.range(of: "\n\n") else { return nil }
    let quoted = message[..<gap.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    guard quoted.allSatisfy({ $0.hasPrefix("> ") || $0 == ">" }) else { return nil }
    let quote = quoted.map { $0.hasPrefix("> ") ? String($0.dropFirst(2)) : "" }.joined(separator: "\n")
    return (quote, String(message[gap.upperBound...]))
  }
}
