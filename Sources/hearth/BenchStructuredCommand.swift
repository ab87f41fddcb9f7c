import ArgumentParser
import Foundation
import HearthBench
import HearthCore

struct BenchStructuredCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "structured",
    abstract: "JSON-schema answers: tokens/s and time to the whole object, Hearth against llama-server.",
    discussion: """
      Sends the same 30 requests (event, reminder and tool-call schemas shaped like Hearth's actions; contact, \
      classification and extraction schemas as API clients write them) to Hearth's API three ways (the text \
      the grammar forces evaluated in one batch; the same tokens one per step, forced_spans "stepwise"; sampled \
      like free text, forced_spans false) and to llama-server, greedy, with the same response_format; checks \
      every answer against its schema, and Hearth's answers against each other.
      """
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "How many of the 30 requests to send.")
  var requests = StructuredRequests.all.count

  @Option(name: .long, help: "Token budget of every answer.")
  var maxTokens = 256

  @Option(name: .long, help: "Context window, on both servers.")
  var context = 2048

  @Flag(name: .long, help: "Print one JSON object, with every answer.")
  var json = false

  func validate() throws {
    guard (1...StructuredRequests.all.count).contains(requests) else {
      throw ValidationError("--requests takes 1 to \(StructuredRequests.all.count)")
    }
    guard (16...4096).contains(maxTokens) else { throw ValidationError("--max-tokens takes 16 to 4096") }
    guard (256...131_072).contains(context) else { throw ValidationError("--context takes 256 to 131072 tokens") }
  }

  func run() async throws {
    try await reportingFailures {
      var config = StructuredBenchmark.Configuration(
        modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads)
      config.requests = requests
      config.maxTokens = maxTokens
      config.contextSize = context
      let report = try await StructuredBenchmark(configuration: config).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      Terminal.write(json ? try JSONOutput.encode(StructuredBenchJSON(report)) + "\n" : Self.table(report))
    }
  }

  private static func table(_ report: StructuredBenchmark.Report) -> String {
    let c = report.configuration
    let figures = StructuredBenchJSON(report)
    var rows = [
      "\(URL(fileURLWithPath: c.modelPath).lastPathComponent) · \(c.threads) threads · \(report.requests.count) requests · up to \(c.maxTokens) tokens each (ratios are medians of each request's ratio)",
      "",
      "| server | tokens/s (all answers) | valid against the schema | cut off |", "|---|---|---|---|",
    ]
    for server in StructuredBenchmark.Server.allCases {
      let answers = report.answers[server] ?? []
      rows.append(
        "| \(server.rawValue) | \(String(format: "%.1f", report.aggregateSpeed(server))) | \(report.validCount(server)) of \(answers.count) | \(answers.filter { $0.finishReason == "length" }.count) |"
      )
    }
    let count = report.requests.count
    rows += [
      "",
      "| ratio | value | goal |", "|---|---|---|",
      "| Hearth ÷ llama-server tokens/s | \(String(format: "%.3f", figures.speedRatio)) | ≥ 1.0 |",
      "| Hearth without forced spans ÷ llama-server tokens/s | \(String(format: "%.3f", figures.unforcedSpeedRatio)) | ≥ 1.0 |",
      "| llama-server ÷ Hearth time to the whole answer | \(String(format: "%.3f", figures.completionSpeedUp)) | ≥ 1.3 |",
      "| Hearth without ÷ with forced spans, time to the whole answer | \(String(format: "%.3f", figures.forcedSpeedUp)) | |",
      "| tokens forced (of Hearth's) | \(String(format: "%.1f %%", figures.forcedShare * 100)) | |",
      "| same text, forced tokens batched and one per step | \(count - figures.differingFromStepwise.count) of \(count) | ≥ 95 % |",
      "| same values, forced tokens batched and sampled like free text | \(count - figures.differingValues.count) of \(count) | |",
    ]
    for index in figures.differingFromStepwise {
      rows += ["", "Batched and one per step differ for request \(index + 1) (\(report.requests[index].schemaName))."]
    }
    if !figures.differingValues.isEmpty {
      rows += ["", "Requests whose values differ with the forced text sampled (batched, then sampled):"]
      for index in figures.differingValues.prefix(10) {
        rows.append("- \(report.requests[index].schemaName): \((report.answers[.hearth] ?? [])[index].text)")
        rows.append("  \((report.answers[.hearthUnforced] ?? [])[index].text)")
      }
    }
    let broken = zip(report.requests, report.answers[.hearth] ?? []).filter { !$0.1.valid }
    if !broken.isEmpty {
      rows += ["", "Hearth's answers that broke their schema:"]
      rows += broken.map { "- \($0.0.schemaName): \($0.1.problems.prefix(3).joined(separator: "; "))" }
    }
    return rows.joined(separator: "\n") + "\n"
  }
}

/// The `--json` output of `hearth bench structured`.
struct StructuredBenchJSON: Encodable {
  struct Request: Encodable {
    var schema: String
    var hearth: StructuredBenchmark.Answer?
    var hearthStepwise: StructuredBenchmark.Answer?
    var hearthUnforced: StructuredBenchmark.Answer?
    var llamaServer: StructuredBenchmark.Answer?
  }

  var requests: Int
  var maxTokens: Int
  var hearthTokensPerSecond: Double
  var llamaServerTokensPerSecond: Double
  var hearthUnforcedTokensPerSecond: Double
  var speedRatio: Double
  var unforcedSpeedRatio: Double
  var completionSpeedUp: Double
  var forcedSpeedUp: Double
  var forcedShare: Double
  var differingValues: [Int]
  var differingFromStepwise: [Int]
  var hearthValid: Int
  var hearthUnforcedValid: Int
  var llamaServerValid: Int
  var answers: [Request]

  init(_ report: StructuredBenchmark.Report) {
    requests = report.requests.count
    maxTokens = report.configuration.maxTokens
    hearthTokensPerSecond = report.aggregateSpeed(.hearth)
    llamaServerTokensPerSecond = report.aggregateSpeed(.llamaServer)
    hearthUnforcedTokensPerSecond = report.aggregateSpeed(.hearthUnforced)
    speedRatio = report.speedRatio()
    unforcedSpeedRatio = report.speedRatio(.hearthUnforced)
    completionSpeedUp = report.completionSpeedUp()
    forcedSpeedUp = report.completionSpeedUp(.hearth, over: .hearthUnforced)
    forcedShare = report.forcedShare
    differingValues = report.differingValues(from: .hearthUnforced)
    differingFromStepwise = report.differingTexts(from: .hearthStepwise)
    hearthValid = report.validCount(.hearth)
    hearthUnforcedValid = report.validCount(.hearthUnforced)
    llamaServerValid = report.validCount(.llamaServer)
    func answer(_ server: StructuredBenchmark.Server, _ index: Int) -> StructuredBenchmark.Answer? {
      let answers = report.answers[server] ?? []
      return answers.indices.contains(index) ? answers[index] : nil
    }
    answers = report.requests.indices.map { index in
      Request(
        schema: report.requests[index].schemaName, hearth: answer(.hearth, index),
        hearthStepwise: answer(.hearthStepwise, index), hearthUnforced: answer(.hearthUnforced, index),
        llamaServer: answer(.llamaServer, index))
    }
  }
}
