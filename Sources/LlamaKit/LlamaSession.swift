internal import CLlama
import Foundation
public import HearthCore
import Synchronization

/// An inference context on a model with one or more sequence *slots*: each generation reads its prompt and
/// generates in a slot of its own, and every step evaluates one batch holding a token (or a chunk of prompt)
/// of every running generation, as llama-server's slots do. A slot's cached state (its part of the KV cache)
/// carries over from one generation to the next, so a prompt that extends an earlier one only evaluates what
/// is new.
///
/// All llama.cpp work of a session runs on the shared ``DecodeExecutor``; the session's decode state is
/// touched only there. Generations beyond the slots wait for one, requests people wait on before background
/// work (``HearthCore/GenerationOptions/isBackground``).
public final class LlamaSession: @unchecked Sendable {
  /// The model this session runs.
  public let model: LlamaModel
  /// Size of each slot's context window in tokens: the most one generation can hold.
  public let contextSize: Int
  /// Generations that run at once, each in a sequence of its own.
  public let slotCount: Int
  /// CPU threads used for evaluation.
  public let threads: Int
  /// Most tokens evaluated per decode call.
  public let batchSize: Int

  let context: OpaquePointer
  /// Where this session keeps evaluated prompt prefixes, if anywhere.
  let prefixCache: PrefixCache?
  private let threadpool: OpaquePointer?
  let executor: DecodeExecutor
  // Decode-thread state.
  var batch: llama_batch
  /// Each slot's tokens whose state is in the KV cache, in order from position 0.
  var slots: [ContextSlot]
  /// Runs holding a slot.
  var running: [GenerationRun] = []
  /// Counts batch steps, so the slot used longest ago is the one given away first.
  var stepCount: UInt64 = 0

  let status = Mutex(Status())

  struct Status {
    /// Runs waiting for a slot, in the order they asked.
    var waiting: [GenerationRun] = []
    /// Runs waiting or running.
    var unfinished = 0
    /// Whether the session's batch step is queued on the executor.
    var stepping = false
    var arrivals: UInt64 = 0
    var lastRecord: GenerationRecord?
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// Creates a context on `model`.
  /// - Throws: ``LlamaError/invalidContextSize(requested:trainedMaximum:)`` for a size of zero or beyond
  ///   what the model was trained on; ``LlamaError/contextCreationFailed(reason:)`` when llama.cpp refuses.
  public static func create(
    model: LlamaModel, options: ContextOptions = .init()
  ) async throws(LlamaError)
    -> LlamaSession
  {
    let trained = model.metadata.trainedContextLength
    let size = options.contextSize ?? ContextOptions.defaultContextSize(trained: trained)
    guard size > 0, size <= trained else {
      throw .invalidContextSize(requested: size, trainedMaximum: trained)
    }
    let threads = options.threads ?? Processors.available
    guard threads > 0, threads <= 512 else {
      throw .invalidParameter(.init(name: "threads", value: "\(threads)", expected: "1 to 512"))
    }
    guard options.batchSize > 0 else {
      throw .invalidParameter(.init(name: "batch size", value: "\(options.batchSize)", expected: "a positive count"))
    }
    guard (1...ContextOptions.maxSlots).contains(options.slots) else {
      throw .invalidParameter(
        .init(name: "parallel slots", value: "\(options.slots)", expected: "1 to \(ContextOptions.maxSlots)"))
    }
    let executor = DecodeExecutor.shared
    return try await executor.perform { () throws(LlamaError) -> LlamaSession in
      try LlamaSession(
        model: model, contextSize: size, slots: options.slots, threads: threads,
        batchSize: max(min(options.batchSize, size * options.slots), options.slots), warmUp: options.warmUp,
        prefixCache: options.prefixCacheDirectory.map { PrefixCache(directory: $0, model: model) },
        executor: executor)
    }
  }

  private init(
    model: LlamaModel, contextSize: Int, slots: Int, threads: Int, batchSize: Int, warmUp: Bool,
    prefixCache: PrefixCache?,
    executor: DecodeExecutor
  )
    throws(LlamaError)
  {
    var params = llama_context_default_params()
    // Each slot has a window of its own (a cache per sequence, as llama-server's slots have): a slot's
    // attention never reads the cells other slots keep for their next turns, which with one shared pool made a
    // lone request about a tenth slower.
    params.n_ctx = UInt32(contextSize * slots)
    params.n_batch = UInt32(batchSize)
    params.n_ubatch = UInt32(min(batchSize, 512))
    params.n_seq_max = UInt32(slots)
    params.kv_unified = false
    params.n_threads = Int32(threads)
    params.n_threads_batch = Int32(threads)
    params.no_perf = true
    let (created, errors) = LlamaLogCapture.capturingErrors { llama_init_from_model(model.pointer, params) }
    guard let created else {
      throw .contextCreationFailed(reason: errors.last ?? "llama.cpp gave no reason")
    }
    self.model = model
    self.contextSize = min(contextSize, Int(llama_n_ctx_seq(created)))
    self.slotCount = slots
    self.slots = Array(repeating: ContextSlot(), count: slots)
    self.threads = threads
    self.batchSize = batchSize
    self.context = created
    self.prefixCache = prefixCache
    self.executor = executor
    self.batch = llama_batch_init(Int32(batchSize), 0, 1)
    // A persistent pool keeps worker threads alive between tokens instead of starting them per graph.
    self.threadpool = hearth_cpu_threadpool_new(Int32(threads))
    if let threadpool {
      llama_attach_threadpool(created, threadpool, nil)
    }
    if warmUp {
      try decode([model.warmUpToken], at: 0, wantLogits: true)
      llama_memory_clear(llama_get_memory(created), true)
    }
  }

  /// What llama.cpp's context holds, read back from it: it may round or clamp what it was asked for.
  public var applied: AppliedContext {
    AppliedContext(
      contextSize: Int(llama_n_ctx(context)), batchSize: Int(llama_n_batch(context)),
      threads: Int(llama_n_threads(context)))
  }

  deinit {
    let (batch, context, threadpool) = (batch, context, threadpool)
    LlamaBackend.unlessExiting {
      llama_batch_free(batch)
      llama_free(context)
      hearth_cpu_threadpool_free(threadpool)
    }
  }

  /// Streams a continuation of `prompt` (already tokenized, including any special tokens).
  ///
  /// The longest prefix of the prompt a free slot still holds is reused; only the rest is evaluated. Stopping
  /// the iteration or cancelling the consuming task stops generation before the next token. `onEnd` hears how
  /// the generation ended once it has (on the decode thread), including one whose consumer left early.
  public func generate(
    prompt: [Int32], options: GenerationOptions, onEnd: (@Sendable (GenerationRecord) -> Void)? = nil
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    generate(prompt: prompt, options: options, prefix: nil, onEnd: onEnd)
  }

  private func generate(
    prompt: [Int32], options: GenerationOptions, prefix: PrefixPlan?,
    onEnd: (@Sendable (GenerationRecord) -> Void)?
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: GenerationEvent.self, throwing: (any Error).self)
    do throws(InvalidParameterError) {
      try options.validate()
      if let slot = options.slot, !(0..<slotCount).contains(slot) {
        throw InvalidParameterError(name: "slot", value: "\(slot)", expected: "0 to \(slotCount - 1)")
      }
    } catch {
      continuation.finish(throwing: LlamaError.invalidParameter(error))
      onEnd?(.refused)
      return stream
    }
    let arrival = status.withLock { state in
      defer { state.arrivals += 1 }
      return state.arrivals
    }
    let run = GenerationRun(
      session: self, prompt: prompt, options: options, prefix: prefix, arrival: arrival,
      continuation: continuation, onEnd: onEnd)
    continuation.onTermination = { termination in
      if case .cancelled = termination { run.cancel() }
    }
    admit(run)
    return stream
  }

  /// Streams the assistant's answer to `messages`, formatted with the model's chat template. When the
  /// options name a reusable prefix and the session keeps prefixes, its state is read from disk (or written
  /// there once evaluated).
  public func respond(
    to messages: [ChatMessage], options: GenerationOptions, onEnd: (@Sendable (GenerationRecord) -> Void)? = nil
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    do {
      let (text, prompt) = try chatPrompt(messages)
      return generate(
        prompt: prompt, options: options, prefix: prefixPlan(prompt: prompt, text: text, options: options),
        onEnd: onEnd)
    } catch {
      onEnd?(.refused)
      return AsyncThrowingStream { $0.finish(throwing: error) }
    }
  }

  /// The tokens of `messages` as formatted for the model, ready for ``generate(prompt:options:onEnd:)``.
  public func chatPromptTokens(_ messages: [ChatMessage]) throws(LlamaError) -> [Int32] {
    try chatPrompt(messages).tokens
  }

  /// `messages` as formatted for the model, and its tokens.
  private func chatPrompt(_ messages: [ChatMessage]) throws(LlamaError) -> (text: String, tokens: [Int32]) {
    let text = try model.formatChat(messages)
    return (text, try model.tokenize(text, addSpecial: true, parseSpecial: true))
  }

  /// Counts and stop reason of the most recent finished generation, including one whose consumer left.
  public var lastRecord: GenerationRecord? { status.withLock { $0.lastRecord } }

  /// Generations running or waiting for a slot.
  public var unfinishedGenerations: Int { status.withLock { $0.unfinished } }

  /// Returns once no generation is running or waiting on this session, and what going idle writes (the
  /// conversations' states) is written.
  public func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = status.withLock { state in
        let idle = state.unfinished == 0 && !state.stepping
        if !idle { state.idleWaiters.append(continuation) }
        return idle
      }
      if idle { continuation.resume() }
    }
  }

  /// Evaluates with `count` threads from the next decode on (clamped to 1…``threads``, the threads the session
  /// was made with, which its thread pool holds): fewer while the machine is hot, all again after.
  public func useThreads(_ count: Int) async {
    let count = Int32(min(max(1, count), threads))
    await executor.perform { [self] in
      guard llama_n_threads(context) != count else { return }
      llama_set_n_threads(context, count, count)
    }
  }

  /// Forgets the cached state of every slot no generation holds, so their next prompts are evaluated from
  /// scratch; running generations keep theirs.
  public func clearCache() async {
    await executor.perform { [self] in
      for slot in slots.indices where !running.contains(where: { $0.slot == slot }) {
        forget(slot: slot)
      }
    }
  }
}

/// How a generation ended.
public struct GenerationRecord: Sendable, Hashable {
  /// Why it stopped, or `nil` when it failed with an error.
  public var stopReason: StopReason?
  /// Its counts and timings.
  public var usage: GenerationUsage
  /// Tokens generated after cancellation was requested (`nil` when it was not); at most one step's: 1, or 1 and
  /// the drafted tokens kept in that step.
  public var tokensAfterCancellation: Int?

  /// A generation refused before it started (bad options, a prompt that cannot be formatted).
  static let refused = GenerationRecord(
    stopReason: nil,
    usage: GenerationUsage(
      promptTokens: 0, reusedPromptTokens: 0, prefilledTokens: 0, generatedTokens: 0, prefillDuration: .zero,
      timeToFirstToken: nil, generationDuration: .zero),
    tokensAfterCancellation: nil)
}
