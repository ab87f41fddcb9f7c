import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchAssistantCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "assistant",
    abstract:
      "How often the assistant gets everyday requests right: every case through a whole turn on a seeded profile, per category, tuned and held out, for each model."
  )

  @Option(
    name: .customLong("model"),
    help: "A GGUF model to measure; repeat for several (default: the installed default model).")
  var models: [String] = []
  @Option(name: .long, help: "CPU threads (default: one per core).") var threads: Int?
  @Option(
    name: .long,
    help:
      "Embedding model of every profile asked (memory, intents) and of the memory no-harm table (default: the installed all-MiniLM-L6-v2)."
  )
  var embeddingModel: String?
  @Flag(name: .long, help: "Skip the memory no-harm table.") var noMemoryTable = false
  @Option(name: .long, help: "Which cases: tuned, held-out, all, or none (the memory table only).") var cases: CaseSet =
    .all
  @Option(
    name: .long,
    help:
      "A JSON file of cases written apart from the readers (bench/assistant-unseen.json), scored as a set of its own; repeatable."
  )
  var casesFile: [String] = []
  @Option(name: .long, help: "The profile asked on: small, large (a real life's size) or both.") var profile:
    ProfileSize = .small
  @Flag(name: .long, help: "Print every case as it is scored.") var verbose = false
  @Flag(
    name: .long,
    help:
      "Ask as a profile without the embedding model: no memory, and intents read by the words alone (default: with the installed one)."
  )
  var wordsOnly = false
  @Flag(name: .long, help: "Print JSON.") var json = false

  enum CaseSet: String, ExpressibleByArgument, CaseIterable {
    case tuned, heldOut = "held-out", all, none
  }

  enum ProfileSize: String, ExpressibleByArgument, CaseIterable {
    case small, large, both

    var sizes: [Bool] { self == .both ? [false, true] : [self == .large] }
  }

  /// One model's figures for one set and category.
  struct Row: Codable {
    var model: String
    var set: String
    var category: String
    var cases: Int
    var rightAction: Int
    var rightFields: Int
    var rightFacts: Int
    var fullyRight: Int
    /// Answers that stated something about the user's data that no record holds.
    var invented: Int
  }

  /// Everything measured, for `--json`.
  struct Report: Codable {
    var cases: [Row]
    var memory: [MemoryNoHarm.Row]
  }

  func validate() throws {
    if noMemoryTable, cases == .none, casesFile.isEmpty {
      throw ValidationError("--cases none with --no-memory-table measures nothing")
    }
    if noMemoryTable, wordsOnly, embeddingModel != nil {
      throw ValidationError(
        "--embedding-model is for the cases and the memory table, which --words-only and --no-memory-table skip")
    }
  }

  func run() async throws {
    try await reportingFailures {
      let paths = try models.isEmpty ? [ModelResolver(paths: HearthPaths()).resolve(explicit: nil)] : models
      let builtIn: [(String, [AssistantCase])] = [("tuned", AssistantCase.tuned), ("held out", AssistantCase.heldOut)]
        .filter { cases == .all || (cases != .none && (cases == .tuned) == ($0.0 == "tuned")) }
      let files = try casesFile.map { path in
        (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, try AssistantCaseFile.load(path))
      }
      let sets = (builtIn + files).flatMap { label, cases in
        profile.sizes.map { large in (label + (large ? " · large" : ""), cases, large) }
      }
      var rows: [Row] = []
      var memoryRows: [MemoryNoHarm.Row] = []
      let embedding = embeddingModel ?? EngineConfiguration().embeddingModelPath
      if !noMemoryTable, !FileManager.default.fileExists(atPath: embedding) {
        throw ValidationError(
          "no embedding model at \(embedding) for the memory table (pass --embedding-model or --no-memory-table)")
      }
      let threads = threads ?? Processors.available
      for path in paths {
        let model = try await LocalModel.load(
          LocalModelOptions(path: path, contextSize: 4096, threads: threads))
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        for (label, cases, large) in sets {
          var evaluation = AssistantEvaluation(model: model, large: large)
          if !wordsOnly, FileManager.default.fileExists(atPath: embedding) {
            evaluation.embedder = LocalEmbedder(path: embedding, threads: threads)
          }
          var outcomes: [AssistantEvaluation.Outcome] = []
          for testCase in cases {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-assistant-\(UUID())")
            defer { try? FileManager.default.removeItem(at: home) }
            let outcome = try await evaluation.ask(testCase, home: home)
            outcomes.append(outcome)
            if verbose {
              let mark = outcome.fullyRight ? "✓" : outcome.rightAction ? "~" : "✗"
              let said = outcome.answer.replacingOccurrences(of: "\n", with: " ").prefix(200)
              let invented = outcome.invented.isEmpty ? "" : " [invented: \(outcome.invented.joined(separator: ", "))]"
              Terminal.writeError(
                Terminal.dim("\(name) \(label): \(mark) \(testCase.request) → \(said)\(invented)") + "\n")
            }
          }
          rows += Self.rows(outcomes, model: name, set: label)
        }
        if !noMemoryTable {
          let noHarm = MemoryNoHarm(model: model, embedder: LocalEmbedder(path: embedding, threads: threads))
          let verbose = verbose
          memoryRows += try await noHarm.run(modelName: name) { line in
            if verbose { Terminal.writeError(Terminal.dim("\(name) \(line)") + "\n") }
          }
        }
      }
      if json { return Terminal.write(try JSONOutput.encode(Report(cases: rows, memory: memoryRows)) + "\n") }
      Terminal.write(Self.table(rows))
      if !memoryRows.isEmpty {
        var lines = [
          "", "| model | memory | plain questions answered right | of those right without memory, still right |",
          "|---|---|---|---|",
        ]
        var without = 0
        for row in memoryRows {
          if row.keptRight == nil { without = row.right }
          lines.append(
            "| \(row.model) | \(row.memory) | \(row.right)/\(row.asked) | \(row.keptRight.map { "\($0)/\(without)" } ?? "–") |"
          )
        }
        Terminal.write(lines.joined(separator: "\n") + "\n")
      }
    }
  }

  static func rows(_ outcomes: [AssistantEvaluation.Outcome], model: String, set: String) -> [Row] {
    let groups = AssistantCase.Category.allCases.map { category in
      (category.rawValue, outcomes.filter { $0.category == category })
    }
    return (groups + [("all", outcomes)]).filter { !$0.1.isEmpty }.map { category, outcomes in
      Row(
        model: model, set: set, category: category, cases: outcomes.count,
        rightAction: outcomes.count(where: \.rightAction), rightFields: outcomes.count(where: \.rightFields),
        rightFacts: outcomes.count(where: \.rightFacts), fullyRight: outcomes.count(where: \.fullyRight),
        invented: outcomes.count { !$0.invented.isEmpty })
    }
  }

  static func table(_ rows: [Row]) -> String {
    var lines = [
      "| model | cases | category | right action (none when none asked) | right fields | right answer facts | fully right | invented facts |",
      "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows {
      lines.append(
        "| \(row.model) | \(row.set) | \(row.category) | \(Terminal.share(row.rightAction, row.cases)) | "
          + "\(Terminal.share(row.rightFields, row.cases)) | \(Terminal.share(row.rightFacts, row.cases)) | \(Terminal.share(row.fullyRight, row.cases)) | \(row.invented) |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
