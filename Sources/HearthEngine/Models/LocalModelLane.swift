import HearthCore
import LlamaKit
import Synchronization

/// One request's view of a local model whose slots several requests share: generations go to the shared
/// context, but ``settle()`` waits for this request's own generations only, and ``lastUsage`` is this
/// request's, so a request that ends never waits on, or reads the figures of, another one running beside it.
final class LocalModelLane: ChatModel {
  let model: LocalModel
  private let state = Mutex(State())

  private struct State {
    var unfinished = 0
    var lastUsage: GenerationUsage?
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  init(_ model: LocalModel) {
    self.model = model
  }

  var name: String { model.name }
  var contextSize: Int { model.contextSize }
  var parameterCount: UInt64? { model.parameterCount }
  var vocabulary: (any ModelVocabulary)? { model.vocabulary }

  func countTokens(_ messages: [ChatMessage]) throws -> Int {
    try model.countTokens(messages)
  }

  func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    started()
    return model.session.respond(to: messages, options: options) { [self] in ended($0) }
  }

  func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    started()
    return model.session.generate(prompt: prompt, options: options) { [self] in ended($0) }
  }

  /// Returns once every generation this lane started has ended.
  func settle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state in
        if state.unfinished > 0 { state.waiters.append(continuation) }
        return state.unfinished == 0
      }
      if idle { continuation.resume() }
    }
  }

  /// The figures of this lane's most recent generation that has ended.
  var lastUsage: GenerationUsage? { state.withLock { $0.lastUsage } }

  private func started() {
    state.withLock { $0.unfinished += 1 }
  }

  private func ended(_ record: GenerationRecord) {
    let waiters = state.withLock { state in
      state.unfinished -= 1
      // A generation refused before it started read no prompt and leaves the last figures as they were.
      if record.usage.promptTokens > 0 { state.lastUsage = record.usage }
      guard state.unfinished == 0 else { return [CheckedContinuation<Void, Never>]() }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    waiters.forEach { $0.resume() }
  }
}
