import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("Log probabilities, logit bias and continued assistant messages on the real model", .heavy)
struct LogprobTests {
  static let question: [ChatMessage] = [.user("What is the capital of France?")]

  @Test func greedyTokensAreTheLikeliestAndTheirFiguresAreProbabilities() async throws {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: 12, sampling: .greedy)
    options.logprobs = 5
    let collected = try await Collected.from(session.respond(to: Self.question, options: options))
    #expect(collected.logprobs.count == collected.usage?.generatedTokens)
    #expect(collected.logprobs.count > 3)
    let plain = try await Collected.from(
      session.respond(to: Self.question, options: GenerationOptions(maxNewTokens: 12, sampling: .greedy)))
    #expect(collected.text == plain.text)
    #expect(collected.logprobs.map { String(decoding: $0.chosen.bytes, as: UTF8.self) }.joined() == plain.text)
    for token in collected.logprobs {
      #expect(token.top.count == 5)
      #expect(token.top.first?.id == token.chosen.id)
      #expect(token.top.map(\.logprob) == token.top.map(\.logprob).sorted(by: >))
      let mass = token.top.reduce(0.0) { $0 + exp($1.logprob) }
      #expect(mass > 0 && mass <= 1.000_001)
    }
  }

  @Test func aBiasOfMinus100TakesTheLikeliestTokenOut() async throws {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: 1, sampling: .greedy)
    options.logprobs = 2
    let first = try #require(
      try await Collected.from(session.respond(to: Self.question, options: options)).logprobs.first)
    options.logitBias = [first.chosen.id: -100]
    let biased = try #require(
      try await Collected.from(session.respond(to: Self.question, options: options)).logprobs.first)
    #expect(biased.chosen.id == first.top[1].id)
    options.logitBias = [Int32(session.model.metadata.vocabularySize): 1]
    await #expect(throws: LlamaError.self) {
      _ = try await Collected.from(session.respond(to: Self.question, options: options))
    }
  }

  @Test func readingThePromptIsReportedBatchByBatch() async throws {
    let session = try await LlamaSession.create(
      model: try await SharedModels.smolLM2(), options: ContextOptions(contextSize: 512, batchSize: 16))
    var options = GenerationOptions(maxNewTokens: 2, sampling: .greedy)
    options.reportsPromptProgress = true
    let messages: [ChatMessage] = [.user(String(repeating: "This is a test. ", count: 6))]
    let first = try await Collected.from(session.respond(to: messages, options: options))
    let total = try #require(first.progress.first?.total)
    #expect(total > 32)
    #expect(first.progress.map(\.processed) == [0] + stride(from: 16, to: total, by: 16) + [total])
    #expect(first.progress.allSatisfy { $0.cached == 0 && $0.total == total })
    // The same prompt again: all but its last token come from the cache.
    let again = try await Collected.from(session.respond(to: messages, options: options))
    #expect(again.progress.map(\.processed) == [total - 1, total])
    #expect(again.progress.allSatisfy { $0.cached == total - 1 })
    let quiet = try await Collected.from(
      session.respond(to: messages, options: GenerationOptions(maxNewTokens: 2, sampling: .greedy)))
    #expect(quiet.progress.isEmpty)
  }

  @Test func theLargestValuesComeFirstAndTiesKeepTheirOrder() {
    let values: [Float] = [0.5, 3, -1, 3, 2, 7]
    values.withUnsafeBufferPointer { buffer in
      #expect(LlamaSession.largest(3, of: buffer) == [5, 1, 3])
      #expect(LlamaSession.largest(0, of: buffer) == [])
      #expect(LlamaSession.largest(10, of: buffer) == [5, 1, 3, 4, 0, 2])
    }
  }

  @Test func aFinalAssistantMessageIsContinued() async throws {
    let model = try await SharedModels.smolLM2()
    let open = try model.formatChat(Self.question)
    let continued = try model.formatChat(Self.question + [.assistant("The capital of France is")])
    #expect(continued == open + "The capital of France is")
  }
}
