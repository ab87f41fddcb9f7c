import ArgumentParser
import Foundation
import HearthBench
import HearthCore

struct BenchActionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "actions",
    abstract:
      "How reliably the model acts: 44 fixed requests and 16 held out, answered with the instructions alone, with the lazy block grammar, and with the first step and a pinned grammar."
  )

  @OptionGroup var modelFile: ModelFileOptions
  @Flag(name: .long, help: "Print every answer as it is scored.") var verbose = false
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let benchmark = ActionBenchmark(modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads)
      let verbose = verbose
      let rows = try await benchmark.run { line in if verbose { Terminal.writeError(Terminal.dim(line) + "\n") } }
      if json { return Terminal.write(try JSONOutput.encode(rows) + "\n") }
      var lines = [
        "| mode | requests | block parses | right kind and action | fully correct | no block when none asked | seconds |",
        "|---|---|---|---|---|---|---|",
      ]
      for row in rows {
        lines.append(
          "| \(row.mode.rawValue) | \(row.requests) | \(Terminal.share(row.parsed, row.actionRequests)) | \(Terminal.share(row.rightKind, row.actionRequests)) | "
            + "\(Terminal.share(row.correct, row.actionRequests)) | \(row.negativesQuiet)/\(row.negatives) | \(Int(row.seconds)) |"
        )
      }
      Terminal.write(lines.joined(separator: "\n") + "\n")
    }
  }
}
