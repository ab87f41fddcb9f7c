public import Foundation
import HearthCore
public import HearthEngine

/// `hearth bench memory --facts`: things a user told in chats days apart, then a question in a new chat whose
/// answer is one of them, with the real model on a fresh profile per case. Each case runs twice: told (the
/// statements said first) and never told (the question alone), which shows what the model says when nothing
/// holds the answer.
public struct FactRecall: Sendable {
  /// One case of a set file.
  public struct Case: Sendable, Decodable {
    /// Said in turn, each in a chat of its own on a later day.
    public var told: [String]
    public var question: String
    /// A right answer holds one of these (case-insensitively).
    public var answer: [String]
    /// A right answer holds none of these (an old value the user corrected, a distractor's).
    public var wrong: [String]
  }

  struct CaseFile: Decodable {
    var cases: [Case]
  }

  /// The scores of one way of asking.
  public struct Row: Sendable, Encodable {
    /// `told` or `never told`.
    public var profile: String
    public var asked: Int
    /// Answers holding a right value and no wrong one.
    public var right: Int
    /// Answers holding a wrong value (a corrected or a distracting fact's).
    public var wrong: Int
    /// Answers drafted from the facts by code rather than written by the model.
    public var fromFacts: Int
    /// Answers that say nothing is known ("I couldn't find that…", "I don't know").
    public var saysUnknown: Int = 0
    public var seconds: Double
  }

  let model: LocalModel
  let embedder: LocalEmbedder
  var answerTokens = 48

  public init(model: LocalModel, embedder: LocalEmbedder) {
    self.model = model
    self.embedder = embedder
  }

  /// The cases of a set file.
  public static func cases(in file: URL) throws -> [Case] {
    try JSONDecoder().decode(CaseFile.self, from: Data(contentsOf: file)).cases
  }

  /// Runs every case told and never told; `progress` hears a line per case.
  public func run(_ cases: [Case], progress: (String) -> Void) async throws -> [Row] {
    var rows: [Row] = []
    for told in [true, false] {
      let start = Date()
      var row = Row(
        profile: told ? "told" : "never told", asked: cases.count, right: 0, wrong: 0, fromFacts: 0, seconds: 0)
      for (index, testCase) in cases.enumerated() {
        let (answer, fromFacts) = try await ask(testCase, told: told)
        let folded = answer.lowercased()
        let right = testCase.answer.contains { folded.contains($0.lowercased()) }
        let wrong = testCase.wrong.contains { folded.contains($0.lowercased()) }
        if right, !wrong { row.right += 1 }
        if wrong { row.wrong += 1 }
        if fromFacts { row.fromFacts += 1 }
        let unknown = [
          "couldn't find", "could not find", "don't know", "do not know", "haven't told", "not sure",
          "nothing you told me", "no contact matches",
        ]
        if !right, unknown.contains(where: folded.contains) { row.saysUnknown += 1 }
        let verdict = right && !wrong ? "right" : wrong ? "wrong" : "missed"
        let shown = answer.split(whereSeparator: \.isNewline).joined(separator: " / ").prefix(120)
        progress("\(row.profile) \(index + 1)/\(cases.count): \(verdict) — \(shown)")
      }
      row.seconds = Date().timeIntervalSince(start)
      rows.append(row)
    }
    return rows
  }

  /// The answer to the case's question, on a fresh profile where (when `told`) each statement was said in a
  /// chat of its own, three days apart; and whether the facts answered it by code.
  func ask(_ testCase: Case, told: Bool) async throws -> (String, Bool) {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-facts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let statements = told ? testCase.told : []
    for (day, statement) in statements.enumerated() {
      _ = try await turn(statement, home: home, day: AssistantProfile.thursday.adding(days: 3 * day))
    }
    return try await turn(
      testCase.question, home: home, day: AssistantProfile.thursday.adding(days: 3 * statements.count + 2))
  }

  private func turn(_ text: String, home: URL, day: LocalDate) async throws -> (String, Bool) {
    var configuration = AssistantProfile.configuration(home: home, day: day)
    configuration.sharedEmbedder = embedder
    let engine = try Engine.open(configuration, model: model)
    let session = try await engine.chat.newSession()
    var answer = ""
    var fromFacts = false
    let options = GenerationOptions(maxNewTokens: answerTokens, sampling: .greedy)
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message(text), options: options)) { event in
      switch event {
      case .chat(.finished(let message)): answer = message.content
      case .chat(.actions(let done)):
        fromFacts = fromFacts || done.contains { $0.kind == ActionKind.memory.rawValue && $0.action == "recall" }
      case .failed(let error): throw error
      default: break
      }
    }
    // The answer as stored: a drafted look-up's text is added to its block after the block is streamed.
    if let stored = try engine.sessions.messages(in: session.id).last(where: { $0.role == .assistant }) {
      answer = stored.content
    }
    return (ActionBlockFilter.shown(answer), fromFacts)
  }
}
