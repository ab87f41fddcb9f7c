/// Keeps action blocks out of streamed text, for every surface that shows an answer as it is written (the
/// terminal, the web app through the server's `shown` text): their cards are shown once the answer ends.
/// Text that could still turn out to start a block (`[CALE…`) is held back until it is clear; a block is
/// dropped through its closing `]`, strings and escapes honoured. A whole stored answer's blocks are
/// ``ActionBlockParser``'s.
public struct ActionBlockFilter: Sendable {
  private var held = ""
  private var inBlock = false
  private var depth = 0
  private var strings = JSONStringTracker()
  private var sawObject = false

  private static let openings = ActionKind.allCases.map { "[\($0.rawValue):" }

  public init() {}

  /// Whether the text fed so far ends inside a block: a change is being written out, and nothing of it shows
  /// until its card does.
  public var isInBlock: Bool { inBlock }

  /// A whole answer's text as it is shown, its blocks left out for their cards.
  public static func shown(_ text: String) -> String {
    var filter = ActionBlockFilter()
    return filter.feed(text) + filter.finish()
  }

  /// The part of `text` that is safe to show now.
  public mutating func feed(_ text: String) -> String {
    var shown = ""
    for character in text {
      if inBlock {
        skip(character)
        continue
      }
      held.append(character)
      if Self.openings.contains(where: { $0.hasPrefix(held) }) {
        if Self.openings.contains(held) {
          inBlock = true
          held = ""
        }
        continue
      }
      // Not a block after all: show what was held, keeping a new `[` back.
      if character == "[" {
        shown += held.dropLast()
        held = "["
      } else {
        shown += held
        held = ""
      }
    }
    return shown
  }

  /// What is still held when the answer ends (text that only looked like the start of a block).
  public mutating func finish() -> String {
    defer { held = "" }
    return inBlock ? "" : held
  }

  private mutating func skip(_ character: Character) {
    if strings.isInString(character) { return }
    switch character {
    case "{":
      depth += 1
      sawObject = true
    case "}": depth -= 1
    case "]" where depth <= 0 && sawObject:
      inBlock = false
      depth = 0
      sawObject = false
    default: break
    }
  }
}
