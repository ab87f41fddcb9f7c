import Foundation
import HearthCore
import HearthEngine
public import HearthMemory

/// Where the memory's relevance bar should sit: how similar the passage that answers a labelled question is
/// to it, against how similar the closest passage of the same corpus is to a question it cannot answer
/// (general knowledge, small talk). A bar keeps answering passages above it and unrelated ones below.
public struct RelevanceBar: Sendable {
  /// Questions nothing in a personal corpus answers; kept apart from the memory no-harm set, which checks the
  /// chosen bar.
  public static let unrelatedQuestions = [
    "What is the tallest mountain in the world?", "Who painted the Mona Lisa?",
    "What is the square root of 144?", "How many continents are there?", "What is the chemical symbol for gold?",
    "Who was the first person to walk on the moon?", "What is the longest river in Africa?",
    "How many minutes are in an hour?", "What is the freezing point of water in Fahrenheit?",
    "Which planet is known as the red planet?", "What is the capital of Canada?", "Who discovered penicillin?",
    "How many strings does a violin have?", "What is the smallest prime number?", "Tell me a joke.",
    "Write a haiku about autumn.", "What does DNA stand for?", "How far is the moon from the earth?",
    "What is the main ingredient of guacamole?", "Who composed the Four Seasons?", "What year did World War II end?",
    "How do you say thank you in Japanese?", "What is photosynthesis?", "Explain what a black hole is.",
    "How many bones are in the human body?", "What is the fastest land animal?", "Hello, how are you today?",
    "What is 17 times 3?", "Which metal is liquid at room temperature?", "Give me a synonym for happy.",
  ]

  /// One passage found for a question.
  public struct Sample: Sendable, Codable {
    public var question: String
    public var passage: String
    public var similarity: Double
    /// Whether the keyword search found it too (it shares a rare word with the question).
    public var wordsAgree: Bool
  }

  /// The similarities measured, and what each bar keeps.
  public struct Report: Sendable, Codable {
    /// The answering passage of each labelled question whose passage was among the candidates.
    public var answering: [Sample]
    /// Labelled questions whose answering passage was not among the candidates at all.
    public var unreached: Int
    /// For each unrelated question, the passages a retrieval returns (the closest first).
    public var unrelated: [[Sample]]
    /// Each candidate bar with the share of answering passages kept and of unrelated questions let in.
    public var bars: [Bar]
    /// The bar chat turns use.
    public var inUse: Bar
  }

  /// One candidate bar: a passage passes at `bar`, or at `withWords` when it shares a rare word with the question.
  public struct Bar: Sendable, Codable {
    public var bar: Double
    public var withWords: Double
    public var answeringKept: Double
    public var unrelatedLetIn: Double

    func passes(_ sample: Sample) -> Bool {
      sample.similarity >= bar || (sample.wordsAgree && sample.similarity >= withWords)
    }
  }

  public let evaluation: RetrievalEvaluation

  public init(evaluation: RetrievalEvaluation) {
    self.evaluation = evaluation
  }

  /// Measures over a memory that holds the evaluation's corpus.
  public func measure(memory: MemoryIndex) async throws -> Report {
    let options = RetrievalOptions(k: 40, mode: .hybrid, candidates: 40)
    func sample(_ question: String, _ hit: MemoryHit) -> Sample {
      Sample(
        question: question, passage: String(hit.chunk.text.prefix(80)), similarity: hit.similarity ?? 0,
        wordsAgree: hit.keywordRank != nil)
    }
    var answering: [Sample] = []
    var unreached = 0
    for query in try evaluation.queries() {
      let evidence = RetrievalEvaluation.collapsed(query.evidence)
      let hits = try await memory.search(query.query, options: options)
      if let hit = hits.first(where: { RetrievalEvaluation.collapsed($0.chunk.text).contains(evidence) }) {
        answering.append(sample(query.query, hit))
      } else {
        unreached += 1
      }
    }
    var unrelated: [[Sample]] = []
    for question in Self.unrelatedQuestions {
      let hits = try await memory.search(question, options: RetrievalOptions(k: 4))
      unrelated.append(hits.map { sample(question, $0) }.sorted { $0.similarity > $1.similarity })
    }
    func scored(_ bar: Double, _ withWords: Double) -> Bar {
      var candidate = Bar(bar: bar, withWords: withWords, answeringKept: 0, unrelatedLetIn: 0)
      candidate.answeringKept = Double(answering.filter(candidate.passes).count) / Double(max(answering.count, 1))
      candidate.unrelatedLetIn =
        Double(unrelated.filter { $0.contains(where: candidate.passes) }.count) / Double(max(unrelated.count, 1))
      return candidate
    }
    var bars: [Bar] = []
    for bar in stride(from: 0.25, through: 0.6, by: 0.05) {
      for withWords in stride(from: 0.2, through: bar + 0.001, by: 0.05) { bars.append(scored(bar, withWords)) }
    }
    let inUse = scored(
      Double(MemoryService.relevanceFloor), Double(MemoryService.relevanceFloorWithSharedWords))
    return Report(answering: answering, unreached: unreached, unrelated: unrelated, bars: bars, inUse: inUse)
  }
}
