import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchLoadCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "load",
    abstract: "The memory estimate against the resident memory a load really adds, for each chat model.",
    discussion: """
      Each model is loaded in a process of its own; its resident memory is read before the load, after it \
      (with the warm-up decode) and after a prompt of one full batch. The default models are the bundled \
      chat models installed in the models folder.
      """
  )

  @Option(name: .long, parsing: .singleValue, help: "A model file to measure (repeat for several).")
  var model: [String] = []

  @Option(name: .long, help: "Context window in tokens.")
  var context = 4096

  @Option(name: .long, help: "CPU threads (default: one per core).")
  var threads: Int?

  @Option(name: .long, help: .hidden)
  var probe: String?

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func validate() throws {
    guard context > 0 else { throw ValidationError("--context must be positive") }
  }

  func run() async throws {
    try await reportingFailures {
      let threads = threads ?? Processors.available
      if let probe {
        let row = try await LoadMemoryBenchmark.probe(model: probe, contextSize: context, threads: threads)
        return Terminal.write(try JSONOutput.encode(row) + "\n")
      }
      let registry = ModelRegistry(folder: HearthPaths().models)
      let models =
        model.isEmpty
        ? try registry.installed().filter { $0.isBundled && $0.entry.role == .chat }.map(\.path) : model
      guard !models.isEmpty else { throw ValidationError("no chat model to measure: pass --model FILE") }
      let rows = try await LoadMemoryBenchmark(
        models: models, contextSize: context, threads: threads, executable: BenchLlamaCommand.ownExecutable()
      ).run()
      Terminal.write(json ? try JSONOutput.encode(rows) + "\n" : LoadMemoryBenchmark.table(rows))
    }
  }
}
