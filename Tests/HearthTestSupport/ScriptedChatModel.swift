public import HearthCore
import Synchronization

/// A chat model that answers from a script instead of weights, for tests of what surrounds a model — turns,
/// routing, second passes, thinking — in milliseconds. Each answer is the script's reply to the conversation it
/// was given, streamed piece by piece (a pause between pieces when asked, so that a test can stop one midway),
/// then the ending given. It keeps every conversation it was asked to answer.
public final class ScriptedChatModel: ChatModel {
  public let name: String
  public let contextSize: Int
  public let parameterCount: UInt64?
  private let reply: @Sendable ([ChatMessage]) -> [String]
  private let ending: StopReason
  private let pause: Duration?
  private let asked = Mutex<[[ChatMessage]]>([])
  private let askedWith = Mutex<[GenerationOptions]>([])
  /// How long ``prepare()`` takes, as a model loading would (a stop can then arrive before any answer).
  public let preparation: Duration?

  /// Answers every conversation with `reply`'s pieces.
  public init(
    name: String = "scripted", contextSize: Int = 4096, parameterCount: UInt64? = nil,
    ending: StopReason = .endOfGeneration, pause: Duration? = nil, preparation: Duration? = nil,
    reply: @escaping @Sendable ([ChatMessage]) -> [String]
  ) {
    self.preparation = preparation
    self.name = name
    self.contextSize = contextSize
    self.parameterCount = parameterCount
    self.ending = ending
    self.pause = pause
    self.reply = reply
  }

  /// Answers every conversation with the same pieces.
  public convenience init(
    name: String = "scripted", contextSize: Int = 4096, parameterCount: UInt64? = nil, pieces: [String],
    ending: StopReason = .endOfGeneration, pause: Duration? = nil, preparation: Duration? = nil
  ) {
    self.init(
      name: name, contextSize: contextSize, parameterCount: parameterCount, ending: ending, pause: pause,
      preparation: preparation
    ) { _ in pieces }
  }

  /// Waits ``preparation``, or not at all; a cancelled wait ends early, as a cancelled load would.
  public func prepare() async throws {
    if let preparation { try? await Task.sleep(for: preparation) }
  }

  /// Every conversation the model was asked to answer, oldest first.
  public var conversations: [[ChatMessage]] { asked.withLock { $0 } }

  /// The options of every generation, oldest first (beside ``conversations``).
  public var options: [GenerationOptions] { askedWith.withLock { $0 } }

  /// About four characters a token, and a few for each message's framing.
  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    messages.reduce(0) { $0 + $1.content.count / 4 + 4 }
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    asked.withLock { $0.append(messages) }
    askedWith.withLock { $0.append(options) }
    let (pieces, ending, pause) = (reply(messages), ending, pause)
    return AsyncThrowingStream { continuation in
      let task = Task {
        do {
          for piece in pieces {
            if let pause { try await Task.sleep(for: pause) }
            continuation.yield(.token(piece))
          }
          continuation.yield(.done(ending))
          continuation.finish()
        } catch {
          continuation.yield(.done(.cancelled))
          continuation.finish()
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
