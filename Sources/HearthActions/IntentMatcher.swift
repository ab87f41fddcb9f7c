/// Reads a request's intent from its meaning: the request's embedding against those of many examples per intent
/// (``IntentExamples``), so a phrasing no reader was written for still finds its intent when it means the same
/// as examples of it. Pure: the vectors come from an embedding model outside.
///
/// An intent's score is the mean cosine similarity of its ``neighbours`` closest examples (one close example
/// alone is not enough). The intent is clear when its score reaches ``floor`` and leads the next intent's by
/// ``margin``; two intents that both reach the floor and stand closer than that are a question to ask the user,
/// not a guess.
public struct IntentMatcher: Sendable {
  /// How a request's intent reads.
  public enum Reading: Sendable, Hashable {
    /// One intent, clearly.
    case clear(RequestIntent, score: Float)
    /// Two intents, too close to choose between: ask which.
    case close(RequestIntent, RequestIntent)
    /// No intent is near enough.
    case unclear
  }

  /// The least score of a clear intent.
  public var floor: Float
  /// How far a clear intent leads the next one.
  public var margin: Float
  /// How many of an intent's closest examples its score averages.
  public var neighbours: Int

  private let examples: [(intent: RequestIntent, vector: [Float])]

  /// A matcher over examples and their vectors (any length, the same for all; normalised here).
  public init(
    examples: [(intent: RequestIntent, vector: [Float])], floor: Float = 0.40, margin: Float = 0.02,
    neighbours: Int = 2
  ) {
    self.examples = examples.map { ($0.intent, Self.normalised($0.vector)) }
    self.floor = floor
    self.margin = margin
    self.neighbours = max(1, neighbours)
  }

  /// Every intent with its score, best first.
  public func scores(_ vector: [Float]) -> [(intent: RequestIntent, score: Float)] {
    let query = Self.normalised(vector)
    var byIntent: [RequestIntent: [Float]] = [:]
    for example in examples where example.vector.count == query.count {
      byIntent[example.intent, default: []].append(Self.dot(example.vector, query))
    }
    return byIntent.map { intent, similarities in
      let closest = similarities.sorted(by: >).prefix(neighbours)
      return (intent, closest.reduce(0, +) / Float(closest.count))
    }
    .sorted { $0.score > $1.score || ($0.score == $1.score && $0.intent.description < $1.intent.description) }
  }

  /// How the request whose embedding is `vector` reads.
  public func read(_ vector: [Float]) -> Reading {
    let ranked = scores(vector)
    guard let best = ranked.first, best.score >= floor else { return .unclear }
    guard ranked.count > 1 else { return .clear(best.intent, score: best.score) }
    let next = ranked[1]
    if best.score - next.score >= margin { return .clear(best.intent, score: best.score) }
    // Two looks at the data need no question: the closer one shows as much as the other. An action that is
    // nearly a plain question is no action: nothing is changed on a guess.
    if next.score < floor || best.intent == .plain || (best.intent.onlyReads && next.intent.onlyReads) {
      return .clear(best.intent, score: best.score)
    }
    if next.intent == .plain { return .unclear }
    return .close(best.intent, next.intent)
  }

  static func normalised(_ vector: [Float]) -> [Float] {
    let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return length > 0 ? vector.map { $0 / length } : vector
  }

  static func dot(_ a: [Float], _ b: [Float]) -> Float {
    var sum: Float = 0
    for index in a.indices { sum += a[index] * b[index] }
    return sum
  }
}
