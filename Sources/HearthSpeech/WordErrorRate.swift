/// Word error rate: the word substitutions, deletions and insertions that turn a reference into a
/// hypothesis, over the reference's word count. Case and punctuation are ignored, as is usual when scoring
/// speech recognition ("Americans," and "americans" are the same word).
public enum WordErrorRate {
  /// The error rate of `hypothesis` against `reference` (0 is perfect; may exceed 1 with many insertions).
  public static func of(_ hypothesis: String, against reference: String) -> Double {
    let expected = words(reference)
    let heard = words(hypothesis)
    guard !expected.isEmpty else { return heard.isEmpty ? 0 : 1 }
    return Double(editDistance(expected, heard)) / Double(expected.count)
  }

  /// Lower-cased words with punctuation removed; apostrophes inside words are kept ("don't").
  public static func words(_ text: String) -> [String] {
    text.lowercased().split(whereSeparator: { $0.isWhitespace || "-–—/".contains($0) }).compactMap { word in
      let kept = word.filter { $0.isLetter || $0.isNumber || $0 == "'" }
      let trimmed = kept.trimmingPrefixAndSuffix("'")
      return trimmed.isEmpty ? nil : trimmed
    }
  }

  private static func editDistance(_ a: [String], _ b: [String]) -> Int {
    var previous = Array(0...b.count)
    for (i, word) in a.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: b.count)
      for (j, other) in b.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (word == other ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}

extension String {
  fileprivate func trimmingPrefixAndSuffix(_ character: Character) -> String {
    var slice = Substring(self)
    while slice.first == character { slice = slice.dropFirst() }
    while slice.last == character { slice = slice.dropLast() }
    return String(slice)
  }
}
