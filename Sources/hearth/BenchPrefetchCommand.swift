import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchPrefetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prefetch",
    abstract: "The first answer after a cold start, with and without reading the model ahead (`prefetch`).",
    discussion: """
      Each round drops the model file from the page cache (Linux's posix_fadvise; the file must not be in use) \
      before each cold launch of `hearth ask`, of `hearth ask` with the runtime setting prefetch on, and of \
      llama.cpp's llama-completion, then launches `hearth ask` once more with the file cached. Times are from \
      launch to the first byte of the answer; ratios are to llama-completion's cold start.
      """
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "Rounds; each launches every kind once, in alternating order.")
  var rounds = 5

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func validate() throws {
    guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be 1 to 50") }
  }

  func run() async throws {
    try await reportingFailures {
      let benchmark = PrefetchBenchmark(
        model: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads, rounds: rounds,
        hearthExecutable: BenchLlamaCommand.ownExecutable(),
        llamaCompletion: try LlamaTools().locate("llama-completion"))
      let result = try await benchmark.run { Terminal.writeError("bench prefetch: \($0)\n") }
      Terminal.write(json ? try JSONOutput.encode(result) + "\n" : PrefetchBenchmark.table(result))
    }
  }
}
