import Foundation
public import HearthCore
import HearthStore
import LlamaKit
import Logging
import Synchronization

/// The local chat model of a running engine, as one `ChatModel` that stays put while what is behind it
/// changes: the chosen model is loaded when a turn needs it, switched when the user chooses another (or a
/// request names one), and unloaded after an idle timeout, under memory pressure or after repeated
/// timeouts. Loads and unloads happen one at a time; callers hold ``line`` so none happens under a running
/// generation.
public final class LocalModelHost: ChatModel, ParkableModel {
  /// A model to load: the options and, when the registry knows it, its id.
  public struct Choice: Sendable, Hashable {
    public var options: LocalModelOptions
    public var id: String?

    public init(options: LocalModelOptions, id: String? = nil) {
      self.options = options
      self.id = id
    }

    /// The model's file name.
    public var fileName: String { URL(fileURLWithPath: options.path).lastPathComponent }
  }

  /// Generations that end on their time limit this many times in a row unload the model.
  public static let timeoutsBeforeUnload = 3

  /// Requests take turns on the model; engines sharing a loaded model share its line.
  let line: GenerationQueue
  private let loads = GenerationQueue()
  private let environment: [String: String]
  private let record: @Sendable (TelemetryRecord) -> Void
  /// Where failures no caller hears go: a model that could not come back, a tokenizer that could not load.
  private let logger: Logger
  private let now: @Sendable () -> Duration
  private let state: Mutex<State>

  private struct State {
    var loaded: LocalModel?
    var active: Choice
    var lastUsed: Duration
    var timeoutsInARow = 0
    /// The weights were let go while a remote server answers; ``tokenizer`` counts tokens meanwhile.
    var parked = false
    var tokenizer: LlamaModel?
    /// The weights of the model loaded last (of ``active``), known while it is let go.
    var parameters: (path: String, count: UInt64?)?
  }

  /// A host for `active`, with `loaded` already in memory when given. The environment supplies
  /// `HEARTH_MEMORY_LIMIT` for the budget of each later load; `now` is a monotonic clock.
  init(
    active: Choice, loaded: LocalModel?, environment: [String: String],
    record: @escaping @Sendable (TelemetryRecord) -> Void, logger: Logger = Logger(label: "hearth.model"),
    now: @escaping @Sendable () -> Duration = LocalModelHost.monotonicNow
  ) {
    self.logger = logger
    self.line = loaded?.line ?? GenerationQueue()
    self.environment = environment
    self.record = record
    self.now = now
    self.state = Mutex(
      State(
        loaded: loaded, active: active, lastUsed: now(),
        parameters: loaded.map { (active.options.path, $0.parameterCount) }))
  }

  static let monotonicNow: @Sendable () -> Duration = {
    let clock = ContinuousClock()
    let start = clock.now
    return { clock.now - start }
  }()

  /// The model in memory now, if any.
  public var loaded: LocalModel? { state.withLock { $0.loaded } }

  /// The model turns are answered with when no request names another.
  public var active: Choice { state.withLock { $0.active } }

  public var name: String { loaded?.name ?? active.fileName }
  public var contextSize: Int { loaded?.contextSize ?? active.options.contextSize ?? 4096 }
  public var parameterCount: UInt64? { loaded?.parameterCount }

  /// From the weights of the model loaded last when it is let go: a parked large model still writes from facts.
  public func writesFromFacts() async -> Bool {
    let count = state.withLock { state in
      state.loaded?.parameterCount
        ?? state.parameters.flatMap { $0.path == state.active.options.path ? $0.count : nil }
    }
    return (count ?? 0) >= factWriterParameters
  }

  /// The loaded model's vocabulary, or the tokenizer kept while the weights are let go.
  public var vocabulary: (any ModelVocabulary)? {
    if let loaded { return loaded.vocabulary }
    let (tokenizer, path) = state.withLock { ($0.tokenizer, $0.active.options.path) }
    return tokenizer?.path == path ? tokenizer : nil
  }

  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    if let loaded { return try loaded.countTokens(messages) }
    let (tokenizer, path) = state.withLock { ($0.tokenizer, $0.active.options.path) }
    guard let tokenizer, tokenizer.path == path else { throw ChatError.modelNotReady }
    return try tokenizer.tokenize(try tokenizer.formatChat(messages), addSpecial: true, parseSpecial: true).count
  }

  public func prepare() async throws {
    _ = try await model(for: active)
  }

  public func settle() async {
    await loaded?.settle()
  }

  /// `choice` in memory, loading it (and unloading another first) when needed. Call with ``line`` held alone.
  /// - Throws: ``ModelTooLargeError`` when it would not fit; the loader's error for a bad file.
  func model(for choice: Choice) async throws -> LocalModel {
    // Replacing is allowed, so there is always a model.
    try await model(for: choice, replacing: true)!
  }

  /// `choice` in memory for a caller holding ``line`` beside others: loaded when no model is, `nil` when
  /// another model is loaded (only a caller holding the line alone may replace it).
  func modelBesideOthers(for choice: Choice) async throws -> LocalModel? {
    try await model(for: choice, replacing: false)
  }

  private func model(for choice: Choice, replacing: Bool) async throws -> LocalModel? {
    try await loads.run {
      if let loaded = self.loaded, loaded.options.loadsTheSameModel(as: choice.options) {
        self.touch()
        return loaded
      }
      guard replacing || self.loaded == nil else { return nil }
      await self.dropLoaded(reason: "switch")
      var options = choice.options
      options.memoryBudget = try MemoryBudget.current(environment: self.environment)
      options.prefixCacheDirectory =
        options.prefixCacheDirectory ?? HearthPaths.prefixCache(environment: self.environment)
      let model = try await LocalModel.load(options)
      await self.line.setCapacity(model.slotCount)
      self.record(model.loadRecord())
      self.state.withLock {
        $0.loaded = model
        $0.lastUsed = self.now()
        $0.timeoutsInARow = 0
        $0.parked = false
        $0.parameters = (choice.options.path, model.parameterCount)
      }
      return model
    }
  }

  /// Makes `choice` the active model and loads it; when it cannot be loaded the previous one stays active
  /// (and is loaded again). Call with ``line`` held, so that no generation runs meanwhile.
  func activate(_ choice: Choice) async throws {
    let previous = active
    state.withLock { $0.active = choice }
    do {
      _ = try await model(for: choice)
    } catch {
      state.withLock { $0.active = previous }
      // The previous model comes back if it can; the caller hears why the new one could not.
      do {
        _ = try await model(for: previous)
      } catch let failure {
        logger.error(
          "the previous model could not be loaded again", metadata: ["error": "\(ErrorKind.of(failure))"])
      }
      throw error
    }
  }

  /// Makes `choice` the active model without loading it: the next turn loads it (new settings for the same
  /// model apply on the next turn).
  func choose(_ choice: Choice) {
    state.withLock { $0.active = choice }
  }

  /// Unloads the model (waiting for its generation to wind down). Call with ``line`` held.
  func unload(reason: String) async {
    _ = try? await loads.run { await self.dropLoaded(reason: reason) }
  }

  private func dropLoaded(reason: String) async {
    state.withLock { $0.parked = false }
    guard let model = loaded else { return }
    await model.settle()
    state.withLock { $0.loaded = nil }
    record(TelemetryRecord(kind: .unload, provider: .local, model: model.name, detail: reason))
  }

  /// Whether the weights are let go while a remote server answers.
  var isParked: Bool { state.withLock { $0.parked && $0.loaded == nil } }

  /// Lets the weights go while a remote server answers, keeping a tokenizer (the vocabulary alone, a few MB)
  /// to count tokens. Call with ``line`` held.
  func park() async {
    _ = try? await loads.run {
      guard let model = self.loaded else { return }
      let active = self.active.options
      let kept = self.state.withLock { $0.tokenizer }
      // A tokenizer that cannot be loaded leaves the model in place: turns must still be counted.
      let tokenizer: LlamaModel
      if let kept, kept.path == active.path {
        tokenizer = kept
      } else {
        do {
          tokenizer = try await LlamaModel.load(
            path: active.path,
            options: ModelLoadOptions(chatTemplateOverride: active.chatTemplate, vocabularyOnly: true))
        } catch {
          self.logger.warning(
            "the tokenizer could not be loaded; the model stays in memory",
            metadata: ["error": "\(ErrorKind.of(error))"])
          return
        }
      }
      await model.settle()
      self.state.withLock {
        $0.loaded = nil
        $0.tokenizer = tokenizer
        $0.parked = true
      }
      self.record(TelemetryRecord(kind: .unload, provider: .local, model: model.name, detail: "remote answers"))
    }
  }

  func parkWhenIdle(if stillWanted: @escaping @Sendable () async -> Bool) async {
    guard await line.depth == 0 else { return }
    do {
      try await line.run {
        guard await stillWanted() else { return }
        await self.park()
      }
    } catch {
      // Cancelled while waiting in line: the engine is closing, and the weights go with it.
    }
  }

  /// Starts loading the weights again, in turn behind the requests in line.
  func warm() {
    guard isParked else { return }
    Task {
      do {
        try await self.line.run { _ = try await self.model(for: self.active) }
      } catch {
        // The next turn loads it again and hears why it cannot.
        self.logger.warning("the model could not be loaded again", metadata: ["error": "\(ErrorKind.of(error))"])
      }
    }
  }

  private func touch() {
    state.withLock { $0.lastUsed = now() }
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    .producing { continuation in
      let model = try await self.model(for: self.active)
      try await self.relay(model.generate(messages: messages, options: options), to: continuation)
    }
  }

  public func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    .producing { continuation in
      let model = try await self.model(for: self.active)
      try await self.relay(model.complete(prompt: prompt, options: options), to: continuation)
    }
  }

  /// Passes a generation on, noting its end: one that ran out of time counts towards an unload.
  func relay(
    _ events: AsyncThrowingStream<GenerationEvent, any Error>,
    to continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    var reason: StopReason?
    for try await event in events {
      if case .done(let stop) = event { reason = stop }
      continuation.yield(event)
    }
    // After the stream, not at its last event: an unload waits for the generation to have ended.
    if let reason { await ended(reason) }
  }

  /// Notes how a generation ended; the third time limit in a row unloads the model, which a later turn
  /// loads again afresh.
  func ended(_ reason: StopReason) async {
    let unload = state.withLock { state -> Bool in
      state.lastUsed = now()
      state.timeoutsInARow = reason == .timeout ? state.timeoutsInARow + 1 : 0
      return state.timeoutsInARow >= Self.timeoutsBeforeUnload
    }
    if unload { await self.unload(reason: "\(Self.timeoutsBeforeUnload) timeouts in a row") }
  }

  /// Unloads the model when nothing has used it for `idle`, or when less than `pressure` bytes are
  /// available, provided no request is running or waiting. Returns why it unloaded, if it did.
  @discardableResult
  func unloadIfIdle(
    after idle: Duration?, pressure: UInt64? = nil,
    available: @Sendable () -> UInt64 = { SystemMemory.available().bytes }
  ) async -> String? {
    guard loaded != nil, await line.depth == 0 else { return nil }
    let quiet = idle.map { now() - state.withLock { $0.lastUsed } >= $0 } ?? false
    let squeezed = pressure.map { available() < $0 } ?? false
    guard quiet || squeezed else { return nil }
    let reason = quiet ? "idle" : "memory pressure"
    try? await line.run { await self.unload(reason: reason) }
    return reason
  }
}
