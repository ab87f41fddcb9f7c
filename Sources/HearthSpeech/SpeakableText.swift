import Foundation
import HearthCore

/// Text as it is spoken: Markdown's marks dropped, and cut into sentences so the first can be heard while the
/// rest are still being made.
public enum SpeakableText {
  /// The longest piece spoken in one go; a longer sentence is cut at a comma or a space.
  public static let longestPiece = 240

  /// `text` without Markdown: emphasis, code marks, heading and list marks, links (their words kept) and images;
  /// code is left out, its symbols make no sense spoken.
  public static func plain(_ markdown: String) -> String { MarkdownText.plain(markdown, keepingCode: false) }

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
