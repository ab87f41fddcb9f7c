import Foundation
import HearthCore
import HearthEngine

/// Prints a turn's events as they arrive and returns the final message.
enum TurnPrinter {
  static func print(_ events: AsyncStream<ChatEvent>, quiet: Bool = false) async -> StoredMessage? {
    var final: StoredMessage?
    var thinking = false
    for await event in events {
      switch event {
      case .started: break
      case .trimmed(let dropped):
        if !quiet {
          Terminal.writeError(Terminal.dim("(conversation trimmed: \(dropped) earlier messages summarised)") + "\n")
        }
      case .thinking(let text):
        guard !quiet else { continue }
        if !thinking { Terminal.write(Terminal.dim("thinking: ")) }
        thinking = true
        Terminal.write(Terminal.dim(text))
      case .answer(let text):
        guard !quiet else { continue }
        if thinking {
          Terminal.write("\n")
          thinking = false
        }
        Terminal.write(text)
      case .finished(let message): final = message
      }
    }
    return final
  }

  /// A notice for an answer that did not end normally.
  static func notice(for message: StoredMessage) -> String? {
    switch message.state {
    case .failed: "[failed: \(message.error ?? "unknown error")]"
    case .cancelled: "[stopped]"
    case .timedOut: "[stopped: time limit reached; the partial answer was kept]"
    case .interrupted: "[interrupted]"
    case .complete, .generating: message.stopReason.flatMap { $0.notice }
    }
  }
}
