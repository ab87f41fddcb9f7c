import Foundation
public import HearthCore

/// How the local model runs: a preset, or the user's own numbers. Saved in the profile; flags on a command
/// line win over it for that command.
public struct RuntimeSettings: Sendable, Hashable, Codable {
  /// A named set of numbers.
  public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
    /// Least memory and CPU: a short context, half the cores, small prompt steps.
    case efficient
    /// The model's recommended context on every core.
    case balanced
    /// The longest conversations before older turns are summarised: up to 8192 tokens of context.
    case quality
    /// The user's own numbers.
    case custom
  }

  public var preset: Preset
  /// Context window in tokens; `nil` is the model's recommended one.
  public var contextSize: Int?
  /// CPU threads; `nil` is one per core.
  public var threads: Int?
  /// Most prompt tokens evaluated in one step; `nil` is 512.
  public var batchSize: Int?
  /// Requests answered at once, each with a context window of its own; `nil` is 1.
  public var parallel: Int?
  /// Whether the model file is read into the page cache before each load; `nil` is no.
  public var prefetch: Bool?
  /// Layers run on a GPU (``GPULayers``); `nil` is `auto`: what fits in the GPU's free memory, none without a GPU.
  public var gpuLayers: GPULayers?

  /// The fields the settings are read from and written as.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case preset, parallel, prefetch
    case contextSize = "context_size"
    case threads
    case batchSize = "batch_size"
    case gpuLayers = "gpu_layers"
  }

  /// Most requests answered at once.
  public static let maxParallel = 16

  public init(
    preset: Preset = .balanced, contextSize: Int? = nil, threads: Int? = nil, batchSize: Int? = nil,
    parallel: Int? = nil, gpuLayers: GPULayers? = nil
  ) {
    self.gpuLayers = gpuLayers
    self.parallel = parallel
    self.preset = preset
    self.contextSize = contextSize
    self.threads = threads
    self.batchSize = batchSize
  }

  /// The numbers of `preset` on a machine with `processors` cores (`custom` leaves them to the user).
  public static func preset(
    _ preset: Preset, processors: Int = Processors.available
  )
    -> RuntimeSettings
  {
    switch preset {
    // Every preset offloads what fits: a GPU is faster and frees the CPU whatever the preset weighs.
    case .efficient:
      RuntimeSettings(
        preset: .efficient, contextSize: 1024, threads: max(1, processors / 2), batchSize: 128, gpuLayers: .auto)
    case .balanced: RuntimeSettings(preset: .balanced, gpuLayers: .auto)
    case .quality: RuntimeSettings(preset: .quality, contextSize: 8192, batchSize: 512, gpuLayers: .auto)
    case .custom: RuntimeSettings(preset: .custom)
    }
  }

  /// Checks every number is one llama.cpp can take on this machine.
  public func validate(processors: Int = Processors.available) throws(InvalidParameterError) {
    if let contextSize, !(256...131_072).contains(contextSize) {
      throw .init(name: "context_size", value: "\(contextSize)", expected: "256 to 131072 tokens")
    }
    if let threads, !(1...max(1, processors * 2)).contains(threads) {
      throw .init(name: "threads", value: "\(threads)", expected: "1 to \(max(1, processors * 2))")
    }
    if let batchSize, !(32...4096).contains(batchSize) {
      throw .init(name: "batch_size", value: "\(batchSize)", expected: "32 to 4096 tokens")
    }
    if let parallel, !(1...Self.maxParallel).contains(parallel) {
      throw .init(name: "parallel", value: "\(parallel)", expected: "1 to \(Self.maxParallel) requests")
    }
  }

  /// The context a model gets when neither the settings nor its catalogue entry name one: 4,096 tokens on a
  /// machine with under 6 GB of memory, 8,192 otherwise.
  public static func machineContext(installedBytes: UInt64) -> Int {
    installedBytes < 6_000_000_000 ? 4096 : 8192
  }

  /// The options a load with these settings asks for, for a model whose recommended context is
  /// `recommended` and trained context `trained`, on a machine with `installedBytes` of memory: the settings'
  /// context, else the recommended one, else the one the base options carry, else the machine's
  /// (``machineContext(installedBytes:)``); never larger than the model was trained on.
  func options(
    for base: LocalModelOptions, recommended: Int?, trained: Int?,
    installedBytes: UInt64 = SystemMemory.installedBytes()
  ) -> LocalModelOptions {
    var options = base
    let wanted = contextSize ?? recommended ?? base.contextSize ?? Self.machineContext(installedBytes: installedBytes)
    options.contextSize = min(wanted, trained ?? wanted)
    options.threads = threads ?? base.threads
    options.batchSize = batchSize ?? base.batchSize
    options.parallel = parallel ?? base.parallel
    options.prefetch = prefetch ?? base.prefetch
    options.gpuLayers = gpuLayers ?? base.gpuLayers
    return options
  }
}

/// What applying settings would change, before they are applied: memory from the GGUF header; speed from
/// tests of both settings when they ran (`hearth models settings test`), else as a rough factor (generation
/// follows the threads up to the core count; prompt reading also the batch size).
public struct RuntimeImpact: Sendable, Hashable, Encodable {
  public struct Side: Sendable, Hashable, Encodable {
    public var contextSize: Int
    public var threads: Int
    public var batchSize: Int
    /// Requests answered at once, each with a window of ``contextSize``.
    public var parallel: Int = 1
    public var estimatedBytes: UInt64
    public var kvCacheBytes: UInt64
    /// Layers on a GPU: as loaded now, or as the settings would offload on the GPUs there are.
    public var gpuLayers = 0

    enum CodingKeys: String, CodingKey {
      case threads, parallel
      case gpuLayers = "gpu_layers"
      case contextSize = "context_size"
      case batchSize = "batch_size"
      case estimatedBytes = "estimated_bytes"
      case kvCacheBytes = "kv_cache_bytes"
    }
  }

  public var model: String
  public var current: Side
  public var proposed: Side
  /// Expected generation speed relative to now (1 = the same).
  public var generationSpeedFactor: Double
  /// Expected prompt reading speed relative to now.
  public var promptSpeedFactor: Double
  /// Where the speed factors come from.
  public var speedSource: SpeedSource
  /// Whether the proposed settings still fit the machine's memory and the chat's answers.
  public var risk: RuntimeRisk?

  /// `measured`: both settings were tested (`hearth models settings test`) and their speeds compared;
  /// `rough`: a guess from threads and batch size.
  public enum SpeedSource: String, Sendable, Hashable, Encodable {
    case measured, rough
  }

  enum CodingKeys: String, CodingKey {
    case model, current, proposed, risk
    case speedSource = "speed_source"
    case generationSpeedFactor = "generation_speed_factor"
    case promptSpeedFactor = "prompt_speed_factor"
  }

  static func speedFactors(from current: Side, to proposed: Side, processors: Int) -> (Double, Double) {
    func cores(_ threads: Int) -> Double { Double(max(1, min(threads, processors))) }
    let generation = cores(proposed.threads) / cores(current.threads)
    // Steps below 256 tokens leave the matrix kernels short of work; above it the gain is small.
    func batch(_ size: Int) -> Double { min(1, 0.6 + 0.4 * Double(min(size, 256)) / 256) }
    let prompt = generation * batch(proposed.batchSize) / batch(current.batchSize)
    return ((generation * 100).rounded() / 100, (prompt * 100).rounded() / 100)
  }
}
