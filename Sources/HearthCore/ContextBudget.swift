/// Fits a conversation into a model's context window: the system prompt, then as many of the most recent
/// turns as fit in `contextSize - maxNewTokens`, counted with the model's own tokenizer.
///
/// Turns are dropped oldest first, whole (from one user message up to the next), and replaced by a short
/// summary appended to the system prompt. The cut only ever moves forward, and when it must move it goes
/// past what is strictly needed (down to ``refillRatio`` of the budget), so the rendered prompt stays
/// byte-stable for several turns and the model's cached prefix can be reused.
public struct ContextBudget: Sendable, Hashable {
  /// Size of the context window in tokens.
  public var contextSize: Int
  /// Tokens reserved for the answer.
  public var maxNewTokens: Int
  /// After trimming, the prompt is cut down to this share of the budget.
  public var refillRatio: Double

  /// Creates a budget.
  public init(contextSize: Int, maxNewTokens: Int, refillRatio: Double = 0.75) {
    self.contextSize = contextSize
    self.maxNewTokens = maxNewTokens
    self.refillRatio = refillRatio
  }

  /// Tokens available to the prompt.
  public var promptBudget: Int { contextSize - maxNewTokens }

  /// Chooses what to send.
  /// - Parameters:
  ///   - system: the system prompt, if any.
  ///   - history: every message after the system prompt; the last one is the new user message.
  ///   - previousCut: how many leading history messages an earlier turn already dropped.
  ///   - summarize: a summary of the dropped messages in at most the given number of characters (an eighth
  ///     of the budget, at about four characters a token).
  ///   - countTokens: tokens of the prompt these messages render to.
  /// - Throws: ``ContextBudgetError`` when even the system prompt and the new message do not fit, or
  ///   whatever `countTokens` throws.
  public func fit(
    system: String?, history: [ChatMessage], previousCut: Int = 0,
    summarize: ([ChatMessage], Int) -> String,
    countTokens: ([ChatMessage]) throws -> Int
  ) throws -> FittedConversation {
    guard !history.isEmpty else { throw ContextBudgetError.emptyConversation }
    let boundaries = turnStarts(history).filter { $0 >= min(previousCut, history.count - 1) }
    func render(cut: Int) -> [ChatMessage] {
      let dropped = Array(history[..<cut])
      var systemText = system ?? ""
      if !dropped.isEmpty {
        let summary = summarize(dropped, max(60, promptBudget / 2))
        systemText += (systemText.isEmpty ? "" : "\n\n") + "Summary of the earlier conversation: \(summary)"
      }
      return (systemText.isEmpty ? [] : [.system(systemText)]) + history[cut...]
    }

    let firstCut = boundaries.first ?? history.count - 1
    let first = render(cut: firstCut)
    let firstCount = try countTokens(first)
    if firstCount <= promptBudget {
      return FittedConversation(messages: first, droppedCount: firstCut, promptTokens: firstCount, trimmed: false)
    }
    // Past the budget: find the earliest boundary whose prompt fits within the refill target.
    let target = max(1, Int(Double(promptBudget) * refillRatio))
    var low = 0
    var high = boundaries.count - 1
    var best: (cut: Int, messages: [ChatMessage], count: Int)?
    while low <= high {
      let middle = (low + high) / 2
      let messages = render(cut: boundaries[middle])
      let count = try countTokens(messages)
      if count <= target {
        best = (boundaries[middle], messages, count)
        high = middle - 1
      } else {
        low = middle + 1
      }
    }
    if best == nil, let last = boundaries.last {
      // Nothing reaches the refill target; the last boundary may still fit the hard budget.
      let messages = render(cut: last)
      let count = try countTokens(messages)
      if count <= promptBudget { best = (last, messages, count) }
    }
    guard let best else {
      let minimal = render(cut: history.count - 1)
      throw ContextBudgetError.messageTooLong(promptTokens: try countTokens(minimal), budget: promptBudget)
    }
    return FittedConversation(
      messages: best.messages, droppedCount: best.cut, promptTokens: best.count, trimmed: best.cut > previousCut)
  }

  /// Indices where a turn starts: each user message, and always the last message.
  private func turnStarts(_ history: [ChatMessage]) -> [Int] {
    var starts = history.indices.filter { history[$0].role == .user }
    if starts.last != history.count - 1 { starts.append(history.count - 1) }
    return starts
  }
}

/// The messages to send for a turn.
public struct FittedConversation: Sendable, Hashable {
  /// System prompt (with any summary) followed by the kept history.
  public var messages: [ChatMessage]
  /// How many leading history messages were left out.
  public var droppedCount: Int
  /// Tokens of the rendered prompt.
  public var promptTokens: Int
  /// Whether this turn dropped more than the previous one: the user should be told.
  public var trimmed: Bool
}

/// The conversation cannot be fitted at all.
public enum ContextBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
  /// There is no message to answer.
  case emptyConversation
  /// The system prompt and the new message alone exceed the budget.
  case messageTooLong(promptTokens: Int, budget: Int)

  public var description: String {
    switch self {
    case .emptyConversation: "there is no message to answer"
    case .messageTooLong(let tokens, let budget):
      "the message and system prompt take \(tokens) tokens but only \(budget) fit before the answer; shorten it or raise the context size"
    }
  }
}
