import HearthCore
import Synchronization

/// Grammars compiled for ``GrammarFollower``, kept by their text: a chat's action grammar or a client's schema
/// is the same from request to request, and compiling one with long counted repetitions takes milliseconds.
final class GrammarCache: Sendable {
  static let shared = GrammarCache()
  /// Most grammars kept; the one used longest ago goes first.
  static let capacity = 16

  private struct Entry {
    /// `nil` for a grammar the follower cannot read, so it is not read again.
    var grammar: GBNFGrammar?
    var lastUsed: UInt64
  }

  private let entries = Mutex<(byText: [String: Entry], uses: UInt64)>(([:], 0))

  /// `text` compiled, or `nil` when the follower cannot read it (llama.cpp's token references, for one).
  func compiled(_ text: String) -> GBNFGrammar? {
    if let known = entries.withLock({ state -> Entry? in
      state.uses += 1
      state.byText[text]?.lastUsed = state.uses
      return state.byText[text]
    }) {
      return known.grammar
    }
    let grammar: GBNFGrammar?
    do {
      grammar = try GBNFGrammar(text)
    } catch {
      // Only advice is lost: llama.cpp's grammar still holds the answer to the text.
      grammar = nil
    }
    entries.withLock { state in
      if state.byText.count >= Self.capacity,
        let oldest = state.byText.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
      {
        state.byText[oldest] = nil
      }
      state.byText[text] = Entry(grammar: grammar, lastUsed: state.uses)
    }
    return grammar
  }
}
