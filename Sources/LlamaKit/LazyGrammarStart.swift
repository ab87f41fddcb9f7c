import Foundation

/// Where a lazy grammar starts (``HearthCore/GenerationOptions/grammarTrigger``), found in the generated text
/// as llama.cpp finds it: the first time everything generated so far matches the pattern whole, the grammar
/// applies from the pattern's first non-empty group on (from the start of the text when no group matched).
struct LazyGrammarStart {
  private let pattern: NSRegularExpression
  private var bytes: [UInt8] = []

  /// `nil` when `pattern` is not a regular expression Foundation reads; llama.cpp still follows its trigger,
  /// only the text it forces is not known then.
  init?(pattern: String) {
    do {
      // A whole match, as std::regex_match asks for; the wrapper adds no group.
      self.pattern = try NSRegularExpression(pattern: "(?:\(pattern))\\z")
    } catch {
      return nil
    }
  }

  /// Adds a generated token's bytes; returns the constrained text (from the start on) once the pattern matches.
  mutating func append(_ piece: [UInt8]) -> String? {
    bytes += piece
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    guard let match = pattern.firstMatch(in: text, options: [.anchored], range: whole), match.range == whole else {
      return nil
    }
    let group = (1..<match.numberOfRanges).lazy.map { match.range(at: $0) }.first {
      $0.location != NSNotFound && $0.length > 0
    }
    guard let start = Range(group ?? whole, in: text) else { return nil }
    return String(text[start.lowerBound...])
  }
}
