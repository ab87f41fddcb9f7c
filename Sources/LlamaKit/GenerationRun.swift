internal import CLlama
import HearthCore
import Synchronization

/// One generation on a session, advanced one step at a time on the decode thread: a prompt batch per step
/// while reading the prompt, then one token per step. Cancellation and the deadline are checked before every
/// step, so a generation stops within one token of being asked to.
final class GenerationRun: @unchecked Sendable {
  private enum Phase {
    case start
    case prefill(next: Int)
    case generate
  }

  private let session: LlamaSession
  private let prompt: [Int32]
  private let options: GenerationOptions
  /// The prompt's leading tokens kept on disk, if any.
  private let prefix: PrefixPlan?
  private let continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  private let cancelled = Atomic<Bool>(false)
  private let generatedCount = Atomic<Int>(0)
  private let generatedAtCancellation = Atomic<Int>(-1)
  private let clock = ContinuousClock()
  private let requested: ContinuousClock.Instant
  private let deadline: ContinuousClock.Instant?

  // Decode-thread state.
  private var phase = Phase.start
  private var sampler: SamplerChain?
  private var assembler = UTF8Assembler()
  private var reused = 0
  /// Set when the prefix was not on disk: prefill stops there once to write it.
  private var savesPrefixAt: Int?
  private var prefillStarted: ContinuousClock.Instant?
  private var prefillEnded: ContinuousClock.Instant?
  private var firstToken: ContinuousClock.Instant?
  private var lastToken: ContinuousClock.Instant?

  init(
    session: LlamaSession, prompt: [Int32], options: GenerationOptions, prefix: PrefixPlan?,
    continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) {
    self.session = session
    self.prompt = prompt
    self.options = options
    self.prefix = prefix
    self.continuation = continuation
    let now = ContinuousClock.now
    self.requested = now
    self.deadline = options.timeout.map { now + $0 }
  }

  /// Asks the run to stop before its next step. Safe from any thread.
  func cancel() {
    _ = generatedAtCancellation.compareExchange(
      expected: -1, desired: generatedCount.load(ordering: .acquiring), ordering: .acquiringAndReleasing)
    cancelled.store(true, ordering: .releasing)
  }

  private var generated: Int { generatedCount.load(ordering: .relaxed) }

  /// Advances the run by one step; returns `true` while there is more to do.
  func step() -> Bool {
    if cancelled.load(ordering: .acquiring) { return finish(.cancelled) }
    if let deadline, clock.now >= deadline { return finish(.timeout) }
    do throws(LlamaError) {
      switch phase {
      case .start:
        try start()
        return true
      case .prefill(let next):
        try prefill(from: next)
        return true
      case .generate:
        return try generateOne()
      }
    } catch {
      return fail(error)
    }
  }

  private func start() throws(LlamaError) {
    guard !prompt.isEmpty else { throw .emptyPrompt }
    guard prompt.count < session.contextSize else {
      throw .promptTooLong(promptTokens: prompt.count, contextSize: session.contextSize)
    }
    prefillStarted = clock.now
    let vocabularySize = session.model.metadata.vocabularySize
    if let token = options.logitBias.keys.first(where: { Int($0) >= vocabularySize }) {
      throw .invalidParameter(
        .init(name: "logit bias token", value: "\(token)", expected: "a token id below \(vocabularySize)"))
    }
    reused = session.reusablePrefix(for: prompt)
    if let prefix, reused < prefix.length {
      if session.restorePrefix(prefix, of: prompt) {
        reused = prefix.length
      } else {
        // A file that could not be used leaves the cache as it was, or empty.
        reused = session.cachedTokens.count
        savesPrefixAt = prefix.length
      }
    }
    sampler = try SamplerChain(
      options.sampling, grammar: options.grammar, grammarTrigger: options.grammarTrigger,
      adjustments: LogitAdjustments(options), model: session.model)
    reportProgress(processed: reused)
    phase = .prefill(next: reused)
  }

  private func prefill(from next: Int) throws(LlamaError) {
    var end = min(next + session.batchSize, prompt.count)
    if let stop = savesPrefixAt, next < stop { end = min(end, stop) }
    try session.decode(prompt[next..<end], at: next, wantLogits: end == prompt.count)
    session.cachedTokens.append(contentsOf: prompt[next..<end])
    if let prefix, end == savesPrefixAt {
      session.savePrefix(prefix)
      savesPrefixAt = nil
    }
    reportProgress(processed: end)
    if end == prompt.count {
      prefillEnded = clock.now
      phase = .generate
    } else {
      phase = .prefill(next: end)
    }
  }

  private func reportProgress(processed: Int) {
    guard options.reportsPromptProgress, let started = prefillStarted else { return }
    continuation.yield(
      .promptProgress(
        PromptProgress(total: prompt.count, cached: reused, processed: processed, elapsed: clock.now - started)))
  }

  private func generateOne() throws(LlamaError) -> Bool {
    guard let sampler else { return finish(.endOfGeneration) }
    let token = session.sample(with: sampler)
    if !options.ignoresEndOfGeneration, session.model.isEndOfGeneration(token) {
      return finish(.endOfGeneration)
    }
    generatedCount.add(1, ordering: .releasing)
    lastToken = clock.now
    if firstToken == nil { firstToken = lastToken }
    if let alternatives = options.logprobs, let figures = session.logprob(of: token, alternatives: alternatives) {
      continuation.yield(.logprob(figures))
    }
    let text = assembler.append(session.model.pieceBytes(of: token))
    if !text.isEmpty { continuation.yield(.token(text)) }
    if generated >= options.maxNewTokens { return finish(.maxTokens) }
    let position = session.cachedTokens.count
    if position >= session.contextSize { return finish(.contextFull) }
    try session.decode([token], at: position, wantLogits: true)
    session.cachedTokens.append(token)
    return true
  }

  private var usage: GenerationUsage {
    let prefillEnd = prefillEnded ?? clock.now
    return GenerationUsage(
      promptTokens: prompt.count,
      reusedPromptTokens: reused,
      prefilledTokens: prefillEnded == nil ? 0 : prompt.count - reused,
      generatedTokens: generated,
      prefillDuration: prefillStarted.map { prefillEnd - $0 } ?? .zero,
      timeToFirstToken: firstToken.map { $0 - requested },
      generationDuration: firstToken.flatMap { first in lastToken.map { $0 - first } } ?? .zero
    )
  }

  private func finish(_ reason: StopReason) -> Bool {
    sampler = nil
    let tail = assembler.flush()
    if !tail.isEmpty { continuation.yield(.token(tail)) }
    let usage = self.usage
    let atCancellation = generatedAtCancellation.load(ordering: .acquiring)
    session.runFinished(
      GenerationRecord(
        stopReason: reason, usage: usage, tokensAfterCancellation: atCancellation < 0 ? nil : generated - atCancellation
      ))
    continuation.yield(.usage(usage))
    continuation.yield(.done(reason))
    continuation.finish()
    return false
  }

  private func fail(_ error: LlamaError) -> Bool {
    sampler = nil
    if case .decodeFailed = error {
      // A failed decode may leave partial state in the cache: forget it rather than trust it.
      llama_memory_clear(llama_get_memory(session.context), true)
      session.cachedTokens.removeAll()
    }
    session.runFinished(GenerationRecord(stopReason: nil, usage: usage, tokensAfterCancellation: nil))
    continuation.finish(throwing: error)
    return false
  }
}
