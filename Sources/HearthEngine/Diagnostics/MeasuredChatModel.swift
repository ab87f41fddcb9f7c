import Foundation
import HearthCore
import HearthStore
import Synchronization

/// A model whose every generation leaves a figures-only record: speed, time to first token, token counts,
/// the stop reason or the kind of error, and the process's peak memory. What was said is never recorded.
final class MeasuredChatModel: ChatModel {
  let base: any ChatModel
  private let record: @Sendable (TelemetryRecord) -> Void

  init(_ base: any ChatModel, record: @escaping @Sendable (TelemetryRecord) -> Void) {
    self.base = base
    self.record = record
  }

  var name: String { base.name }
  var contextSize: Int { base.contextSize }
  var parameterCount: UInt64? { base.parameterCount }
  func writesFromFacts() async -> Bool { await base.writesFromFacts() }
  var vocabulary: (any ModelVocabulary)? { base.vocabulary }

  func countTokens(_ messages: [ChatMessage]) throws -> Int {
    try base.countTokens(messages)
  }

  func settle() async {
    await base.settle()
  }

  func prepare() async throws {
    try await base.prepare()
  }

  func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    measured(base.generate(messages: messages, options: options))
  }

  func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    measured(base.complete(prompt: prompt, options: options))
  }

  private func measured(
    _ inner: AsyncThrowingStream<GenerationEvent, any Error>
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    let (name, record) = (base.name, record)
    let figures = Mutex<(usage: GenerationUsage?, reason: StopReason?)>((nil, nil))
    // Read in the consumer's task: a token costs no hand-over to a task in between.
    return inner.observing { event in
      switch event {
      case .usage(let usage): figures.withLock { $0.usage = usage }
      case .done(let stop): figures.withLock { $0.reason = stop }
      case .token, .logprob, .promptProgress: break
      }
    } end: { error in
      let (usage, reason) = figures.withLock { $0 }
      guard let error else {
        // Recorded before the stream ends, so whoever waits for the end finds the figures in place.
        record(Self.generationRecord(model: name, usage: usage, reason: reason ?? .cancelled))
        return
      }
      if !(error is CancellationError) {
        record(
          TelemetryRecord(
            kind: .failure, provider: usage?.provider, model: name,
            peakResidentBytes: SystemMemory.peakResidentBytes(), detail: ErrorKind.of(error)))
      }
    }
  }

  static func generationRecord(model: String, usage: GenerationUsage?, reason: StopReason) -> TelemetryRecord {
    TelemetryRecord(
      kind: .generation, provider: usage?.provider ?? .local, model: model, promptTokens: usage?.promptTokens,
      generatedTokens: usage?.generatedTokens, firstTokenMs: usage?.timeToFirstToken?.milliseconds,
      tokensPerSecond: usage.map(\.generationTokensPerSecond).flatMap { $0 > 0 ? $0 : nil },
      prefillTokensPerSecond: usage.map(\.prefillTokensPerSecond).flatMap { $0 > 0 ? $0 : nil },
      peakResidentBytes: SystemMemory.peakResidentBytes(), detail: reason.rawValue)
  }
}

/// The kind of an error, as its type and case names: `RemoteError.unreachable`. Never its message, which may
/// quote what the user wrote.
enum ErrorKind {
  static func of(_ error: any Error) -> String {
    let type = String(describing: Swift.type(of: error))
    let mirror = Mirror(reflecting: error)
    // A case with a payload shows its name as the child's label; one without shows nothing content-free.
    if mirror.displayStyle == .enum, let label = mirror.children.first?.label {
      return "\(type).\(label)"
    }
    return type
  }
}
