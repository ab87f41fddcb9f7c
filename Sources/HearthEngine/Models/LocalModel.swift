public import Foundation
public import HearthCore
import HearthStore
import LlamaKit
import Synchronization

/// Which GGUF file to run and how.
public struct LocalModelOptions: Sendable, Hashable {
  /// The model file.
  public var path: String
  /// Context window in tokens; `nil` picks the smaller of 4096 and what the model was trained on.
  public var contextSize: Int?
  /// CPU threads; `nil` uses one per core.
  public var threads: Int?
  /// A chat template to use instead of the model's own (a llama.cpp template name or a template text).
  public var chatTemplate: String?
  /// Most prompt tokens evaluated in one step; `nil` uses 512.
  public var batchSize: Int?
  /// Generations run at once, each in a slot of its own with ``contextSize`` tokens; `nil` is 1.
  public var parallel: Int?
  /// `host:port` of rpc-server workers the layers are spread over; empty keeps the model here. The RPC
  /// protocol has no authentication: trusted networks only.
  public var rpcServers: [String] = []

  /// Where evaluated instruction prefixes are kept between runs; `nil` keeps none.
  public var prefixCacheDirectory: URL?

  /// Layers to run on a GPU: `auto` (the default) offloads what fits in its free memory; 0 keeps the model on
  /// the CPU. Without a GPU nothing is offloaded.
  public var gpuLayers: GPULayers = .auto

  /// Whether the file is read into the page cache before it loads (``PageCache/warm(_:)``), so that the first
  /// answer after a cold start does not wait on the disk page by page.
  public var prefetch = false

  /// The memory the model may take; the load is refused before it starts when the estimate exceeds it.
  /// `nil` skips the check.
  public var memoryBudget: MemoryBudget?

  /// Creates options for the model at `path`.
  public init(
    path: String, contextSize: Int? = nil, threads: Int? = nil, chatTemplate: String? = nil,
    batchSize: Int? = nil, memoryBudget: MemoryBudget? = nil
  ) {
    self.batchSize = batchSize
    self.path = path
    self.contextSize = contextSize
    self.threads = threads
    self.chatTemplate = chatTemplate
    self.memoryBudget = memoryBudget
  }
}

extension LocalModelOptions {
  /// Whether a model loaded with `self` is the one `other` asks for (the memory budget aside).
  func loadsTheSameModel(as other: LocalModelOptions) -> Bool {
    path == other.path && contextSize == other.contextSize && threads == other.threads
      && chatTemplate == other.chatTemplate && batchSize == other.batchSize && rpcServers == other.rpcServers
      && (parallel ?? 1) == (other.parallel ?? 1) && gpuLayers == other.gpuLayers
  }
}

/// A GGUF chat model running on this machine through llama.cpp, with one context of one or more slots whose
/// KV cache carries over from one generation to the next. Load it once; several engines (tests, benchmarks)
/// may share it.
public final class LocalModel: ChatModel {
  let session: LlamaSession
  /// Requests take turns on the context, as many at once as it has slots; engines sharing the model share
  /// the line.
  let line: GenerationQueue
  /// Vision projectors loaded for this model.
  let projectors = ProjectorShelf()
  /// How long loading the weights and creating the context took.
  public let loadTime: Duration
  /// What was asked for when it was loaded.
  public let options: LocalModelOptions

  init(session: LlamaSession, loadTime: Duration, options: LocalModelOptions? = nil) {
    self.session = session
    self.line = GenerationQueue(capacity: session.slotCount)
    self.loadTime = loadTime
    self.options =
      options
      ?? LocalModelOptions(path: session.model.path, contextSize: session.contextSize, threads: session.threads)
  }

  /// Loads the model and creates its context.
  /// - Throws: ``ModelTooLargeError`` when the estimate exceeds the memory budget; a typed error naming what is
  ///   wrong: a missing, damaged or unsupported file, a context size
  ///   the model cannot take, a chat template llama.cpp does not know.
  public static func load(_ options: LocalModelOptions) async throws -> LocalModel {
    // An unreadable header is left for the loader to report in its own words. Weights on RPC workers do not
    // count against this machine's memory, so the check is left to the workers then.
    if let budget = options.memoryBudget, options.rpcServers.isEmpty, let shape = try? ModelShape(path: options.path) {
      // Every slot has a window of its own.
      let slots = max(1, options.parallel ?? 1)
      let estimate = shape.estimate(contextSize: (options.contextSize ?? shape.defaultContext) * slots)
      if estimate.total > budget.bytes {
        throw ModelTooLargeError(
          model: URL(fileURLWithPath: options.path).lastPathComponent, estimate: estimate, budget: budget,
          largestContext: shape.largestContext(fitting: budget.bytes, upTo: (shape.trainedContext ?? 4096) * slots)
            .map { $0 / slots })
      }
    }
    let clock = ContinuousClock()
    let start = clock.now
    // Read ahead beside the load rather than before it: the load maps the file and reads its header meanwhile.
    async let warmed: PageCache.Warmed? = options.prefetch ? PageCache.warm(options.path) : nil
    let slots = max(1, options.parallel ?? 1)
    // With rpc-server workers, the workers are the devices: `auto` spreads every layer over them, as before.
    let gpuLayers =
      switch (options.rpcServers.isEmpty, options.gpuLayers) {
      case (false, .auto): -1
      case (false, .count(let count)): count
      case (true, let setting):
        GPUOffload.layers(setting, path: options.path, contextTokens: options.contextSize.map { $0 * slots })
      }
    let model = try await LlamaModel.load(
      path: options.path,
      options: ModelLoadOptions(
        gpuLayers: gpuLayers, chatTemplateOverride: options.chatTemplate, rpcServers: options.rpcServers))
    let session = try await LlamaSession.create(
      model: model,
      options: ContextOptions(
        contextSize: options.contextSize, slots: options.parallel ?? 1, batchSize: options.batchSize ?? 512,
        threads: options.threads,
        prefixCacheDirectory: options.prefixCacheDirectory))
    // Reading ahead only speeds the first answer: a read that fails (a file replaced meanwhile) leaves the
    // loaded model as good as without it.
    _ = try? await warmed
    return LocalModel(session: session, loadTime: clock.now - start, options: options)
  }

  /// The file the model came from.
  public var path: String { session.model.path }

  /// The file name, which is how requests and sessions name the model.
  public var name: String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  /// Where the weights went: layers on a GPU and the buffers holding them.
  var placement: ModelPlacement { session.model.placement }

  /// The name the model's header gives (`general.name`), or the file name.
  public var displayName: String { session.model.metadata.name }

  /// The number of weights llama.cpp counts.
  public var parameterCount: UInt64? { session.model.metadata.parameterCount }

  public var contextSize: Int { session.contextSize }

  /// Generations the model runs at once.
  public var slotCount: Int { session.slotCount }

  public var vocabulary: (any ModelVocabulary)? { session.model }

  /// CPU threads the model evaluates with.
  public var threads: Int { session.threads }

  /// Evaluates with `count` threads (at most ``threads``) from the next decode on.
  public func useThreads(_ count: Int) async { await session.useThreads(count) }

  /// The context's size, batch and threads as llama.cpp reports them.
  public var applied: (contextSize: Int, batchSize: Int, threads: Int) {
    let applied = session.applied
    return (applied.contextSize, applied.batchSize, applied.threads)
  }

  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    try session.chatPromptTokens(messages).count
  }

  /// Tokens of a plain text (no template, no special tokens); a rough count when it cannot be tokenized.
  public func countTokens(_ text: String) -> Int {
    (try? session.model.tokenize(text, addSpecial: false, parseSpecial: false).count) ?? text.count
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    session.respond(to: messages, options: options)
  }

  public func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    session.generate(prompt: prompt, options: options)
  }

  public func settle() async {
    await session.waitUntilIdle()
  }

  /// The figures of the most recent generation that has ended, including one whose consumer left early.
  public var lastUsage: GenerationUsage? { session.lastRecord?.usage }

  /// The figures of this model's load, for the profile's telemetry; its detail says how many layers went to a
  /// GPU, when any did.
  func loadRecord() -> TelemetryRecord {
    let offloaded = placement.offloadedLayers
    return TelemetryRecord(
      kind: .load, provider: .local, model: name, durationMs: loadTime.milliseconds,
      peakResidentBytes: SystemMemory.peakResidentBytes(), contextSize: contextSize, threads: threads,
      detail: offloaded > 0 ? "\(offloaded)/\(placement.offloadableLayers) layers on the GPU" : nil)
  }

  /// Forgets the cached state, so that the next prompt is evaluated from the start.
  public func clearCache() async {
    await session.clearCache()
  }
}

extension LocalModel {
  /// What the model says about an image through the vision projector at `projector` (loaded once per path),
  /// on the decode thread.
  /// - Throws: `LlamaError` when the projector cannot be used or the image cannot be read.
  func describe(_ image: Data, projector path: String, question: String) async throws -> String {
    let session = session
    let projectors = projectors
    return try await DecodeExecutor.shared.run {
      let projector = try projectors.load(path) { () throws(LlamaError) in
        try VisionProjector(path: path, model: session.model, threads: session.threads)
      }
      return try projector.describe(image, question: question)
    }
  }
}

/// The vision projectors loaded for a model, by path.
final class ProjectorShelf: Sendable {
  private let loaded = Mutex<[String: VisionProjector]>([:])

  func load(_ path: String, make: () throws(LlamaError) -> VisionProjector) throws(LlamaError) -> VisionProjector {
    if let found = loaded.withLock({ $0[path] }) { return found }
    let made = try make()
    loaded.withLock { $0[path] = made }
    return made
  }
}
