import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "server",
    abstract: "Tokens/s and time to first token through the HTTP API vs in process and vs llama-server."
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "Tokens generated per request.")
  var tokens = 128

  @Option(name: .long, help: "Rounds; each measures every path once.")
  var rounds = 20

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    guard tokens >= 8, rounds > 0 else { throw ValidationError("need at least 8 tokens and 1 round") }
  }

  func run() async throws {
    try await reportingFailures {
      var config = ServerBenchmark.Configuration(
        modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads)
      config.generatedTokens = tokens
      config.rounds = rounds
      let report = try await ServerBenchmark(configuration: config, tools: LlamaTools()).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      Terminal.write(json ? try JSONOutput.encode(ServerBenchJSON(report)) + "\n" : Self.table(report))
    }
  }

  private static func table(_ r: ServerBenchmark.Report) -> String {
    let c = r.configuration
    var rows = [
      "\(URL(fileURLWithPath: c.modelPath).lastPathComponent) · \(c.threads) threads · \(c.generatedTokens) tokens · \(c.rounds) rounds (medians; ratios are medians of each round's ratio)",
      "",
      "| path | first token ms | tokens/s | prompt tokens |", "|---|---|---|---|",
    ]
    for path in ServerBenchmark.Path.allCases {
      let prompt = r.results[path]?.first?.promptTokens ?? 0
      rows.append(
        "| \(path.rawValue) | \(String(format: "%.1f", r.firstToken(path))) | \(String(format: "%.1f", r.speed(path))) | \(prompt) |"
      )
    }
    let json = ServerBenchJSON(r)
    rows += [
      "",
      "| ratio | value | goal |", "|---|---|---|",
      "| HTTP ÷ in-process tokens/s | \(String(format: "%.3f", json.httpSpeedRatio)) | ≥ 0.97 |",
      "| in-process ÷ HTTP first-token time | \(String(format: "%.3f", json.httpFirstTokenRatio)) | ≥ 0.97 |",
      "| Hearth ÷ llama-server tokens/s | \(String(format: "%.3f", json.llamaServerSpeedRatio)) | ≥ 1.0 |",
      "| Hearth ÷ llama-server first-token time | \(String(format: "%.3f", json.llamaServerFirstTokenRatio)) | ≤ 1.0 |",
    ]
    return rows.joined(separator: "\n") + "\n"
  }
}

/// The `--json` output of `hearth bench server`.
struct ServerBenchJSON: Encodable {
  var inProcessTokensPerSecond: Double
  var httpTokensPerSecond: Double
  var llamaServerTokensPerSecond: Double
  var inProcessFirstTokenMs: Double
  var httpFirstTokenMs: Double
  var llamaServerFirstTokenMs: Double
  var httpSpeedRatio: Double
  var httpFirstTokenRatio: Double
  var llamaServerSpeedRatio: Double
  var llamaServerFirstTokenRatio: Double

  init(_ r: ServerBenchmark.Report) {
    inProcessTokensPerSecond = r.speed(.inProcess)
    httpTokensPerSecond = r.speed(.hearth)
    llamaServerTokensPerSecond = r.speed(.llamaServer)
    inProcessFirstTokenMs = r.firstToken(.inProcess)
    httpFirstTokenMs = r.firstToken(.hearth)
    llamaServerFirstTokenMs = r.firstToken(.llamaServer)
    httpSpeedRatio = r.pairedRatio(.hearth, over: .inProcess, \.tokensPerSecond)
    httpFirstTokenRatio = r.pairedRatio(.inProcess, over: .hearth, \.firstTokenMs)
    llamaServerSpeedRatio = r.pairedRatio(.hearth, over: .llamaServer, \.tokensPerSecond)
    llamaServerFirstTokenRatio = r.pairedRatio(.hearth, over: .llamaServer, \.firstTokenMs)
  }
}
