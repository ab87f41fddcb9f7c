import Foundation
import HearthCore

/// `/find WORD` in `hearth chat`: the messages of the chat on screen that hold the words, each as a line with the
/// words marked and a little of what surrounds them.
enum ChatFind {
  static func lines(for query: String, in messages: [StoredMessage]) -> [String] {
    let query = query.trimmingCharacters(in: .whitespaces)
    guard !query.isEmpty else { return [] }
    var lines: [String] = []
    for (number, message) in messages.enumerated() where message.role != .system {
      let text = message.content.replacingOccurrences(of: "\n", with: " ")
      guard let hit = text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) else { continue }
      let before = text[..<hit.lowerBound].suffix(40)
      let after = text[hit.upperBound...].prefix(40)
      let lead = before.count < text.distance(from: text.startIndex, to: hit.lowerBound) ? "…" : ""
      let tail = after.count < text.distance(from: hit.upperBound, to: text.endIndex) ? "…" : ""
      let count = text.ranges(of: query, options: [.caseInsensitive, .diacriticInsensitive])
      lines.append(
        "  \(number + 1). \(message.role.rawValue): \(lead)\(before)\(Terminal.mark(String(text[hit])))\(after)\(tail)"
          + (count > 1 ? Terminal.dim("  (\(count) times)") : ""))
    }
    return lines
  }
}

extension String {
  /// How many times `query` occurs.
  fileprivate func ranges(of query: String, options: String.CompareOptions) -> Int {
    var count = 0
    var rest = startIndex..<endIndex
    while let found = range(of: query, options: options, range: rest) {
      count += 1
      rest = found.upperBound..<endIndex
    }
    return count
  }
}
