public import HearthCore

/// What a request asks Hearth to do, as one of a small set of intents: an action of a kind, or a plain answer
/// that touches none of the user's data. The words' readers (``RequestHints``) decide where they can; an
/// intent read from the request's meaning (``IntentMatcher``) decides where they find nothing.
public struct RequestIntent: Sendable, Hashable, CustomStringConvertible {
  /// The kind of action; `nil` for a plain answer (general knowledge, advice, a poem, small talk).
  public var kind: ActionKind?
  /// The action of that kind, as ``ActionSpec`` names it (`create`, `query`, `update` …); `nil` for a kind
  /// with one action (a contact or web search).
  public var action: String?

  public init(_ kind: ActionKind?, _ action: String? = nil) {
    self.kind = kind
    self.action = action
  }

  /// A plain answer: nothing of the user's is read or changed.
  public static let plain = RequestIntent(nil)

  /// Whether the intent reads the user's data without changing it.
  public var onlyReads: Bool {
    guard let kind else { return false }
    if kind == .contactsSearch { return true }
    return ["query", "free", "list", "search", "stats"].contains(action ?? "")
  }

  public var description: String {
    guard let kind else { return "plain" }
    return action.map { "\(kind.rawValue).\($0)" } ?? kind.rawValue
  }
}
