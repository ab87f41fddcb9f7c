import Foundation

/// Markdown read as plain words: emphasis, code marks, heading, list and quote marks dropped, links and
/// images as their words.
public enum MarkdownText {
  /// `markdown` without its marks; fenced code kept as its lines, or left out when `keepingCode` is false
  /// (speech, where its symbols make no sense).
  public static func plain(_ markdown: String, keepingCode: Bool = true) -> String {
    var lines: [String] = []
    var inCodeBlock = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      var text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("```") {
        inCodeBlock.toggle()
        continue
      }
      if inCodeBlock {
        if keepingCode { lines.append(text) }
        continue
      }
      text = text.replacingOccurrences(of: #"^#{1,6}\s+"#, with: "", options: .regularExpression)
      text = text.replacingOccurrences(
        of: #"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?"#, with: "", options: .regularExpression)
      text = text.replacingOccurrences(of: #"^>\s?"#, with: "", options: .regularExpression)
      text = text.replacingOccurrences(of: #"!\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
      text = text.replacingOccurrences(of: #"\[([^\]]+)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
      text = text.replacingOccurrences(of: #"(\*\*|__|\*|_|`|~~)"#, with: "", options: .regularExpression)
      lines.append(text)
    }
    return lines.joined(separator: "\n")
  }
}
