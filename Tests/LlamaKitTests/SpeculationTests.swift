import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("Prompt-lookup drafts checked by the real model", .heavy)
struct SpeculationTests {
  /// A request SmolLM2 answers by copying most of the text it gives (one of `hearth bench rewrite`'s).
  static let copying: [ChatMessage] = [
    .system("You are a helpful assistant."),
    .user(
      """
      List each step of this on its own line: Preheat the oven to 200 degrees. Chop the potatoes into wedges. \
      Toss them in olive oil and salt. Spread them on a tray. Bake for forty minutes, turning them once halfway \
      through.
      """),
  ]

  private func answer(drafting: Int, tokens: Int = 120) async throws -> (Collected, [Int32]) {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: tokens, sampling: .greedy)
    options.draftTokens = drafting
    let result = try await Collected.from(session.respond(to: Self.copying, options: options))
    let cached = await session.executor.perform { session.slots[0].cachedTokens }
    return (result, cached)
  }

  /// Greedy decoding with drafts writes, token for token, what it writes without them, and leaves the same
  /// tokens in the cache; the drafts were tried and most were kept.
  @Test func draftsGiveThePlainAnswerAndCache() async throws {
    let (plain, plainCache) = try await answer(drafting: 0)
    let (drafted, draftedCache) = try await answer(drafting: 8)
    #expect(drafted.text == plain.text)
    #expect(drafted.usage?.generatedTokens == plain.usage?.generatedTokens)
    #expect(draftedCache == plainCache)
    #expect(plain.usage?.draftedTokens == nil)
    let tried = try #require(drafted.usage?.draftedTokens)
    let kept = try #require(drafted.usage?.keptDraftTokens)
    #expect(tried >= 16 && kept * 2 >= tried, "kept \(kept) of \(tried)")
  }

  /// An answer cut at its token budget part-way through a draft leaves what a plain answer leaves.
  @Test(arguments: [13, 22, 37])
  func aBudgetReachedInsideADraftLeavesNoStrayTokens(tokens: Int) async throws {
    let (plain, plainCache) = try await answer(drafting: 0, tokens: tokens)
    let (drafted, draftedCache) = try await answer(drafting: 8, tokens: tokens)
    #expect(drafted.text == plain.text)
    #expect(drafted.stopReason == .maxTokens)
    #expect(draftedCache == plainCache)
    // The last step drafted too: the budget ran out in a draft, counted in the usage.
    let tried = try #require(drafted.usage?.draftedTokens)
    #expect(tried > 0)
  }

  /// Left after 30 pieces, the run stops within one step (a pending token and its drafts), and the cache holds
  /// what was evaluated: the prompt and every written token but the last.
  @Test func aDraftingAnswerLeftPartWayLeavesACleanCache() async throws {
    let session = try await SharedModels.session()
    var options = GenerationOptions(maxNewTokens: 200, sampling: .greedy)
    options.draftTokens = 8
    let prompt = try session.chatPromptTokens(Self.copying)
    var pieces = 0
    for try await event in session.respond(to: Self.copying, options: options) {
      if case .token = event { pieces += 1 }
      if pieces == 30 { break }
    }
    await session.waitUntilIdle()
    let record = try #require(session.lastRecord)
    #expect(record.stopReason == .cancelled)
    #expect(record.tokensAfterCancellation.map { $0 <= 1 + 8 } == true)
    let generated = record.usage.generatedTokens
    #expect(generated < 200 && (record.usage.draftedTokens ?? 0) > 0)
    let cached = await session.executor.perform { session.slots[0].cachedTokens }
    #expect(cached.count == prompt.count + generated - 1)
    #expect(Array(cached.prefix(prompt.count)) == prompt)
  }
}
