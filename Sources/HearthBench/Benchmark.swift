import HearthCore
import LlamaKit

/// Compares Hearth with llama.cpp's own tools on the same model, threads and token counts, in one run.
///
/// Throughput: llama-bench and Hearth alternate over many short rounds, one repetition each, the order
/// flipping every round, so that drift in the machine's speed affects both alike. Each round gives one
/// Hearth ÷ llama-bench ratio from measurements taken seconds apart; the reported ratio is the median of
/// those, which a stray slow repetition on either side does not move. Time to first token: `hearth ask` and `llama-completion`
/// are launched alternately on the same prompt, timing launch to first output byte.
public struct Benchmark: Sendable {
  /// What to measure.
  public struct Configuration: Sendable {
    /// The model file.
    public var modelPath: String
    /// CPU threads for both sides.
    public var threads: Int
    /// Prompt length of the prompt-processing test.
    public var promptTokens: Int = 512
    /// Tokens of the generation test.
    public var generatedTokens: Int = 128
    /// Layers both sides put on a GPU (`-ngl` for llama.cpp's tools); 0 keeps them on the CPU.
    public var gpuLayers: Int = 0
    /// Rounds; each measures both sides once.
    public var rounds: Int = 12
    /// Launches per side of the time-to-first-token test (0 skips it).
    public var firstTokenLaunches: Int = 3
    /// The prompt of the time-to-first-token test.
    public var firstTokenPrompt = "What is the capital of France?"
    /// The system prompt both tools are given in the time-to-first-token test, so they evaluate the same
    /// tokens (Hearth's own would otherwise add its identity and the date).
    public var firstTokenSystemPrompt = "You are a helpful assistant."
    /// The `hearth` executable to launch for the time-to-first-token test.
    public var hearthExecutable: String

    /// Creates a configuration with llama-bench's default sizes.
    public init(modelPath: String, threads: Int, hearthExecutable: String) {
      self.modelPath = modelPath
      self.threads = threads
      self.hearthExecutable = hearthExecutable
    }
  }

  /// Whether llama.cpp has a GPU to offload to here (a bench then compares both tools with every layer on it).
  public static var gpuPresent: Bool { !GPUDevices.available().isEmpty }

  /// Progress lines for the user, e.g. "running llama-bench".
  public typealias Progress = @Sendable (String) -> Void

  private let configuration: Configuration
  private let tools: LlamaTools

  /// Creates a benchmark.
  public init(configuration: Configuration, tools: LlamaTools = LlamaTools()) {
    self.configuration = configuration
    self.tools = tools
  }

  /// Runs every measurement.
  public func run(progress: Progress) async throws -> BenchmarkReport {
    let config = configuration
    let llamaBench = LlamaBenchRunner(executable: try tools.locate("llama-bench"))
    let completion = config.firstTokenLaunches > 0 ? try tools.locate("llama-completion") : nil

    progress("loading \(config.modelPath)")
    let model = try await LlamaModel.load(
      path: config.modelPath, options: ModelLoadOptions(gpuLayers: config.gpuLayers))
    let session = try await LlamaSession.create(
      model: model,
      options: ContextOptions(
        contextSize: config.promptTokens + config.generatedTokens + 1, batchSize: max(config.promptTokens, 1),
        threads: config.threads))
    let hearth = InProcessBenchmark(session: session)
    try await hearth.warmUp(promptTokens: config.promptTokens)

    var llamaPrompt = Samples(samples: [])
    var llamaGeneration = Samples(samples: [])
    var hearthPrompt = Samples(samples: [])
    var hearthGeneration = Samples(samples: [])
    for round in 1...config.rounds {
      progress("round \(round) of \(config.rounds)")
      for measuresLlamaNow in round % 2 == 1 ? [true, false] : [false, true] {
        if measuresLlamaNow {
          let result = try await llamaBench.run(
            model: config.modelPath, threads: config.threads, gpuLayers: config.gpuLayers,
            promptTokens: config.promptTokens, generatedTokens: config.generatedTokens, repetitions: 1)
          llamaPrompt = llamaPrompt + result.prompt
          llamaGeneration = llamaGeneration + result.generation
        } else {
          hearthPrompt = hearthPrompt + (try await hearth.promptThroughput(tokens: config.promptTokens, repetitions: 1))
          hearthGeneration =
            hearthGeneration + (try await hearth.generationThroughput(tokens: config.generatedTokens, repetitions: 1))
        }
      }
    }

    var firstToken: FirstTokenComparison?
    if let completion {
      progress("time to first token: hearth ask vs llama-completion")
      let prompt = try model.formatChat([.system(config.firstTokenSystemPrompt), .user(config.firstTokenPrompt)])
      firstToken = try await FirstTokenComparison.measure(
        configuration: config, llamaCompletion: completion, formattedPrompt: prompt)
    }
    return BenchmarkReport(
      model: config.modelPath, modelName: model.metadata.name, threads: config.threads,
      offloadedLayers: model.placement.offloadedLayers, offloadableLayers: model.placement.offloadableLayers,
      promptTokens: config.promptTokens, generatedTokens: config.generatedTokens,
      hearthPrompt: hearthPrompt, llamaBenchPrompt: llamaPrompt,
      hearthGeneration: hearthGeneration, llamaBenchGeneration: llamaGeneration, firstToken: firstToken)
  }
}

/// Everything `hearth bench` measured.
public struct BenchmarkReport: Sendable {
  public var model: String
  public var modelName: String
  public var threads: Int
  /// Layers Hearth's load put on a GPU, of those it could.
  public var offloadedLayers: Int
  public var offloadableLayers: Int
  public var promptTokens: Int
  public var generatedTokens: Int
  /// Prompt tokens per second.
  public var hearthPrompt: Samples
  public var llamaBenchPrompt: Samples
  /// Generated tokens per second.
  public var hearthGeneration: Samples
  public var llamaBenchGeneration: Samples
  public var firstToken: FirstTokenComparison?

  /// Median over rounds of Hearth's prompt throughput ÷ llama-bench's in the same round.
  public var promptRatio: Double { Self.pairedRatio(hearthPrompt, llamaBenchPrompt) }
  /// Median over rounds of Hearth's generation throughput ÷ llama-bench's in the same round.
  public var generationRatio: Double { Self.pairedRatio(hearthGeneration, llamaBenchGeneration) }

  static func pairedRatio(_ hearth: Samples, _ llama: Samples) -> Double {
    Samples(samples: zip(hearth.samples, llama.samples).compactMap { $1 > 0 ? $0 / $1 : nil }).median
  }
}
