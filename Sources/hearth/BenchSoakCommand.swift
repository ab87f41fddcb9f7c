import ArgumentParser
import Foundation
import HearthBench
import HearthEngine

struct BenchSoakCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "soak",
    abstract: "A day of use, compressed: hearth serve under a mix of requests from several clients at once.",
    discussion: """
      Starts hearth serve on a scratch profile with the model and drives it with chats, OpenAI and Anthropic \
      completions (some streamed and hung up on), note imports, searches, notices, calendar writes and backups. \
      Reports requests served, failures by kind (apart from the client's own), p50/p99 latency per kind, \
      resident memory and open descriptors after the warm-up and at the end, and SQLite's check of the profile \
      once the server stopped. Exits 1 when a request failed not by the client's doing, a descriptor was left \
      open, resident memory grew by more than --max-growth after the warm-up, the server did not stop on \
      SIGTERM, or the check found damage.
      """)

  @Option(name: .long, help: "How long to run, in minutes.") var minutes = 30.0
  @Option(name: .long, help: "Clients sending requests at once.") var clients = 4
  @Option(name: .long, help: "GGUF chat model file (default: $HEARTH_MODEL, else the installed default model).")
  var model: String?
  @Option(name: .long, help: "The most resident memory may grow after the warm-up, in percent.")
  var maxGrowth = 10.0
  @Flag(name: .long, help: "Print JSON.") var json = false

  func validate() throws {
    guard minutes > 0, minutes <= 24 * 60 else { throw ValidationError("--minutes must be more than 0, at most a day") }
    guard (1...64).contains(clients) else { throw ValidationError("--clients must be from 1 to 64") }
    guard maxGrowth >= 0 else { throw ValidationError("--max-growth must be 0 or more") }
  }

  func run() async throws {
    try await reportingFailures {
      let modelPath = try ModelResolver(paths: HearthPaths()).resolve(explicit: model)
      let benchmark = SoakBenchmark(
        configuration: {
          var configuration = SoakBenchmark.Configuration(
            executable: URL(fileURLWithPath: BenchLlamaCommand.ownExecutable()), modelPath: modelPath,
            seconds: minutes * 60)
          configuration.clients = clients
          configuration.maxGrowth = maxGrowth / 100
          return configuration
        }())
      let report = try await benchmark.run { Terminal.writeError($0 + "\n") }
      Terminal.write(json ? try JSONOutput.encode(report) + "\n" : report.table)
      if !report.passed { throw ExitCode.failure }
    }
  }
}
