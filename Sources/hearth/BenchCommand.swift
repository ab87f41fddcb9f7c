import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure Hearth; compare it with llama.cpp's own tools in the same run.",
    subcommands: [
      BenchLlamaCommand.self, BenchChatCommand.self, BenchServerCommand.self, BenchStructuredCommand.self,
      BenchRewriteCommand.self, BenchActionsCommand.self,
      BenchAssistantCommand.self,
      BenchIntentsCommand.self,
      BenchMemoryCommand.self, BenchLoadCommand.self, BenchSpeechCommand.self, BenchSyncCommand.self,
      BenchSoakCommand.self, BenchPrefetchCommand.self,
    ],
    defaultSubcommand: BenchLlamaCommand.self
  )
}

struct BenchLlamaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "llama",
    abstract: "Prompt processing, generation and time to first token against llama-bench and llama-completion.",
    discussion: """
      Prompt processing and generation are compared with llama-bench (-p 512 -n 128 by default); time to \
      first token of `hearth ask` with llama-completion on the same prompt. Ratios are Hearth ÷ llama.cpp.
      """
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "Prompt tokens of the prompt-processing test.")
  var promptTokens = 512

  @Option(name: .long, help: "Tokens of the generation test.")
  var genTokens = 128

  @Option(name: .long, help: "Rounds; each runs llama-bench and Hearth once, in alternating order.")
  var rounds = 12

  @Option(name: .long, help: "Launches of each tool in the time-to-first-token test (0 skips it).")
  var launches = 3

  @Option(
    name: .long,
    help: "Layers both sides put on a GPU (llama-bench's -ngl); 0 is the CPU alone. (default: 99 with a GPU, else 0)")
  var gpuLayers: Int?

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    if let gpuLayers, !(0...GPULayers.maxCount).contains(gpuLayers) {
      throw ValidationError("--gpu-layers must be 0 to \(GPULayers.maxCount), not \(gpuLayers)")
    }
    guard promptTokens > 0, genTokens > 0, rounds > 0, launches >= 0 else {
      throw ValidationError("token counts and repetitions must be positive")
    }
    if let threads = modelFile.threads, threads <= 0 { throw ValidationError("threads must be positive") }
  }

  func run() async throws {
    try await reportingFailures {
      var config = Benchmark.Configuration(
        modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads,
        hearthExecutable: Self.ownExecutable())
      config.promptTokens = promptTokens
      config.generatedTokens = genTokens
      config.rounds = rounds
      config.firstTokenLaunches = launches
      config.gpuLayers = gpuLayers ?? (Benchmark.gpuPresent ? 99 : 0)
      let report = try await Benchmark(configuration: config).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      Terminal.write(json ? try JSONOutput.encode(BenchJSON(report)) + "\n" : Self.table(report))
    }
  }

  static func ownExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
  }

  private static func table(_ r: BenchmarkReport) -> String {
    func cell(_ m: Samples) -> String {
      String(format: "%8.1f  (%6.1f ± %5.1f)", m.median, m.mean, m.standardDeviation)
    }
    var lines = [
      "model: \(r.modelName) (\(r.model)), threads: \(r.threads), "
        + "layers on the GPU: \(r.offloadedLayers)/\(r.offloadableLayers) (both tools at the same -ngl)",
      "",
      "| test    | Hearth t/s: median (mean ± sd) | llama-bench t/s: median (mean ± sd) | ratio (median of rounds) |",
      "|---------|--------------------------------|-------------------------------------|--------------------------|",
      "| pp\(r.promptTokens)".padding(toLength: 9, withPad: " ", startingAt: 0)
        + " | \(cell(r.hearthPrompt)) | \(cell(r.llamaBenchPrompt)) | \(String(format: "%.3f", r.promptRatio)) |",
      "| tg\(r.generatedTokens)".padding(toLength: 9, withPad: " ", startingAt: 0)
        + " | \(cell(r.hearthGeneration)) | \(cell(r.llamaBenchGeneration)) | \(String(format: "%.3f", r.generationRatio)) |",
    ]
    if let ttft = r.firstToken {
      lines += [
        "",
        "| time to first token (launch → first byte, median) | ms |",
        "|---------------------------------------------------|----|",
        "| hearth ask       | \(String(format: "%.1f", ttft.hearth.median)) |",
        "| llama-completion | \(String(format: "%.1f", ttft.llamaCompletion.median)) |",
        "| ratio (Hearth ÷ llama-completion) | \(String(format: "%.3f", ttft.ratio)) |",
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// The `--json` output of `hearth bench`.
struct BenchJSON: Encodable {
  var model: String
  var threads: Int
  var offloadedLayers: Int
  var promptTokens: Int
  var generatedTokens: Int
  var hearthPromptTps: Double
  var llamaBenchPromptTps: Double
  var hearthGenerationTps: Double
  var llamaBenchGenerationTps: Double
  var promptRatio: Double
  var generationRatio: Double
  var hearthAskFirstTokenMs: Double?
  var llamaCompletionFirstTokenMs: Double?
  var firstTokenRatio: Double?

  init(_ r: BenchmarkReport) {
    model = r.model
    threads = r.threads
    offloadedLayers = r.offloadedLayers
    promptTokens = r.promptTokens
    generatedTokens = r.generatedTokens
    hearthPromptTps = r.hearthPrompt.mean
    llamaBenchPromptTps = r.llamaBenchPrompt.mean
    hearthGenerationTps = r.hearthGeneration.mean
    llamaBenchGenerationTps = r.llamaBenchGeneration.mean
    promptRatio = r.promptRatio
    generationRatio = r.generationRatio
    hearthAskFirstTokenMs = r.firstToken?.hearth.median
    llamaCompletionFirstTokenMs = r.firstToken?.llamaCompletion.median
    firstTokenRatio = r.firstToken?.ratio
  }

}
