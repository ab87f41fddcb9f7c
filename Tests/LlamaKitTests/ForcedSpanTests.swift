import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("Text a grammar forces, evaluated in one batch by the real model", .heavy)
struct ForcedSpanTests {
  static let schema = #"""
    {"type":"object","properties":{"title":{"type":"string","maxLength":40},"start":{"type":"string"},
    "end":{"type":"string"},"location":{"type":"string"},"attendees":{"type":"array","items":{"type":"string"},
    "maxItems":4},"all_day":{"type":"boolean"}},"required":["title","start","end","location","attendees","all_day"]}
    """#
  static let request: [ChatMessage] = [
    .system("You are a helpful assistant."),
    .user("Team lunch with Anna and Bob next Friday from 12:30 to 13:30 at Luigi's, as a JSON event."),
  ]

  private static func grammar() throws -> String {
    try JSONSchemaGrammar.grammar(for: JSONDecoder().decode(JSONValue.self, from: Data(schema.utf8)))
  }

  /// Whether `text` stays inside the grammar, and ends where it may when `whole`.
  private static func follows(_ text: String, whole: Bool) throws -> Bool {
    var follower = GrammarFollower(try GBNFGrammar(try grammar()))
    follower.accept(bytes: Array(text.utf8))
    return !follower.isLost && (!whole || follower.canEnd)
  }

  private func answer(
    _ mode: ForcedText, tokens: Int = 160, sampling: SamplingParameters = .greedy
  ) async throws -> (result: Collected, answerTokens: [Int32]) {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: tokens, sampling: sampling, grammar: try Self.grammar())
    options.forcedText = mode
    let prompt = try session.chatPromptTokens(Self.request)
    let result = try await Collected.from(session.respond(to: Self.request, options: options))
    let cached = await session.executor.perform { session.slots[0].cachedTokens }
    #expect(Array(cached.prefix(prompt.count)) == prompt)
    return (result, Array(cached.dropFirst(prompt.count)))
  }

  /// The cached answer tokens spell the answer's text: nothing evaluated that the consumer did not get. An
  /// answer cut at its budget has its last token sampled but never evaluated.
  private func spells(_ tokens: [Int32], _ result: Collected) async throws -> Bool {
    let model = try await SharedModels.smolLM2()
    let spelled = String(decoding: tokens.flatMap { model.pieceBytes(of: $0) }, as: UTF8.self)
    guard result.stopReason == .maxTokens else { return spelled == result.text }
    return tokens.count == (result.usage?.generatedTokens ?? 0) - 1 && result.text.hasPrefix(spelled)
  }

  /// Greedy decoding with forced spans writes a valid object, forcing the keys and punctuation, and the cache
  /// holds exactly the answer's tokens. Up to the first span the two answers are the same tokens; after it
  /// they may differ: unforced, SmolLM2 spells `start` as `s`, `t`, `a`, `rt` (the likeliest tokens the grammar
  /// allows after a refused one), while a span writes the tokenizer's own `start`, so what the model reads
  /// next differs (`hearth bench structured` counts how often the values differ).
  @Test func forcedSpansWriteAValidObjectInFewerSteps() async throws {
    let (plain, plainTokens) = try await answer(.sampled)
    let (forced, forcedTokens) = try await answer(.batched)
    for (result, tokens) in [(plain, plainTokens), (forced, forcedTokens)] {
      #expect(result.stopReason == .endOfGeneration, "\(result.text)")
      #expect(try Self.follows(result.text, whole: true), "\(result.text)")
      #expect(tokens.count == result.usage?.generatedTokens)
      #expect(try await spells(tokens, result))
    }
    let plainValue = try JSONDecoder().decode(JSONValue.self, from: Data(plain.text.utf8))
    let forcedValue = try JSONDecoder().decode(JSONValue.self, from: Data(forced.text.utf8))
    #expect(forcedValue["title"] == plainValue["title"], "\(forced.text) against \(plain.text)")
    #expect(plain.usage?.forcedTokens == nil)
    let count = try #require(forced.usage?.forcedTokens)
    let generated = try #require(forced.usage?.generatedTokens)
    #expect(count >= 10 && count < generated, "forced \(count) of \(generated)")
  }

  /// The forced tokens evaluated one per step give the batched answer token for token: evaluating them in one
  /// batch changes no pick (batches this short compute the same logits as single tokens).
  @Test func forcedTokensOnePerStepGiveTheBatchedAnswer() async throws {
    let (batched, batchedTokens) = try await answer(.batched)
    let (stepwise, stepwiseTokens) = try await answer(.stepwise)
    #expect(stepwise.text == batched.text)
    #expect(stepwiseTokens == batchedTokens)
    #expect(stepwise.usage?.forcedTokens == batched.usage?.forcedTokens)
    #expect((batched.usage?.forcedTokens ?? 0) >= 10)
  }

  /// A request long enough to draft writes what it writes without drafts: a kept draft after which the grammar
  /// forces text ends the draft, so the span follows as it would have.
  @Test func draftingLeavesTheForcedAnswerAsItIs() async throws {
    let message: [ChatMessage] = [
      .system("You are a helpful assistant."),
      .user(
        """
        Read this message and give the event in it as JSON: Hi all, the team lunch moves to Friday. We meet at \
        Luigi's on Harbour Street from 12:30 to 13:30; Anna and Bob are coming, Carol cannot. Bring the menu ideas.
        """),
    ]
    var results: [Collected] = []
    for drafts in [0, 8] {
      let session = try await SharedModels.session()
      var options = GenerationOptions(maxNewTokens: 160, sampling: .greedy, grammar: try Self.grammar())
      options.draftTokens = drafts
      results.append(try await Collected.from(session.respond(to: message, options: options)))
    }
    #expect(results[1].text == results[0].text)
    #expect((results[1].usage?.draftedTokens ?? 0) > 0, "the message's words were drafted")
    #expect(
      (results[0].usage?.forcedTokens ?? 0) > 0 && results[0].usage?.forcedTokens == results[1].usage?.forcedTokens)
    #expect(try Self.follows(results[1].text, whole: results[1].stopReason == .endOfGeneration))
  }

  /// Sampled answers keep to the grammar with forced spans between the sampled tokens.
  @Test(arguments: [UInt32(1), 2, 3])
  func sampledAnswersStayValid(seed: UInt32) async throws {
    let sampling = SamplingParameters(temperature: 1.0, seed: seed)
    let (result, tokens) = try await answer(.batched, sampling: sampling)
    #expect(try Self.follows(result.text, whole: result.stopReason == .endOfGeneration), "\(result.text)")
    #expect(try await spells(tokens, result))
    #expect((result.usage?.forcedTokens ?? 0) > 0)
  }

  /// An answer cut at its token budget never overshoots it inside a span, and the cache holds the answer's
  /// tokens but the last (sampled, never evaluated).
  @Test(arguments: [6, 11, 17, 29])
  func aBudgetNearASpanIsKept(tokens: Int) async throws {
    let (result, cached) = try await answer(.batched, tokens: tokens)
    #expect(result.stopReason == .maxTokens)
    #expect(result.usage?.generatedTokens == tokens)
    #expect(cached.count == tokens - 1)
    #expect(try Self.follows(result.text, whole: false), "\(result.text)")
    #expect((result.usage?.forcedTokens ?? 0) > 0)
  }

  /// Left after a few pieces, the run stops within one step (a pending token and its span), and the cache
  /// holds what the consumer was given but the last token.
  @Test(arguments: [3, 8, 15])
  func anAnswerLeftPartWayLeavesACleanCache(pieces wanted: Int) async throws {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: 160, sampling: .greedy, grammar: try Self.grammar())
    options.forcedText = .batched
    let prompt = try session.chatPromptTokens(Self.request)
    var pieces = 0
    for try await event in session.respond(to: Self.request, options: options) {
      if case .token = event { pieces += 1 }
      if pieces == wanted { break }
    }
    await session.waitUntilIdle()
    let record = try #require(session.lastRecord)
    #expect(record.stopReason == .cancelled)
    #expect(record.tokensAfterCancellation.map { $0 <= 1 + GenerationRun.maxForcedTokens } == true)
    let cached = await session.executor.perform { session.slots[0].cachedTokens }
    #expect(cached.count == prompt.count + record.usage.generatedTokens - 1)
    #expect((record.usage.forcedTokens ?? 0) > 0, "a span was written before the answer was left")
  }

  /// Two constrained answers at once both get their spans and stay valid.
  @Test func twoAnswersAtOnceBothForce() async throws {
    let session = try await LlamaSession.create(
      model: try await SharedModels.smolLM2(), options: ContextOptions(contextSize: 1024, slots: 2))
    var options = GenerationOptions(maxNewTokens: 160, sampling: .greedy, grammar: try Self.grammar())
    options.forcedText = .batched
    async let first = Collected.from(session.respond(to: Self.request, options: options))
    let dentist: [ChatMessage] = [.user("Dentist on Monday at 9 in Main Street, alone, as a JSON event.")]
    async let second = Collected.from(session.respond(to: dentist, options: options))
    for result in try await [first, second] {
      #expect(try Self.follows(result.text, whole: result.stopReason == .endOfGeneration), "\(result.text)")
      #expect((result.usage?.forcedTokens ?? 0) > 0)
    }
  }
}
