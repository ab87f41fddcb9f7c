import HearthCore
import Testing

@Suite("Fitting a conversation into the context window")
struct ContextBudgetTests {
  /// Stands in for a tokenizer: one token per word plus four per message of template overhead.
  private func words(_ messages: [ChatMessage]) -> Int {
    messages.reduce(0) { $0 + 4 + $1.content.split(separator: " ").count }
  }

  private func history(turns: Int, wordsPerMessage: Int = 10) -> [ChatMessage] {
    (0..<turns).flatMap { turn in
      [
        ChatMessage.user("question \(turn) " + String(repeating: "word ", count: wordsPerMessage - 2)),
        ChatMessage.assistant("answer \(turn) " + String(repeating: "word ", count: wordsPerMessage - 2)),
      ]
    } + [.user("What now?")]
  }

  @Test func keepsEverythingWhenItFits() throws {
    let budget = ContextBudget(contextSize: 1000, maxNewTokens: 100)
    let fitted = try budget.fit(
      system: "Be kind.", history: history(turns: 3), summarize: ExtractiveSummary.summarize, countTokens: words)
    #expect(fitted.droppedCount == 0)
    #expect(!fitted.trimmed)
    #expect(fitted.messages.count == 8)
    #expect(fitted.messages.first == .system("Be kind."))
  }

  @Test func dropsWholeOldTurnsAndSummarisesThem() throws {
    let budget = ContextBudget(contextSize: 200, maxNewTokens: 50)
    let all = history(turns: 20)
    let fitted = try budget.fit(
      system: "Be kind.", history: all, summarize: ExtractiveSummary.summarize, countTokens: words)
    #expect(fitted.trimmed)
    #expect(fitted.droppedCount > 0)
    #expect(all[fitted.droppedCount].role == .user)
    #expect(fitted.promptTokens <= Int(Double(budget.promptBudget) * budget.refillRatio))
    #expect(fitted.promptTokens == words(fitted.messages))
    #expect(fitted.messages.last == all.last)
    let system = try #require(fitted.messages.first)
    #expect(system.role == .system)
    #expect(system.content.hasPrefix("Be kind.\n\nSummary of the earlier conversation: "))
  }

  @Test func theCutOnlyMovesForwardAndStaysPutWhileThingsFit() throws {
    let budget = ContextBudget(contextSize: 300, maxNewTokens: 50)
    var all = history(turns: 30)
    let first = try budget.fit(system: nil, history: all, summarize: ExtractiveSummary.summarize, countTokens: words)
    #expect(first.trimmed)
    // One more short turn: the earlier cut still fits, so the prompt prefix is unchanged.
    all += [.assistant("Fine."), .user("And then?")]
    let second = try budget.fit(
      system: nil, history: all, previousCut: first.droppedCount, summarize: ExtractiveSummary.summarize,
      countTokens: words)
    #expect(!second.trimmed)
    #expect(second.droppedCount == first.droppedCount)
    #expect(Array(second.messages.prefix(first.messages.count - 1)) == Array(first.messages.dropLast()))
  }

  @Test(arguments: 1...40)
  func neverExceedsTheBudget(turns: Int) throws {
    let budget = ContextBudget(contextSize: 256, maxNewTokens: 64)
    let fitted = try budget.fit(
      system: "You are Hearth.", history: history(turns: turns, wordsPerMessage: 7),
      summarize: ExtractiveSummary.summarize, countTokens: words)
    #expect(words(fitted.messages) <= budget.promptBudget)
  }

  @Test func reportsAMessageThatCannotFit() {
    let budget = ContextBudget(contextSize: 64, maxNewTokens: 32)
    let long: [ChatMessage] = [.user(String(repeating: "word ", count: 100))]
    #expect(throws: ContextBudgetError.self) {
      try budget.fit(system: nil, history: long, summarize: ExtractiveSummary.summarize, countTokens: words)
    }
  }

  @Test func summarisesFirstSentencesWithinItsLimit() {
    let messages: [ChatMessage] = [
      .user("Book the dentist for Tuesday. Also buy milk."), .assistant("Done! Anything else?"),
      .user("What's the weather\nlike?"), .assistant(String(repeating: "x", count: 500)),
    ]
    let summary = ExtractiveSummary.summarize(messages, limit: 600)
    // First sentences only, line breaks folded, a long one cut with an ellipsis.
    #expect(
      summary
        == "the user said “Book the dentist for Tuesday.”; the assistant replied “Done!”; "
        + "the user said “What's the weather like?”; the assistant replied “"
        + String(repeating: "x", count: 79) + "…”.")
    #expect(ExtractiveSummary.summarize(messages, limit: 100).count <= 100)
  }
}
