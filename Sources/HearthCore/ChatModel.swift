/// A model a conversation can be sent to: a local GGUF model now, a remote server later.
public protocol ChatModel: Sendable {
  /// A short name for the model (its file name for a local model).
  var name: String { get }
  /// The context window in tokens.
  var contextSize: Int { get }
  /// Tokens of the prompt `messages` render to, counted with the model's own tokenizer and template.
  func countTokens(_ messages: [ChatMessage]) throws -> Int
  /// Streams the assistant's answer to `messages`; stopping the iteration cancels the generation.
  func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<
    GenerationEvent, any Error
  >
  /// Returns once the generation started last has really ended, including one whose consumer stopped
  /// listening early (a stop sequence, a client that left): only then may the next one start.
  func settle() async
  /// The number of weights, when known.
  var parameterCount: UInt64? { get }
  /// Makes the model ready to count tokens and generate (loads it when it was unloaded); turns call it first,
  /// so a load's failure is the turn's error and the wait shows as the model loading.
  func prepare() async throws
}

extension ChatModel {
  /// A model whose generations end when their streams do has nothing to wait for.
  public func settle() async {}

  /// Unknown unless the model says.
  public var parameterCount: UInt64? { nil }

  /// A model that is always ready has nothing to prepare.
  public func prepare() async throws {}
}

/// Which model answered: the one on this machine or a remote server.
public enum Provider: String, Sendable, Hashable, Codable, CaseIterable {
  case local
  case remote
}
