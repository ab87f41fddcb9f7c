import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "server",
    abstract: "Tokens/s and time to first token through the HTTP API vs in process and vs llama-server.",
    discussion: """
      With --concurrent N: aggregate tokens/s of one request alone and of N at once, Hearth with N slots \
      against llama-server -np N on the same model, threads and context per slot.
      """
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "Tokens generated per request.")
  var tokens = 128

  @Option(name: .long, help: "Rounds; each measures every path once (default: 20, or 5 with --concurrent).")
  var rounds: Int?

  @Option(name: .long, help: "Send this many requests at once, to Hearth with as many slots and to llama-server -np N.")
  var concurrent: Int?

  @Option(name: .long, help: "Context window of each slot, on both servers.")
  var context = 2048

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    guard tokens >= 8, (rounds ?? 1) > 0 else { throw ValidationError("need at least 8 tokens and 1 round") }
    if let concurrent, !(1...RuntimeSettings.maxParallel).contains(concurrent) {
      throw ValidationError("--concurrent takes 1 to \(RuntimeSettings.maxParallel) requests")
    }
    guard (256...131_072).contains(context) else { throw ValidationError("--context takes 256 to 131072 tokens") }
  }

  func run() async throws {
    try await reportingFailures {
      if let concurrent { return try await runConcurrent(concurrent) }
      var config = ServerBenchmark.Configuration(
        modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads)
      config.generatedTokens = tokens
      config.contextSize = context
      config.rounds = rounds ?? 20
      let report = try await ServerBenchmark(configuration: config, tools: LlamaTools()).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      Terminal.write(json ? try JSONOutput.encode(ServerBenchJSON(report)) + "\n" : Self.table(report))
    }
  }

  private func runConcurrent(_ count: Int) async throws {
    var config = ConcurrentServerBenchmark.Configuration(
      modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads, concurrent: count)
    config.generatedTokens = tokens
    config.contextSize = context
    config.rounds = rounds ?? 5
    let report = try await ConcurrentServerBenchmark(configuration: config, tools: LlamaTools()).run { line in
      Terminal.writeError(Terminal.dim("· \(line)") + "\n")
    }
    Terminal.write(
      json ? try JSONOutput.encode(ConcurrentBenchJSON(report)) + "\n" : ConcurrentBenchJSON(report).table(report))
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

/// The `--json` output of `hearth bench server --concurrent N`.
struct ConcurrentBenchJSON: Encodable {
  var concurrent: Int
  var hearthSingleTokensPerSecond: Double
  var llamaServerSingleTokensPerSecond: Double
  var hearthAggregateTokensPerSecond: Double
  var llamaServerAggregateTokensPerSecond: Double
  var inProcessSingleTokensPerSecond: Double
  var inProcessAggregateTokensPerSecond: Double
  var hearthLastAnswerMs: Double
  var llamaServerLastAnswerMs: Double
  var singleRatio: Double
  var concurrentRatio: Double

  init(_ r: ConcurrentServerBenchmark.Report) {
    concurrent = r.configuration.concurrent
    hearthSingleTokensPerSecond = r.median(r.single, .hearth, \.aggregateTokensPerSecond)
    llamaServerSingleTokensPerSecond = r.median(r.single, .llamaServer, \.aggregateTokensPerSecond)
    hearthAggregateTokensPerSecond = r.median(r.concurrent, .hearth, \.aggregateTokensPerSecond)
    llamaServerAggregateTokensPerSecond = r.median(r.concurrent, .llamaServer, \.aggregateTokensPerSecond)
    inProcessSingleTokensPerSecond = r.median(r.single, .inProcess, \.aggregateTokensPerSecond)
    inProcessAggregateTokensPerSecond = r.median(r.concurrent, .inProcess, \.aggregateTokensPerSecond)
    hearthLastAnswerMs = r.median(r.concurrent, .hearth, \.lastAnswerMs)
    llamaServerLastAnswerMs = r.median(r.concurrent, .llamaServer, \.lastAnswerMs)
    singleRatio = r.ratio(r.single)
    concurrentRatio = r.ratio(r.concurrent)
  }

  func table(_ r: ConcurrentServerBenchmark.Report) -> String {
    let c = r.configuration
    func figure(_ value: Double) -> String { String(format: "%.1f", value) }
    return [
      "\(URL(fileURLWithPath: c.modelPath).lastPathComponent) · \(c.threads) threads · \(c.concurrent) slots of \(c.contextSize) tokens · \(c.generatedTokens) tokens per request · \(c.rounds) rounds (medians; ratios are medians of each round's ratio)",
      "",
      "| load | Hearth tokens/s | llama-server tokens/s | Hearth ÷ llama-server | goal |", "|---|---|---|---|---|",
      "| 1 request | \(figure(hearthSingleTokensPerSecond)) | \(figure(llamaServerSingleTokensPerSecond)) | \(String(format: "%.3f", singleRatio)) | ≥ 0.98 |",
      "| \(c.concurrent) at once (aggregate) | \(figure(hearthAggregateTokensPerSecond)) | \(figure(llamaServerAggregateTokensPerSecond)) | \(String(format: "%.3f", concurrentRatio)) | ≥ 1.0 |",
      "",
      "in process (no HTTP): 1 request \(figure(inProcessSingleTokensPerSecond)) tokens/s, \(c.concurrent) at once \(figure(inProcessAggregateTokensPerSecond)) tokens/s",
      "last of \(c.concurrent) answers after: Hearth \(figure(hearthLastAnswerMs)) ms, llama-server \(figure(llamaServerLastAnswerMs)) ms",
    ].joined(separator: "\n") + "\n"
  }
}
