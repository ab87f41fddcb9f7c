import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchChatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract:
      "Time to first token on turn 10 with and without KV-cache reuse, and after a restart with the chat's state restored from disk or read again; store load and search times."
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "Turns of the conversation; the last one is measured.")
  var turns = 10

  @Option(name: .long, help: "Repetitions of the measured turn in each mode.")
  var repetitions = 3

  @Option(name: .long, help: "Messages in the large session whose loading is timed.")
  var sessionMessages = 10_000

  @Option(name: .long, help: "Messages the timed search runs over.")
  var searchMessages = 100_000

  @Flag(name: .long, help: "Measure only the store (no model).")
  var storeOnly = false

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    guard turns >= 2, repetitions > 0, sessionMessages > 0, searchMessages >= 100 else {
      throw ValidationError("need at least 2 turns, 1 repetition, 1 session message and 100 search messages")
    }
  }

  func run() async throws {
    try await reportingFailures {
      var config = ChatBenchmark.Configuration(
        modelPath: storeOnly ? "" : try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads,
        workDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID())"))
      config.turns = turns
      config.repetitions = repetitions
      config.sessionMessages = sessionMessages
      config.searchMessages = searchMessages
      config.measuresChat = !storeOnly
      config.hearthExecutable = BenchLlamaCommand.ownExecutable()
      let report = try await ChatBenchmark(configuration: config).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      Terminal.write(json ? try JSONOutput.encode(ChatBenchJSON(report)) + "\n" : Self.table(report))
    }
  }

  private static func table(_ r: ChatBenchmarkReport) -> String {
    func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    var rows = ["| measurement | median ms |", "|---|---|"]
    if !r.firstTokenWithReuse.samples.isEmpty {
      rows += [
        "| time to first token, turn \(r.turn) (\(r.historyTokens) prompt tokens), cache reused | \(ms(r.firstTokenWithReuse.median)) |",
        "| time to first token, turn \(r.turn), cache cleared | \(ms(r.firstTokenWithoutReuse.median)) |",
        "| ratio (reused ÷ cleared) | \(String(format: "%.3f", r.reuseRatio)) |",
        "| time to first token after a restart (\(r.restartHistoryTokens) prompt tokens), chat state restored from disk | \(ms(r.firstTokenRestored.median)) |",
        "| time to first token after a restart, whole chat read again | \(ms(r.firstTokenReread.median)) |",
        "| ratio (restored ÷ read again; goal ≤ 0.1) | \(String(format: "%.3f", r.restartRatio)) |",
        "| time to first token, hearth ask (\(r.askPromptTokens) prompt tokens), first run in a fresh profile | \(ms(r.askFirstRun.median)) |",
        "| time to first token, hearth ask, second run | \(ms(r.askSecondRun.median)) |",
        "| ratio (second ÷ first; goal ≤ 0.25) | \(String(format: "%.3f", r.askRatio)) |",
      ]
    }
    rows += [
      "| load a \(r.sessionMessages)-message session | \(ms(r.sessionLoadMs.median)) |",
      "| full-text search over \(r.searchMessages) messages | \(ms(r.searchMs.median)) |",
    ]
    return rows.joined(separator: "\n") + "\n"
  }
}

/// The `--json` output of `hearth bench chat`.
struct ChatBenchJSON: Encodable {
  var turn: Int
  var historyTokens: Int
  var firstTokenWithReuseMs: Double
  var firstTokenWithoutReuseMs: Double
  var reuseRatio: Double
  var restartHistoryTokens: Int
  var firstTokenRestoredMs: Double
  var firstTokenRereadMs: Double
  var restartRatio: Double
  var askPromptTokens: Int
  var askFirstRunMs: Double
  var askSecondRunMs: Double
  var askRatio: Double
  var sessionMessages: Int
  var sessionLoadMs: Double
  var searchMessages: Int
  var searchMs: Double

  init(_ r: ChatBenchmarkReport) {
    turn = r.turn
    historyTokens = r.historyTokens
    firstTokenWithReuseMs = r.firstTokenWithReuse.median
    firstTokenWithoutReuseMs = r.firstTokenWithoutReuse.median
    reuseRatio = r.reuseRatio
    restartHistoryTokens = r.restartHistoryTokens
    firstTokenRestoredMs = r.firstTokenRestored.median
    firstTokenRereadMs = r.firstTokenReread.median
    restartRatio = r.restartRatio
    askPromptTokens = r.askPromptTokens
    askFirstRunMs = r.askFirstRun.median
    askSecondRunMs = r.askSecondRun.median
    askRatio = r.askRatio
    sessionMessages = r.sessionMessages
    sessionLoadMs = r.sessionLoadMs.median
    searchMessages = r.searchMessages
    searchMs = r.searchMs.median
  }
}
