public import HearthCore
public import LlamaKit

/// A GGUF model on this machine, answering through one ``LlamaSession`` whose cache carries over turns.
public struct LocalChatModel: ChatModel {
  /// The session the model runs on.
  public let session: LlamaSession

  public init(session: LlamaSession) {
    self.session = session
  }

  public var name: String {
    String(session.model.path.split(separator: "/").last ?? Substring(session.model.path))
  }

  public var contextSize: Int { session.contextSize }

  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    try session.chatPromptTokens(messages).count
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<
    GenerationEvent, any Error
  > {
    session.respond(to: messages, options: options)
  }
}
