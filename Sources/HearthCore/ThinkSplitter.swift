/// Separates a model's thinking (`<think>…</think>`) from its answer while the text streams in.
///
/// Tags may arrive split across any number of pieces; text that could be the start of a tag is held back
/// until it is clear. Text before an opening tag is answer; a stray closing tag outside thinking is dropped;
/// when the stream ends inside thinking, what was thought is kept as thinking.
public struct ThinkSplitter: Sendable {
  /// A run of text routed to one channel.
  public enum Segment: Sendable, Hashable {
    /// Part of the visible answer.
    case answer(String)
    /// Part of the model's reasoning.
    case thinking(String)
  }

  private let openTag: [Character]
  private let closeTag: [Character]
  private var pending: [Character] = []
  /// Whether the text being received is thinking.
  public private(set) var isThinking: Bool

  /// Creates a splitter. `startsInThinking` suits templates that open the thinking block in the prompt.
  public init(openTag: String = "<think>", closeTag: String = "</think>", startsInThinking: Bool = false) {
    self.openTag = Array(openTag)
    self.closeTag = Array(closeTag)
    self.isThinking = startsInThinking
  }

  /// Routes a piece of streamed text; returns what is now certain, in order.
  public mutating func feed(_ text: String) -> [Segment] {
    pending.append(contentsOf: text)
    var segments: [Segment] = []
    var emitted: [Character] = []
    var index = 0

    func flush(_ thinking: Bool) {
      guard !emitted.isEmpty else { return }
      let run = String(emitted)
      emitted.removeAll()
      if thinking, case .thinking(let previous)? = segments.last {
        segments[segments.count - 1] = .thinking(previous + run)
      } else if !thinking, case .answer(let previous)? = segments.last {
        segments[segments.count - 1] = .answer(previous + run)
      } else {
        segments.append(thinking ? .thinking(run) : .answer(run))
      }
    }

    while index < pending.count {
      if pending[index] == "<" {
        switch match(at: index) {
        case .partial:
          flush(isThinking)
          pending.removeFirst(index)
          return segments
        case .open:
          flush(isThinking)
          if !isThinking { isThinking = true }
          index += openTag.count
          continue
        case .close:
          flush(isThinking)
          isThinking = false
          index += closeTag.count
          continue
        case .none:
          break
        }
      }
      emitted.append(pending[index])
      index += 1
    }
    flush(isThinking)
    pending.removeAll()
    return segments
  }

  /// Ends the stream: text held back as a possible tag is released to the current channel.
  public mutating func finish() -> [Segment] {
    defer { pending.removeAll() }
    guard !pending.isEmpty else { return [] }
    let rest = String(pending)
    return [isThinking ? .thinking(rest) : .answer(rest)]
  }

  private enum TagMatch { case none, partial, open, close }

  private func match(at index: Int) -> TagMatch {
    let available = pending.count - index
    for (tag, kind) in [(openTag, TagMatch.open), (closeTag, TagMatch.close)] {
      let compared = min(available, tag.count)
      guard pending[index..<index + compared].elementsEqual(tag[0..<compared]) else { continue }
      return compared == tag.count ? kind : .partial
    }
    return .none
  }
}
