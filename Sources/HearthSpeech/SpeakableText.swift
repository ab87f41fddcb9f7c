import Foundation

/// Text as it is spoken: Markdown's marks dropped, and cut into sentences so the first can be heard while the
/// rest are still being made.
public enum SpeakableText {
  /// The longest piece spoken in one go; a longer sentence is cut at a comma or a space.
  public static let longestPiece = 240

  /// `text` without Markdown: emphasis, code marks, heading and list marks, links (their words kept) and images.
  public static func plain(_ markdown: String) -> String {
    var lines: [String] = []
    var inCodeBlock = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      var text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("```") {
        inCodeBlock.toggle()
        continue
      }
      // Code is read out only as "code": its symbols make no sense spoken.
      if inCodeBlock { continue }
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

  /// The sentences of `text`, in order, none longer than ``longestPiece``; a line on its own (a heading, a list
  /// item) is a sentence even without a full stop.
  public static func sentences(_ text: String) -> [String] {
    var sentences: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      var current = ""
      let characters = Array(line)
      for (index, character) in characters.enumerated() {
        current.append(character)
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        if ".!?".contains(character), next == nil || next!.isWhitespace, !endsWithAbbreviation(current) {
          sentences += pieces(of: current)
          current = ""
        }
      }
      sentences += pieces(of: current)
    }
    return sentences
  }

  private static let abbreviations: Set<String> = ["mr.", "mrs.", "ms.", "dr.", "st.", "e.g.", "i.e.", "etc.", "vs."]

  private static func endsWithAbbreviation(_ text: String) -> Bool {
    guard let word = text.split(separator: " ").last else { return false }
    return abbreviations.contains(word.lowercased())
  }

  private static func pieces(of sentence: String) -> [String] {
    var rest = sentence.trimmingCharacters(in: .whitespaces)
    var pieces: [String] = []
    while rest.count > longestPiece {
      let window = rest.prefix(longestPiece)
      let cut = window.lastIndex(of: ",").map { rest.index(after: $0) } ?? window.lastIndex(of: " ") ?? window.endIndex
      pieces.append(String(rest[..<cut]).trimmingCharacters(in: .whitespaces))
      rest = String(rest[cut...]).trimmingCharacters(in: .whitespaces)
    }
    if rest.contains(where: { $0.isLetter || $0.isNumber }) { pieces.append(rest) }
    return pieces.filter { !$0.isEmpty }
  }
}
