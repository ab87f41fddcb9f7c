import HearthCore
import LlamaKit

/// Compares Hearth with llama.cpp's own tools on the same model, threads and token counts, in one run.
///
/// Throughput: llama-bench and Hearth alternate in two rounds (llama-bench, Hearth, Hearth, llama-bench) so
/// that drift in the machine's speed affects both alike. Time to first token: `hearth ask` and
/// `llama-completion` are launched alternately on the same prompt, timing launch to first output byte.
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
    /// Repetitions per round of each test.
    public var repetitions: Int = 5
    /// Launches per side of the time-to-first-token test (0 skips it).
    public var firstTokenLaunches: Int = 3
    /// The prompt of the time-to-first-token test.
    public var firstTokenPrompt = "What is the capital of France?"
    /// The `hearth` executable to launch for the time-to-first-token test.
    public var hearthExecutable: String

    /// Creates a configuration with llama-bench's default sizes.
    public init(modelPath: String, threads: Int, hearthExecutable: String) {
      self.modelPath = modelPath
      self.threads = threads
      self.hearthExecutable = hearthExecutable
    }
  }

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
    let model = try await LlamaModel.load(path: config.modelPath)
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
    for round in 1...2 {
      let llamaFirst = round == 1
      for side in llamaFirst ? ["llama", "hearth"] : ["hearth", "llama"] {
        progress("round \(round): \(side == "llama" ? "llama-bench" : "Hearth")")
        if side == "llama" {
          let result = try await llamaBench.run(
            model: config.modelPath, threads: config.threads, promptTokens: config.promptTokens,
            generatedTokens: config.generatedTokens, repetitions: config.repetitions)
          llamaPrompt = llamaPrompt + result.prompt
          llamaGeneration = llamaGeneration + result.generation
        } else {
          hearthPrompt =
            hearthPrompt
            + (try await hearth.promptThroughput(
              tokens: config.promptTokens, repetitions: config.repetitions))
          hearthGeneration =
            hearthGeneration
            + (try await hearth.generationThroughput(
              tokens: config.generatedTokens, repetitions: config.repetitions))
        }
      }
    }

    var firstToken: FirstTokenComparison?
    if let completion {
      progress("time to first token: hearth ask vs llama-completion")
      let prompt = try model.formatChat([.user(config.firstTokenPrompt)])
      firstToken = try await FirstTokenComparison.measure(
        configuration: config, llamaCompletion: completion, formattedPrompt: prompt)
    }
    return BenchmarkReport(
      model: config.modelPath, modelName: model.metadata.name, threads: config.threads,
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
  public var promptTokens: Int
  public var generatedTokens: Int
  /// Prompt tokens per second.
  public var hearthPrompt: Samples
  public var llamaBenchPrompt: Samples
  /// Generated tokens per second.
  public var hearthGeneration: Samples
  public var llamaBenchGeneration: Samples
  public var firstToken: FirstTokenComparison?

  /// Hearth's mean prompt throughput ÷ llama-bench's.
  public var promptRatio: Double { ratio(hearthPrompt.mean, llamaBenchPrompt.mean) }
  /// Hearth's mean generation throughput ÷ llama-bench's.
  public var generationRatio: Double { ratio(hearthGeneration.mean, llamaBenchGeneration.mean) }

  private func ratio(_ a: Double, _ b: Double) -> Double { b > 0 ? a / b : 0 }
}
