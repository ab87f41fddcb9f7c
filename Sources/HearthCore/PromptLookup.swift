/// Drafts for prompt-lookup speculation. When the last few tokens of the text so far (prompt and answer) also
/// occur earlier in it, the tokens that followed them there are likely to follow again: an answer that quotes,
/// corrects or rewrites a given text copies long runs of it. A draft is only a guess; the model checks every
/// drafted token in one batch and keeps those it would have written itself, so the answer is the one plain
/// decoding gives.
///
/// Drafting pauses while it does not pay: when fewer than ``minimumAcceptance`` of the last
/// ``acceptanceWindow`` drafted tokens were kept, no draft is offered for the next ``pauseLength`` tokens.
public struct PromptLookup: Sendable {
  /// Fewest drafted tokens over which acceptance is judged.
  public static let acceptanceWindow = 24
  /// Share of drafted tokens that must be kept for drafting to go on.
  public static let minimumAcceptance = 0.3
  /// Tokens written without drafts after drafting stopped paying.
  public static let pauseLength = 32

  /// The text so far, as token ids.
  public private(set) var tokens: [Int32]
  /// Longest and shortest run of last tokens looked for; longer runs are tried first.
  public let longestMatch: Int
  public let shortestMatch: Int
  private var drafted = 0
  private var kept = 0
  private var pausedFor = 0

  /// - Parameters:
  ///   - longestMatch: the run of last tokens looked for at most; longer matches are surer guesses.
  ///   - shortestMatch: the shortest run that drafts. On a CPU a batch of nine tokens costs about four times one
  ///     token (SmolLM2, two threads), so a draft must be right most of the time to pay: a simulation over the
  ///     rewrite benchmark's answers chose 5 to 16 (runs of 2 to 4 drafted too often and wrongly).
  public init(tokens: [Int32], longestMatch: Int = 16, shortestMatch: Int = 5) {
    self.tokens = tokens
    self.longestMatch = max(longestMatch, 1)
    self.shortestMatch = min(max(shortestMatch, 1), self.longestMatch)
  }

  /// Whether drafting is paused because recent drafts were mostly refused.
  public var isPaused: Bool { pausedFor > 0 }

  /// Adds a token the model wrote.
  public mutating func append(_ token: Int32) {
    tokens.append(token)
    if pausedFor > 0 { pausedFor -= 1 }
  }

  /// Records how many of `drafted` tokens the model kept.
  public mutating func verified(drafted count: Int, kept accepted: Int) {
    drafted += count
    kept += accepted
    guard drafted >= Self.acceptanceWindow else { return }
    if Double(kept) < Self.minimumAcceptance * Double(drafted) { pausedFor = Self.pauseLength }
    drafted = 0
    kept = 0
  }

  /// Up to `limit` tokens that followed the earlier run matching most of the text's last tokens (the latest of
  /// equal ones, at least ``shortestMatch`` long); empty when there is none within `window` tokens (which bounds
  /// each call's scan to one pass), or while paused.
  public func draft(limit: Int, window: Int = 8192) -> [Int32] {
    guard limit > 0, !isPaused, tokens.count > 1 else { return [] }
    let count = tokens.count
    let last = tokens[count - 1]
    var bestEnd = -1
    var bestLength = 0
    var end = count - 2
    let earliest = max(0, count - 1 - window)
    while end >= earliest {
      if tokens[end] == last {
        var length = 1
        while length < longestMatch, end - length >= 0, tokens[end - length] == tokens[count - 1 - length] {
          length += 1
        }
        if length > bestLength {
          (bestEnd, bestLength) = (end, length)
          if length == longestMatch { break }
        }
      }
      end -= 1
    }
    guard bestLength >= shortestMatch else { return [] }
    return Array(tokens[(bestEnd + 1)..<min(bestEnd + 1 + limit, count)])
  }
}
