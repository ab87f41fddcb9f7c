import ArgumentParser
import Foundation
import HearthActions
import HearthBench
import HearthCore
import HearthEngine

struct BenchIntentsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "intents",
    abstract:
      "How often a request's intent is read right, by the readers of words and by its meaning (the embedding model against the intents' examples), on the assistant's cases."
  )

  @Option(name: .long, help: "Embedding model (default: the installed all-MiniLM-L6-v2).") var embeddingModel: String?
  @Option(name: .long, help: "CPU threads (default: one per core).") var threads: Int?
  @Option(name: .long, help: "Which built-in cases: tuned, held-out, all, or none.") var cases:
    BenchAssistantCommand.CaseSet = .all
  @Option(name: .long, help: "A JSON file of cases (as for `bench assistant`); repeatable.") var casesFile: [String] =
    []
  @Option(name: .long, help: "The least score of a clear intent (default: the matcher's own).") var floor: Float?
  @Option(name: .long, help: "How far a clear intent leads the next (default: the matcher's own).") var margin: Float?
  @Flag(name: .long, help: "Print each case the meaning reads otherwise than expected.") var verbose = false

  func validate() throws {
    if cases == .none, casesFile.isEmpty { throw ValidationError("--cases none without --cases-file measures nothing") }
  }

  /// One set's figures.
  struct Row {
    var set: String
    var cases = 0
    var wordsRight = 0
    var meaningRight = 0
    var meaningWrong = 0
    var meaningClose = 0
    var meaningUnclear = 0
    var togetherRight = 0
  }

  func run() async throws {
    try await reportingFailures {
      let embedding = embeddingModel ?? EngineConfiguration().embeddingModelPath
      guard FileManager.default.fileExists(atPath: embedding) else {
        throw ValidationError("no embedding model at \(embedding) (pass --embedding-model)")
      }
      let reader = IntentReader(embedder: LocalEmbedder(path: embedding, threads: threads ?? Processors.available))
      let builtIn: [(String, [AssistantCase])] = [("tuned", AssistantCase.tuned), ("held out", AssistantCase.heldOut)]
        .filter { cases == .all || (cases != .none && (cases == .tuned) == ($0.0 == "tuned")) }
      let files = try casesFile.map { path in
        (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, try AssistantCaseFile.load(path))
      }
      var rows: [Row] = []
      for (label, set) in builtIn + files {
        var row = Row(set: label)
        for testCase in set {
          guard let scored = await reader.scores(testCase.request) else {
            throw ValidationError("the embedding model at \(embedding) could not be used")
          }
          var matcher = scored.matcher
          let vector = scored.vector
          if let floor { matcher.floor = floor }
          if let margin { matcher.margin = margin }
          let expected = Self.intent(testCase.expected)
          let words = Self.wordsIntent(testCase.request, today: testCase.today)
          row.cases += 1
          if words == expected { row.wordsRight += 1 }
          var meaning: RequestIntent?
          switch matcher.read(vector) {
          case .clear(let intent, _):
            meaning = intent
            if intent == expected { row.meaningRight += 1 } else { row.meaningWrong += 1 }
          case .close: row.meaningClose += 1
          case .unclear: row.meaningUnclear += 1
          }
          // The readers of words decide where they find something; the meaning decides where they find nothing.
          let together = words.kind != nil ? words : meaning ?? words
          if verbose, meaning != expected {
            let best = matcher.scores(vector).prefix(2).map { "\($0.intent) \(String(format: "%.2f", $0.score))" }
            Terminal.writeError(
              Terminal.dim("\(label): \(testCase.request) — expected \(expected), words \(words); \(best)") + "\n")
          }
          if together == expected { row.togetherRight += 1 }
        }
        rows.append(row)
      }
      print("| set | cases | words right | meaning right | meaning wrong | close (asks) | unclear | together right |")
      print("|---|---|---|---|---|---|---|---|")
      for row in rows {
        print(
          "| \(row.set) | \(row.cases) | \(Terminal.share(row.wordsRight, row.cases)) | "
            + "\(Terminal.share(row.meaningRight, row.cases)) | \(row.meaningWrong) | \(row.meaningClose) | "
            + "\(row.meaningUnclear) | \(Terminal.share(row.togetherRight, row.cases)) |")
      }
    }
  }

  /// The intent a case expects.
  static func intent(_ expected: AssistantCase.Expected) -> RequestIntent {
    switch expected {
    case .action(let kind, let action, _), .answer(let kind, let action, _, _):
      RequestIntent(kind, ActionSpec.specs(of: kind).count > 1 ? action : nil)
    case .nothing: .plain
    }
  }

  /// The intent the readers of words give: a kind and action, else the view a data question asks for.
  static func wordsIntent(_ request: String, today: LocalDate) -> RequestIntent {
    let hints = RequestHints(request, today: today)
    if let kind = hints.kind {
      return RequestIntent(kind, ActionSpec.specs(of: kind).count > 1 ? hints.action : nil)
    }
    switch DataQuestion(request, today: today)?.view {
    case .calendar: return RequestIntent(.calendar, "query")
    case .reminders: return RequestIntent(.reminder, "list")
    case .contact: return RequestIntent(.contactsSearch)
    case .notes: return RequestIntent(.note, "search")
    case .habits: return RequestIntent(.habit, "stats")
    case nil: return .plain
    }
  }
}
