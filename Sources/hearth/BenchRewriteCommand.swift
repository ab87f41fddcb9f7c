import ArgumentParser
import Foundation
import HearthBench
import HearthCore

struct BenchRewriteCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rewrite",
    abstract: "Prompt-lookup drafts on rewrite and quote tasks: Hearth against llama-server's n-gram speculation.",
    discussion: """
      Sends 20 tasks over given texts (correct, quote, rewrite, list) to Hearth as its policy decides and with \
      speculative.n_max 0, and to llama-server without speculation and with each --spec-type n-gram variant; then \
      10 short questions to Hearth as its policy decides and with drafts forced on. Greedy; decode tokens/s.
      """
  )

  @OptionGroup var modelFile: ModelFileOptions

  @Option(name: .long, help: "How many of the 20 tasks to send.")
  var tasks = RewriteTasks.tasks.count

  @Option(name: .long, help: "How many of the 10 short questions to send.")
  var questions = RewriteTasks.questions.count

  @Option(name: .long, help: "Token budget of every answer.")
  var maxTokens = 256

  @Option(name: .long, parsing: .upToNextOption, help: "llama-server --spec-type variants to compare.")
  var specTypes: [String] = RewriteBenchmark.Configuration(modelPath: "", threads: 1).spectypes

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    guard (1...RewriteTasks.tasks.count).contains(tasks) else {
      throw ValidationError("--tasks takes 1 to \(RewriteTasks.tasks.count)")
    }
    guard (1...RewriteTasks.questions.count).contains(questions) else {
      throw ValidationError("--questions takes 1 to \(RewriteTasks.questions.count)")
    }
    guard (16...2048).contains(maxTokens) else { throw ValidationError("--max-tokens takes 16 to 2048") }
    if let bad = specTypes.first(where: { !$0.hasPrefix("ngram-") }) {
      throw ValidationError("--spec-types takes llama-server's n-gram variants (ngram-…), not \(bad)")
    }
  }

  func run() async throws {
    try await reportingFailures {
      var config = RewriteBenchmark.Configuration(
        modelPath: try modelFile.resolvedModelPath(), threads: modelFile.resolvedThreads)
      config.tasks = tasks
      config.questions = questions
      config.maxTokens = maxTokens
      config.spectypes = specTypes
      let report = try await RewriteBenchmark(configuration: config).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      let figures = RewriteBenchJSON(report)
      Terminal.write(json ? try JSONOutput.encode(figures) + "\n" : figures.table(report))
    }
  }
}

/// The figures of `hearth bench rewrite`.
struct RewriteBenchJSON: Encodable {
  struct Side: Encodable {
    var side: String
    var tokensPerSecond: Double
    /// Median of each task's speed over Hearth's with drafts off.
    var ratioToHearthWithoutDrafts: Double
    /// Answers that say word for word what Hearth says with drafts off.
    var sameTextAsHearthWithoutDrafts: Int
  }

  var tasks: Int
  var sides: [Side]
  /// Hearth (its policy) over llama-server's fastest n-gram variant, median per task.
  var hearthOverBestSpeculation: Double
  var bestSpeculation: String
  /// Hearth (its policy) over llama-server without speculation, median per task.
  var hearthOverPlainLlamaServer: Double
  var questions: Int
  /// Short questions: Hearth as its policy decides, and with drafts forced on, over the policy.
  var questionsTokensPerSecond: Double
  var questionsForcedDraftRatio: Double

  init(_ report: RewriteBenchmark.Report) {
    typealias R = RewriteBenchmark.Report
    let reference = report.tasks[.hearth(drafts: 0)] ?? []
    tasks = reference.count
    sides = report.taskSides.map { side in
      let answers = report.tasks[side] ?? []
      return Side(
        side: side.description, tokensPerSecond: R.aggregate(answers),
        ratioToHearthWithoutDrafts: R.ratio(answers, over: reference),
        sameTextAsHearthWithoutDrafts: R.sameText(answers, as: reference))
    }
    let hearth = report.tasks[.hearth(drafts: nil)] ?? []
    let speculating = report.taskSides.filter {
      if case .llamaServer(let type?) = $0 { return !type.isEmpty } else { return false }
    }
    let best = speculating.max { R.aggregate(report.tasks[$0] ?? []) < R.aggregate(report.tasks[$1] ?? []) }
    bestSpeculation = best?.description ?? "none"
    hearthOverBestSpeculation = best.map { R.ratio(hearth, over: report.tasks[$0] ?? []) } ?? 0
    hearthOverPlainLlamaServer = R.ratio(hearth, over: report.tasks[.llamaServer(specType: nil)] ?? [])
    let asked = report.questions[.hearth(drafts: nil)] ?? []
    questions = asked.count
    questionsTokensPerSecond = R.aggregate(asked)
    let forced = report.questions.first { $0.key != .hearth(drafts: nil) }?.value ?? []
    questionsForcedDraftRatio = R.ratio(forced, over: asked)
  }

  func table(_ report: RewriteBenchmark.Report) -> String {
    let c = report.configuration
    var rows = [
      "\(URL(fileURLWithPath: c.modelPath).lastPathComponent) · \(c.threads) threads · \(tasks) tasks, \(questions) questions · greedy (ratios are medians of each prompt's ratio)",
      "",
      "| side | decode tokens/s | ÷ Hearth without drafts | same text as Hearth without drafts |",
      "|---|---|---|---|",
    ]
    for side in sides {
      rows.append(
        "| \(side.side) | \(String(format: "%.1f", side.tokensPerSecond)) | \(String(format: "%.3f", side.ratioToHearthWithoutDrafts)) | \(side.sameTextAsHearthWithoutDrafts) of \(tasks) |"
      )
    }
    rows += [
      "",
      "| ratio | value | goal |", "|---|---|---|",
      "| Hearth ÷ \(bestSpeculation) (the fastest variant) | \(String(format: "%.3f", hearthOverBestSpeculation)) | ≥ 1.0 |",
      "| Hearth ÷ llama-server without speculation | \(String(format: "%.3f", hearthOverPlainLlamaServer)) | |",
      "| short questions, drafts forced on ÷ Hearth's policy (\(String(format: "%.1f", questionsTokensPerSecond)) tokens/s) | \(String(format: "%.3f", questionsForcedDraftRatio)) | ≥ 0.98 |",
    ]
    return rows.joined(separator: "\n") + "\n"
  }
}
