import Foundation
import HearthActions
import HearthCore
import HearthEngine

/// How reliably a model acts: the fixed requests of ``ActionRequest/all`` answered three ways — the system
/// prompt's instructions alone, the same with the lazy block grammar, and ``ActionDrafter``'s first step
/// (kind, action and dates read from the words) with a grammar that leaves the model only the free text — each answer scored for a parseable block, the right kind and action, and every
/// expected field.
public struct ActionBenchmark: Sendable {
  /// One way of answering.
  public enum Mode: String, Sendable, CaseIterable, Codable {
    case instructions = "instructions only"
    case lazyGrammar = "instructions + lazy grammar"
    case twoSteps = "first step + pinned grammar"
  }

  public struct Row: Sendable, Codable {
    public var mode: Mode
    /// `tuned` (the 44 requests the first step was developed on) or `held out`.
    public var requests: String = "tuned"
    public var actionRequests: Int
    public var parsed: Int
    public var rightKind: Int
    public var correct: Int
    public var negatives: Int
    public var negativesQuiet: Int
    public var seconds: Double
  }

  public let modelPath: String
  public let threads: Int
  public let modes: [Mode]

  public init(modelPath: String, threads: Int, modes: [Mode] = Mode.allCases) {
    self.modelPath = modelPath
    self.threads = threads
    self.modes = modes
  }

  /// Runs every mode over every request; `progress` hears one line per request.
  public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> [Row] {
    let model = try await LocalModel.load(LocalModelOptions(path: modelPath, contextSize: 4096, threads: threads))
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-actions-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    var configuration = EngineConfiguration(paths: HearthPaths(home: home), environment: [:])
    configuration.timeZone = TimeZone(identifier: "UTC")!
    let engine = try Engine.open(configuration, model: model)
    try Self.seed(engine)
    let today = ActionRequest.today
    let now = LocalDateTime(startOf: today).adding(seconds: 9 * 3600).instant(in: configuration.timeZone)
    let system = engine.systemPrompt(now: now)
    var rows: [Row] = []
    let runs = modes.map { ($0, ActionRequest.all, "tuned") } + [(Mode.twoSteps, ActionRequest.heldOut, "held out")]
    for (mode, requests, label) in runs {
      var row = Row(
        mode: mode, actionRequests: 0, parsed: 0, rightKind: 0, correct: 0, negatives: 0, negativesQuiet: 0, seconds: 0)
      row.requests = label
      let started = ContinuousClock.now
      for request in requests {
        let answer = try await Self.answer(
          request.text, mode: mode, model: model, system: system, today: today, existing: engine.knownItems)
        let score = request.score(answer)
        if request.kind == nil {
          row.negatives += 1
          if score.correct { row.negativesQuiet += 1 }
        } else {
          row.actionRequests += 1
          row.parsed += score.parsed ? 1 : 0
          row.rightKind += score.rightKind ? 1 : 0
          row.correct += score.correct ? 1 : 0
        }
        progress(
          "\(mode.rawValue): \(score.correct ? "✓" : score.rightKind ? "~" : "✗") \(request.text) → \(answer.prefix(160).replacingOccurrences(of: "\n", with: " "))"
        )
      }
      row.seconds = Double((ContinuousClock.now - started).components.seconds)
      rows.append(row)
    }
    return rows
  }

  static func answer(
    _ request: String, mode: Mode, model: LocalModel, system: String, today: LocalDate,
    existing: @escaping @Sendable (ActionKind) -> [KnownItem]
  ) async throws -> String {
    switch mode {
    case .twoSteps:
      return try await ActionDrafter(model: model, existing: existing).draft(request, today: today) ?? ""
    case .instructions, .lazyGrammar:
      var options = GenerationOptions(maxNewTokens: 160, sampling: .greedy)
      if mode == .lazyGrammar {
        options.grammar = ActionGrammar.grammar()
        options.grammarTrigger = ActionGrammar.triggerPattern()
      }
      return try await model.wholeAnswer(to: [.system(system), .user(request)], options: options)
    }
  }

  /// The items the requests name: a dentist appointment, a team lunch, a yoga class, reminders, notes, a
  /// habit and contacts.
  static func seed(_ engine: Engine) throws {
    func at(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }
    _ = try engine.calendar.create(
      CalendarEvent(title: "Dentist", start: at("2026-11-24T09:00"), end: at("2026-11-24T10:00")))
    _ = try engine.calendar.create(
      CalendarEvent(title: "Team lunch", start: at("2026-11-26T12:00"), end: at("2026-11-26T13:00")))
    _ = try engine.calendar.create(
      CalendarEvent(title: "Yoga class", start: at("2026-11-24T18:00"), end: at("2026-11-24T19:00")))
    _ = try engine.reminders.create(Reminder(title: "Buy milk"))
    _ = try engine.reminders.create(Reminder(title: "Renew passport"))
    _ = try engine.notes.create(Note(title: "Shopping", body: "bread"))
    _ = try engine.notes.create(Note(title: "Old flat", body: "keys returned"))
    _ = try engine.habits.create(Habit(name: "Run", schedule: .days([.monday, .thursday])))
    _ = try engine.contacts.create(
      Contact(fullName: "Anna Martin", phones: [LabeledValue("+33 6 12 34 56 78", label: "cell")]))
  }
}
