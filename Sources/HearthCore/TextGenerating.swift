/// Anything that can answer a conversation as a stream of ``GenerationEvent``s: a local model, later a
/// remote server. The stream ends after `.done`, or throws a typed error of the provider.
public protocol TextGenerating: Sendable {
  /// Streams the assistant's answer to `messages`.
  ///
  /// Stopping the iteration (or cancelling the consuming task) cancels the generation.
  func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<
    GenerationEvent, any Error
  >
}
