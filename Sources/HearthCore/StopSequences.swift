import Foundation

/// Watches streamed text for stop sequences that may arrive split across pieces. Text that could still be
/// the start of a stop sequence is held back until it is known not to be one, so a stop sequence is never
/// shown, not even in part.
public struct StopSequenceMatcher: Sendable {
  private let sequences: [String]
  private var pending = ""
  /// Whether a stop sequence was seen; nothing more should be generated.
  public private(set) var isStopped = false
  /// The stop sequence that was seen (the earliest in the text, the first given when two start together).
  public private(set) var matched: String?

  /// Watches for `sequences`; empty strings are ignored.
  public init(_ sequences: [String]) {
    self.sequences = sequences.filter { !$0.isEmpty }
  }

  /// Whether there is anything to watch for.
  public var isActive: Bool { !sequences.isEmpty }

  /// Takes the next piece and returns the text that is safe to show now.
  public mutating func feed(_ piece: String) -> String {
    guard !isStopped else { return "" }
    guard isActive else { return piece }
    pending += piece
    if let (range, sequence) = earliestMatch() {
      isStopped = true
      matched = sequence
      let shown = String(pending[..<range.lowerBound])
      pending = ""
      return shown
    }
    let kept = longestSuffixThatStartsASequence()
    let shown = String(pending.dropLast(kept))
    pending = String(pending.suffix(kept))
    return shown
  }

  /// The text still held back, once the stream ends without a stop sequence.
  public mutating func flush() -> String {
    defer { pending = "" }
    return isStopped ? "" : pending
  }

  private func earliestMatch() -> (Range<String.Index>, String)? {
    sequences.compactMap { sequence in pending.range(of: sequence).map { ($0, sequence) } }
      .min { $0.0.lowerBound < $1.0.lowerBound }
  }

  private func longestSuffixThatStartsASequence() -> Int {
    var best = 0
    for sequence in sequences {
      for length in stride(from: min(sequence.count - 1, pending.count), to: best, by: -1)
      where sequence.hasPrefix(pending.suffix(length)) {
        best = length
        break
      }
    }
    return best
  }
}
