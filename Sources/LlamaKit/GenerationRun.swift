internal import CLlama
import HearthCore
import Synchronization

/// One generation on a session's sequence slot, advanced by the session's batch steps on the decode thread:
/// a chunk of its prompt per step while reading it, then one token per step (with drafted tokens after it when
/// it generates alone and drafts), in the same batch as every other run on the context. Cancellation and the
/// deadline are checked before every step, so a generation stops within one step of being asked to: one token,
/// with the tokens its grammar forced after it (up to ``maxForcedTokens``) or those of the draft kept.
final class GenerationRun: @unchecked Sendable {
  /// What a run puts into one batch.
  struct Input {
    let tokens: ArraySlice<Int32>
    /// The position of the first token in the run's sequence.
    let position: Int
    /// How many of the last tokens' logits are wanted: none inside the prompt, one at its end and for a
    /// generated token, and one more for each drafted token after it.
    let logitCount: Int
  }

  private enum Phase {
    case waiting
    case prefill(next: Int)
    /// Generating; `pending` is the token sampled last, to be evaluated in the next batch.
    case generate(pending: Int32?)
    case over
  }

  private let session: LlamaSession
  let prompt: [Int32]
  let options: GenerationOptions
  /// The order in which runs asked; earlier runs of the same priority go first.
  let arrival: UInt64
  /// The prompt's leading tokens kept on disk, if any.
  private let prefix: PrefixPlan?
  private let continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  private let onEnd: (@Sendable (GenerationRecord) -> Void)?
  private let cancelled = Atomic<Bool>(false)
  private let generatedCount = Atomic<Int>(0)
  private let generatedAtCancellation = Atomic<Int>(-1)
  private let clock = ContinuousClock()
  private let requested: ContinuousClock.Instant
  private let deadline: ContinuousClock.Instant?

  // Decode-thread state.
  private var phase = Phase.waiting
  /// The sequence slot the run holds, once admitted.
  private(set) var slot: Int?
  private var sampler: SamplerChain?
  private var assembler = UTF8Assembler()
  /// The prompt and answer so far, for drafts; `nil` when the run does not draft.
  private var lookup: PromptLookup?
  /// The drafted tokens of the input being evaluated.
  private var drafts: [Int32] = []
  /// The tokens of the input being evaluated that the grammar forced (recorded by the sampler already).
  private var forced: [Int32] = []
  /// Forced tokens still to be evaluated one per step (``ForcedText/stepwise``).
  private var queued: [Int32] = []
  /// Whether the pending token came from `queued`: a span is looked for after sampled tokens only, as batched.
  private var pendingWasQueued = false
  private var forcedCount = 0
  private var draftedCount = 0
  private var keptDraftCount = 0
  private var reused = 0
  /// Set when the prefix was not on disk: prefill stops there once to write it.
  private var savesPrefixAt: Int?
  private var prefillStarted: ContinuousClock.Instant?
  private var prefillEnded: ContinuousClock.Instant?
  private var firstToken: ContinuousClock.Instant?
  private var lastToken: ContinuousClock.Instant?

  init(
    session: LlamaSession, prompt: [Int32], options: GenerationOptions, prefix: PrefixPlan?, arrival: UInt64,
    continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation,
    onEnd: (@Sendable (GenerationRecord) -> Void)?
  ) {
    self.session = session
    self.prompt = prompt
    self.options = options
    self.prefix = prefix
    self.arrival = arrival
    self.continuation = continuation
    self.onEnd = onEnd
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

  /// Whether the run has ended (finished, stopped or failed).
  var isOver: Bool {
    if case .over = phase { return true }
    return false
  }

  /// Whether the run is reading its prompt (and so takes more than one token of a batch).
  var isReadingPrompt: Bool {
    if case .prefill = phase { return true }
    return false
  }

  /// Ends the run when it was cancelled or its time ran out; returns whether it is over.
  func endIfStopped() -> Bool {
    if isOver { return true }
    if cancelled.load(ordering: .acquiring) {
      finish(.cancelled)
    } else if let deadline, clock.now >= deadline {
      finish(.timeout)
    }
    return isOver
  }

  /// Starts the run on `slot`: keeps what the slot already holds of the prompt, restores the saved prefix
  /// when that goes further, and builds the sampler. A run that cannot start is over.
  func begin(on slot: Int) {
    self.slot = slot
    do throws(LlamaError) {
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
      reused = session.reusablePrefix(for: prompt, in: slot)
      // A slot that holds the conversation already has all its file could give.
      if let key = options.conversationState, session.slots[slot].holds != key {
        reused = session.restoreConversation(key, of: prompt, in: slot, over: reused)
      }
      if let prefix, reused < prefix.length {
        if session.restorePrefix(prefix, of: prompt, in: slot) {
          reused = prefix.length
        } else {
          // A file that could not be used leaves the slot as it was, or empty.
          reused = session.slots[slot].cachedTokens.count
          savesPrefixAt = prefix.length
        }
      }
      sampler = try SamplerChain(
        options.sampling, grammar: options.grammar, grammarTrigger: options.grammarTrigger,
        adjustments: LogitAdjustments(options), model: session.model, followsGrammar: forces)
      if options.draftTokens > 0, session.model.canDropLastTokens { lookup = PromptLookup(tokens: prompt) }
      reportProgress(processed: reused)
      phase = .prefill(next: reused)
    } catch {
      fail(error)
    }
  }

  /// What the run puts into the next batch, at most `budget` tokens; `nil` when it has nothing to add.
  /// A generating run adds the text its grammar forces after the pending token, and drafts when `mayDraft`.
  func input(budget: Int, mayDraft: Bool = true) -> Input? {
    guard budget > 0 else { return nil }
    switch phase {
    case .prefill(let next):
      var end = min(next + budget, prompt.count)
      if let stop = savesPrefixAt, next < stop { end = min(end, stop) }
      return Input(tokens: prompt[next..<end], position: next, logitCount: end == prompt.count ? 1 : 0)
    case .generate(let pending?):
      if queued.isEmpty, !pendingWasQueued {
        let span = forcedSpan(after: pending, room: budget - 1)
        if options.forcedText == .stepwise { queued = span } else { forced = span }
      }
      if !forced.isEmpty {
        return Input(tokens: ([pending] + forced)[...], position: position, logitCount: 1)
      }
      // Not after a queued token: batched, it had no step of its own to draft in.
      drafts = mayDraft && queued.isEmpty && !pendingWasQueued ? draft(room: budget - 1) : []
      return Input(tokens: ([pending] + drafts)[...], position: position, logitCount: 1 + drafts.count)
    case .waiting, .generate(nil), .over:
      return nil
    }
  }

  private var position: Int { slot.map { session.slots[$0].cachedTokens.count } ?? 0 }

  /// Most forced tokens added to one batch.
  static let maxForcedTokens = 32

  /// Whether text the grammar forces is written without sampling: not when asked not to, nor with
  /// log probabilities, which need every token's logits.
  private var forces: Bool { options.grammar != nil && options.forcedText != .sampled && options.logprobs == nil }

  /// The tokens the grammar forces after `pending`, within `room` and the answer's and the context's limits,
  /// recorded by the sampler as generated; empty when it forces none.
  private func forcedSpan(after pending: Int32, room: Int) -> [Int32] {
    guard forces, let sampler else { return [] }
    let limit = min(
      room, Self.maxForcedTokens, options.maxNewTokens - generated - 1, session.contextSize - position - 2)
    guard limit > 0 else { return [] }
    let text = sampler.forcedText(limit: ForcedSpan.maxCharacters)
    guard !text.isEmpty else { return [] }
    var span: [Int32] = []
    for token in ForcedSpan.tokens(after: pending, forced: text, model: session.model).prefix(limit) {
      guard sampler.force(token) else { break }
      span.append(token)
    }
    return span
  }

  /// Tokens to check after the pending one: a draft within `room`, the answer's and the context's limits.
  private func draft(room: Int) -> [Int32] {
    guard let lookup else { return [] }
    let limit = min(
      options.draftTokens, room, options.maxNewTokens - generated - 1, session.contextSize - position - 2)
    return lookup.draft(limit: limit)
  }

  /// After the batch holding `input` was evaluated: `logits` is the batch index of its last token's logits
  /// when they were asked for. Reads the next token from them and hands it to the consumer.
  func evaluated(_ input: Input, logits: Int32?) {
    guard let slot else { return }
    session.slots[slot].cachedTokens.append(contentsOf: input.tokens)
    if case .prefill = phase {
      let end = input.position + input.tokens.count
      if let prefix, end == savesPrefixAt {
        session.savePrefix(prefix, in: slot)
        savesPrefixAt = nil
      }
      reportProgress(processed: end)
      guard end == prompt.count else {
        phase = .prefill(next: end)
        return
      }
      // A GPU evaluates the batch after llama_decode returns: wait for it, so the prompt's time is its own and
      // not the first token's (on the CPU the decode has already finished and this returns at once).
      LlamaBackend.unlessExiting { llama_synchronize(session.context) }
      prefillEnded = clock.now
      phase = .generate(pending: nil)
    }
    guard let logits else { return }
    pendingWasQueued = !queued.isEmpty
    if !queued.isEmpty {
      // The next forced token is the next pending one, as the batch would have had it.
      forcedCount += 1
      return take(queued.removeFirst())
    }
    if !forced.isEmpty {
      let span = forced
      forced = []
      forcedCount += span.count
      // Within the answer's and the context's limits (see forcedSpan), so none of them ends the run.
      for token in span { take(token) }
      guard !isOver else { return }
      return next(from: logits)
    }
    guard !drafts.isEmpty else { return next(from: logits) }
    // Each drafted token is kept while it is the token the model picks after the ones before it.
    let checked = drafts
    drafts = []
    // Counted as they are known, so a run that ends inside the loop reports them in its usage.
    draftedCount += checked.count
    var kept = 0
    for index in 0...checked.count {
      next(from: logits + Int32(index))
      // A pick after which the grammar forces text stays pending, as without drafts, for its span to follow.
      guard index < checked.count, case .generate(let picked?) = phase, picked == checked[index],
        sampler?.forcedText(limit: 1).isEmpty ?? true
      else { break }
      kept += 1
      keptDraftCount += 1
    }
    lookup?.verified(drafted: checked.count, kept: kept)
    // The cache holds the pending token and every draft; what follows the kept ones was never written.
    let keptEnd = input.position + 1 + kept
    if kept < checked.count, !session.dropTokens(of: slot, from: keptEnd) {
      fail(.decodeFailed(code: -1, position: keptEnd))
    }
  }

  private func next(from logits: Int32) {
    guard let sampler else { return finish(.endOfGeneration) }
    let token = sampler.sample(from: session.context, index: logits)
    if !options.ignoresEndOfGeneration, session.model.isEndOfGeneration(token) {
      return finish(.endOfGeneration)
    }
    if let alternatives = options.logprobs,
      let figures = session.logprob(of: token, alternatives: alternatives, index: logits)
    {
      continuation.yield(.logprob(figures))
    }
    take(token)
  }

  /// Hands a generated token (sampled, or forced by the grammar) to the consumer.
  private func take(_ token: Int32) {
    generatedCount.add(1, ordering: .releasing)
    lastToken = clock.now
    if firstToken == nil { firstToken = lastToken }
    lookup?.append(token)
    let text = assembler.append(session.model.pieceBytes(of: token))
    if !text.isEmpty { continuation.yield(.token(text)) }
    if generated >= options.maxNewTokens { return finish(.maxTokens) }
    if position >= session.contextSize { return finish(.contextFull) }
    phase = .generate(pending: token)
  }

  private func reportProgress(processed: Int) {
    guard options.reportsPromptProgress, let started = prefillStarted else { return }
    continuation.yield(
      .promptProgress(
        PromptProgress(total: prompt.count, cached: reused, processed: processed, elapsed: clock.now - started)))
  }

  private var usage: GenerationUsage {
    let prefillEnd = prefillEnded ?? clock.now
    var usage = GenerationUsage(
      promptTokens: prompt.count,
      reusedPromptTokens: reused,
      prefilledTokens: prefillEnded == nil ? 0 : prompt.count - reused,
      generatedTokens: generated,
      prefillDuration: prefillStarted.map { prefillEnd - $0 } ?? .zero,
      timeToFirstToken: firstToken.map { $0 - requested },
      generationDuration: firstToken.flatMap { first in lastToken.map { $0 - first } } ?? .zero
    )
    if draftedCount > 0 {
      usage.draftedTokens = draftedCount
      usage.keptDraftTokens = keptDraftCount
    }
    if forcedCount > 0 { usage.forcedTokens = forcedCount }
    return usage
  }

  private func finish(_ reason: StopReason) {
    guard !isOver else { return }
    phase = .over
    sampler = nil
    let tail = assembler.flush()
    if !tail.isEmpty { continuation.yield(.token(tail)) }
    let usage = self.usage
    let atCancellation = generatedAtCancellation.load(ordering: .acquiring)
    let record = GenerationRecord(
      stopReason: reason, usage: usage, tokensAfterCancellation: atCancellation < 0 ? nil : generated - atCancellation)
    if let slot, let key = options.conversationState {
      session.slots[slot].unsaved = key
      session.slots[slot].holds = key
    }
    session.runEnded(self, record: record)
    // Before the stream ends, so whoever sees its end finds the end reported too.
    onEnd?(record)
    continuation.yield(.usage(usage))
    continuation.yield(.done(reason))
    continuation.finish()
  }

  /// Ends the run with `error`. A failed decode may leave partial state in the run's sequence: the session
  /// forgets it rather than trust it.
  func fail(_ error: LlamaError) {
    guard !isOver else { return }
    phase = .over
    sampler = nil
    if case .decodeFailed = error, let slot { session.forget(slot: slot) }
    let record = GenerationRecord(stopReason: nil, usage: usage, tokensAfterCancellation: nil)
    session.runEnded(self, record: record)
    onEnd?(record)
    continuation.finish(throwing: error)
  }
}
