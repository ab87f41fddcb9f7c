import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("Greedy decoding straight from the logits", .heavy)
struct GreedySamplingTests {
  @Test(arguments: [1, 7, 8, 9, 49_152])
  func findsTheFirstLargestValue(count: Int) {
    var generator = SeededRandom(seed: UInt64(count))
    var values = (0..<count).map { _ in Float.random(in: -30 ... -1, using: &generator) }
    let place = count / 2
    values[place] = 12.5
    if count > 2 { values[count - 1] = 12.5 }  // a tie later on: the first one wins, as in llama.cpp
    let found = values.withUnsafeBufferPointer { SamplerChain.firstMaximum($0) }
    #expect(found == place)
  }

  /// Thirty-two tokens of a real answer: at every step the direct pick is the chain's greedy pick.
  @Test func picksWhatLlamaCppsGreedySamplerPicks() async throws {
    let session = try await SharedModels.session()
    let model = session.model
    let prompt = try session.chatPromptTokens([.user("Name three colours and describe each one.")])
    let picks = try await DecodeExecutor.shared.perform { () throws(LlamaError) -> [[Int32]] in
      let direct = try SamplerChain(.greedy, model: model)
      let chain = try SamplerChain(.greedy, model: model, directGreedy: false)
      try session.decode(prompt, at: 0, wantLogits: true)
      var pairs: [[Int32]] = []
      for position in prompt.count..<(prompt.count + 32) {
        let pick = direct.sample(from: session.context)
        pairs.append([pick, chain.sample(from: session.context)])
        try session.decode([pick], at: position, wantLogits: true)
      }
      return pairs
    }
    #expect(picks.count == 32)
    for (step, pair) in picks.enumerated() { #expect(pair[0] == pair[1], "step \(step)") }
    #expect(Set(picks.map { $0[0] }).count > 8)  // a real answer, not one token repeated
  }
}

@Suite("A grammar asked about the pick, not filtering every candidate", .heavy)
struct GrammarOnThePickTests {
  /// An event as JSON, long enough that the model both keeps within the grammar and strays from it.
  static let grammar: String = {
    let schema = JSONValue.object([
      ("type", .string("object")),
      (
        "properties",
        .object([
          ("title", .object([("type", .string("string"))])),
          ("day", .object([("enum", .array(["Monday", "Tuesday", "Friday"].map(JSONValue.string)))])),
          ("hour", .object([("type", .string("integer"))])),
          ("people", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
        ])
      ),
      ("required", .array(["title", "day", "hour", "people"].map(JSONValue.string))),
    ])
    return (try? JSONSchemaGrammar.grammar(for: schema)) ?? ""
  }()

  /// Greedy picks, with and without a repeat penalty (the chain's own path): asking the grammar about the pick
  /// gives, token for token, what filtering every candidate first gives, and the grammar refuses some picks.
  @Test(arguments: [1.0, 1.3])
  func greedyPicksAreTheGrammarFirstPicks(repeatPenalty: Double) async throws {
    #expect(!Self.grammar.isEmpty)
    let session = try await SharedModels.session()
    let model = session.model
    let prompt = try session.chatPromptTokens([.user("Lunch with Ana and Bo on Friday at 1pm, as JSON.")])
    var sampling = SamplingParameters.greedy
    sampling.repeatPenalty = repeatPenalty
    let parameters = sampling
    let (picks, refusals) = try await DecodeExecutor.shared.perform {
      () throws(LlamaError) -> ([[Int32]], Int) in
      let onThePick = try SamplerChain(parameters, grammar: Self.grammar, model: model)
      let first = try SamplerChain(parameters, grammar: Self.grammar, model: model, grammarFirst: true)
      try session.decode(prompt, at: 0, wantLogits: true)
      var pairs: [[Int32]] = []
      for position in prompt.count..<(prompt.count + 48) {
        let pick = onThePick.sample(from: session.context)
        pairs.append([pick, first.sample(from: session.context)])
        if model.isEndOfGeneration(pick) { break }
        try session.decode([pick], at: position, wantLogits: true)
      }
      return (pairs, onThePick.refusals)
    }
    for (step, pair) in picks.enumerated() { #expect(pair[0] == pair[1], "step \(step)") }
    #expect(picks.count > 12)
    #expect(refusals > 0, "the model never strayed, so the refused path went untested")
    #expect(refusals < picks.count, "the grammar refused every pick, so the allowed path went untested")
    let text = String(decoding: picks.flatMap { model.pieceBytes(of: $0[0]) }, as: UTF8.self)
    #expect(text.hasPrefix("{"), "\(text)")
  }
}
