public import HearthCore

/// A finished answer and what its turn read, for the check before it is shown.
public struct AnswerToCheck: Sendable {
  /// The user's message.
  public var request: String
  /// The answer as the turn wrote it (blocks and all).
  public var answer: String
  /// The actions its blocks ran and the look-ups they answered.
  public var records: [ActionRecord]
  /// The memory's passages the model read, when it read any.
  public var memory: String?
  /// The same passages by their numbers, for an answer that cites them.
  public var passages: [Int: String] = [:]
  /// The conversation before this turn.
  public var earlier: String
  /// The answer's stored message; `nil` for an answer that is not kept (`hearth ask --no-save`).
  public var message: StoredMessage?
}

/// What is shown instead of an answer that failed the check.
public struct CheckedAnswer: Sendable {
  /// The answer's new text.
  public var text: String
  /// The look-ups run to write it (their cards join the answer's).
  public var records: [ActionRecord]

  public init(text: String, records: [ActionRecord] = []) {
    self.text = text
    self.records = records
  }
}
