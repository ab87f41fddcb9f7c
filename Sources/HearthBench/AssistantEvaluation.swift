public import Foundation
import HearthActions
public import HearthCore
public import HearthEngine

/// Asks ``AssistantCase``s through the whole turn — the same engine, drafting, actions and answer as
/// `hearth ask` — each on a fresh seeded profile with its day fixed, and scores what the turn did.
public struct AssistantEvaluation: Sendable {
  /// What one case's turn did, scored.
  public struct Outcome: Sendable, Codable {
    public var request: String
    public var category: AssistantCase.Category
    /// The block's kind and action were the expected ones (for a request that asks nothing: no block).
    public var rightAction: Bool
    /// Every expected field matched (true where none are expected).
    public var rightFields: Bool
    /// The answer stated every expected fact and none that must be absent (true where none are expected).
    public var rightFacts: Bool
    /// What the turn wrote and the blocks it ran.
    public var answer: String
    public var blocks: [String]
    /// What the answer states about the user's data that no record of the profile holds (empty when nothing).
    public var invented: [String] = []

    public var fullyRight: Bool { rightAction && rightFields && rightFacts }
  }

  public let model: LocalModel
  /// The most tokens a free answer may take (plain questions): enough for the facts they must state.
  public var answerTokens = 48

  /// Asks on the large profile (``AssistantProfile/seedLarge(_:)``) rather than the small one.
  public var large = false
  /// The embedding model every profile uses, as an installed one is (the memory, and the intent read from a
  /// request's meaning); `nil` asks as a profile without one, by the words alone.
  public var embedder: LocalEmbedder?

  public init(model: LocalModel, large: Bool = false) {
    self.model = model
    self.large = large
  }

  /// Asks `testCase` on a new profile under `home` and scores it.
  public func ask(_ testCase: AssistantCase, home: URL) async throws -> Outcome {
    var configuration = AssistantProfile.configuration(home: home, day: testCase.today)
    configuration.sharedEmbedder = embedder
    let engine = try Engine.open(configuration, model: model)
    try large ? AssistantProfile.seedLarge(engine) : AssistantProfile.seed(engine)
    let profile = try AssistantProfile.records(engine)
    let session = try await engine.chat.newSession()
    var answer = ""
    var records: [ActionRecord] = []
    let options = GenerationOptions(maxNewTokens: answerTokens, sampling: .greedy)
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message(testCase.request), options: options)) {
      event in
      switch event {
      case .chat(.finished(let message)): answer = message.content
      case .chat(.actions(let done)): records = done
      case .failed(let error): throw error
      default: break
      }
    }
    var outcome = Self.score(testCase, answer: answer, records: records)
    outcome.invented = Self.invented(testCase, answer: answer, records: records, profile: profile)
    return outcome
  }

  /// The claims of `answer` about the user's data that no record of the whole profile holds, nor the turn's own
  /// actions: the second score, measured on every case whatever else it got right.
  public static func invented(
    _ testCase: AssistantCase, answer: String, records: [ActionRecord], profile: [String]
  ) -> [String] {
    let shown = ActionBlockFilter.shown(answer)
    // Hearth's question between two changes is written by code and states nothing about the data.
    if ClarifyingQuestion.intents(asked: shown) != nil { return [] }
    let ran: Set<ActionRecord.State> = [.created, .pending, .updated, .deleted]
    let check = AnswerCheck(
      .init(
        request: testCase.request, records: profile + records.flatMap { [$0.summary, $0.result ?? "", $0.block] },
        itemNames: profile.compactMap { $0.split(separator: "|").first.map(String.init) },
        actionRan: records.contains { ran.contains($0.state) }, requestIsAboutData: testCase.category != .plain,
        today: testCase.today))
    return check.findings(in: shown).map(\.description)
  }

  /// Scores a turn's answer and action records against what the case expects.
  public static func score(_ testCase: AssistantCase, answer: String, records: [ActionRecord]) -> Outcome {
    let ran = records.filter { $0.state != .invalid }
    var outcome = Outcome(
      request: testCase.request, category: testCase.category, rightAction: false, rightFields: true, rightFacts: true,
      answer: answer, blocks: records.map(\.block))
    let shown = ActionBlockFilter.shown(answer).lowercased()
    switch testCase.expected {
    case .action(let kind, let action, let fields):
      let matching = ran.filter { $0.kind == kind.rawValue && $0.action == action }
      outcome.rightAction = ran.count == 1 && matching.count == 1
      outcome.rightFields = matching.first.map { fieldsMatch(fields, in: $0.block) } ?? false
    case .answer(let kind, let action, let facts, let absent):
      let matching = ran.filter { $0.kind == kind.rawValue && $0.action == action && $0.state == .answered }
      outcome.rightAction = ran.count == 1 && matching.count == 1
      outcome.rightFacts =
        facts.allSatisfy { shown.contains($0.lowercased()) } && !absent.contains { shown.contains($0.lowercased()) }
    case .nothing(let saying):
      outcome.rightAction = records.isEmpty
      outcome.rightFacts = saying.allSatisfy { shown.contains($0.lowercased()) }
    }
    return outcome
  }

  /// Whether a block's payload has every expected field: a value, `a|b` for either, `~word` for a text that
  /// contains the word, all without regard to case.
  static func fieldsMatch(_ expected: [String: String], in block: String) -> Bool {
    guard let payload = ActionBlockParser.parse(block).blocks.first?.payload else { return false }
    return expected.allSatisfy { name, wanted in
      guard let value = payload[name] else { return false }
      let text = (value.stringValue ?? value.numberValue.map { String(Int($0)) } ?? "").lowercased()
      if wanted.hasPrefix("~") { return text.contains(wanted.dropFirst().lowercased()) }
      return wanted.lowercased().split(separator: "|").contains { $0 == text }
    }
  }
}
