public import HearthCore
public import LlamaKit
import Synchronization

/// A multi-turn chat held in memory on one ``LlamaSession``. Each turn re-renders the whole history with the
/// chat template; because the rendering of earlier turns does not change, the session reuses their cached
/// state and evaluates only the new turn.
public final class Conversation: Sendable {
  /// The session the conversation runs on.
  public let session: LlamaSession
  private let state: Mutex<[ChatMessage]>
  private let systemPrompt: String?

  /// Starts an empty conversation, optionally with a system prompt.
  public init(session: LlamaSession, systemPrompt: String? = nil) {
    self.session = session
    self.systemPrompt = systemPrompt
    self.state = Mutex(Self.initialHistory(systemPrompt))
  }

  /// The messages so far.
  public var history: [ChatMessage] { state.withLock { $0 } }

  /// Forgets every turn (the system prompt stays).
  public func reset() {
    state.withLock { $0 = Self.initialHistory(systemPrompt) }
  }

  /// Sends a user message and streams the answer. The answer is added to the history as it was received,
  /// including a partial one when the stream is cancelled; a turn that fails before any text is dropped.
  public func send(_ text: String, options: GenerationOptions) -> AsyncThrowingStream<GenerationEvent, any Error> {
    let messages = state.withLock { history in
      history.append(.user(text))
      return history
    }
    let upstream = session.respond(to: messages, options: options)
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: GenerationEvent.self, throwing: (any Error).self)
    let relay = Task { [self] in
      var answer = ""
      do {
        for try await event in upstream {
          if case .token(let piece) = event { answer += piece }
          continuation.yield(event)
        }
        state.withLock { $0.append(.assistant(answer)) }
        continuation.finish()
      } catch {
        // A turn that failed before saying anything leaves the history as it was.
        state.withLock { history in
          if answer.isEmpty { history.removeLast() } else { history.append(.assistant(answer)) }
        }
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in relay.cancel() }
    return stream
  }

  private static func initialHistory(_ systemPrompt: String?) -> [ChatMessage] {
    systemPrompt.map { [.system($0)] } ?? []
  }
}
