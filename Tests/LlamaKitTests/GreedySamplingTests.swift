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
