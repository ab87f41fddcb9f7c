import Foundation

/// Where a lazy grammar starts (``HearthCore/GenerationOptions/grammarTrigger``), found in the generated text
/// as llama.cpp finds it: the first time the pattern is found in everything generated so far (matched whole
/// when it is written `^…$`), the grammar applies from the pattern's first non-empty group on (from the
/// match's start when no group matched). Foundation's regular expressions stand in for the C++ library's
/// ECMAScript ones; they agree on the patterns Hearth writes (`[\s\S]*?(\[KIND:[\s\S]*)`).
struct LazyGrammarStart {
  private let pattern: NSRegularExpression
  private let whole: Bool
  private var bytes: [UInt8] = []

  /// `nil` when `pattern` is not a regular expression Foundation reads; llama.cpp still follows its trigger,
  /// only the text it forces is not known then.
  init?(pattern: String) {
    whole = pattern.hasPrefix("^") && pattern.hasSuffix("$")
    do {
      // A whole match, as std::regex_match asks for, ends at the text's very end; the wrapper adds no group.
      self.pattern = try NSRegularExpression(pattern: whole ? "(?:\(pattern.dropLast()))\\z" : pattern)
    } catch {
      return nil
    }
  }

  /// Adds a generated token's bytes; returns the constrained text (from the start on) once the pattern matches.
  mutating func append(_ piece: [UInt8]) -> String? {
    bytes += piece
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    let all = NSRange(text.startIndex..., in: text)
    guard let match = pattern.firstMatch(in: text, options: whole ? [.anchored] : [], range: all) else {
      return nil
    }
    let group = (1..<match.numberOfRanges).lazy.map { match.range(at: $0) }.first {
      $0.location != NSNotFound && $0.length > 0
    }
    guard let start = Range(group ?? match.range, in: text) else { return nil }
    return String(text[start.lowerBound...])
  }
}
