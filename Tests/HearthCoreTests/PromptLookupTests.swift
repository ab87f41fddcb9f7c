import HearthCore
import Testing

@Suite("Prompt-lookup drafts")
struct PromptLookupTests {
  @Test func theTokensAfterTheLatestEarlierRunAreDrafted() {
    // … 1 2 3 9 9 … 1 2 3 7 8 … 2 3  →  the latest "2 3" was followed by 7 8 …
    let lookup = PromptLookup(tokens: [5, 1, 2, 3, 9, 9, 4, 1, 2, 3, 7, 8, 6, 2, 3], shortestMatch: 2)
    #expect(lookup.draft(limit: 3) == [7, 8, 6])
    #expect(lookup.draft(limit: 10) == [7, 8, 6, 2, 3])
    #expect(lookup.draft(limit: 0).isEmpty)
  }

  @Test func aLongerMatchWinsOverALaterShorterOne() {
    // "1 2 3" occurs at the start, followed by 4; "2 3" alone occurs later, followed by 9.
    let lookup = PromptLookup(tokens: [1, 2, 3, 4, 4, 2, 3, 9, 0, 1, 2, 3], longestMatch: 3, shortestMatch: 2)
    #expect(lookup.draft(limit: 2) == [4, 4])
    let shorter = PromptLookup(tokens: [1, 2, 3, 4, 4, 2, 3, 9, 0, 1, 2, 3], longestMatch: 2, shortestMatch: 2)
    #expect(shorter.draft(limit: 2) == [9, 0])
  }

  @Test func nothingIsDraftedWithoutAnEarlierRunOrBeyondTheWindow() {
    #expect(PromptLookup(tokens: [1, 2, 3, 4, 5], shortestMatch: 1).draft(limit: 4).isEmpty)
    #expect(PromptLookup(tokens: [7]).draft(limit: 4).isEmpty)
    #expect(PromptLookup(tokens: []).draft(limit: 4).isEmpty)
    let far = [1, 2, 8] + Array(repeating: Int32(0), count: 50) + [1, 2]
    #expect(PromptLookup(tokens: far, shortestMatch: 2).draft(limit: 1) == [8])
    #expect(PromptLookup(tokens: far, shortestMatch: 2).draft(limit: 1, window: 20).isEmpty)
  }

  /// By default a run of five tokens is the shortest that drafts, and sixteen the longest looked for.
  @Test func shortRunsDoNotDraftByDefault() {
    let text: [Int32] = [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 2, 3, 4, 5]
    #expect(PromptLookup(tokens: text).draft(limit: 4).isEmpty)
    #expect(PromptLookup(tokens: text + [6]).draft(limit: 4) == [7, 8, 0, 0])
  }

  @Test func aRepeatedTokenDraftsItsOwnRepeats() {
    #expect(PromptLookup(tokens: [4, 4, 4, 4], shortestMatch: 2).draft(limit: 3) == [4])
  }

  @Test func appendedTokensAreLookedUpToo() {
    var lookup = PromptLookup(tokens: [10, 11, 12, 13, 14], shortestMatch: 2)
    lookup.append(11)
    lookup.append(12)
    #expect(lookup.draft(limit: 2) == [13, 14])
  }

  @Test func draftingPausesWhileItDoesNotPayAndThenTriesAgain() {
    var lookup = PromptLookup(tokens: [1, 2, 3, 1, 2])
    lookup.verified(drafted: 8, kept: 8)
    lookup.verified(drafted: 16, kept: 0)  // 8 of 24 kept: above the 30 % needed
    #expect(!lookup.isPaused)
    lookup.verified(drafted: 24, kept: 7)  // 7 of 24: below
    #expect(lookup.isPaused)
    #expect(lookup.draft(limit: 4).isEmpty)
    for _ in 0..<PromptLookup.pauseLength { lookup.append(0) }
    #expect(!lookup.isPaused)
  }
}

@Suite("Which requests are drafted")
struct DraftPolicyTests {
  @Test func onlyARequestGivingATextIsDrafted() {
    #expect(DraftPolicy.draftTokens(forUserText: "What is the capital of Portugal?") == 0)
    #expect(DraftPolicy.draftTokens(forUserText: String(repeating: "a", count: 199)) == 0)
    #expect(
      DraftPolicy.draftTokens(forUserText: String(repeating: "a", count: 200)) == DraftPolicy.copyingDraftTokens)
  }
}
