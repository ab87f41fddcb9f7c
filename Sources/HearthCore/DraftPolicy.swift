/// Which requests get prompt-lookup drafts (``GenerationOptions/draftTokens``) when they do not say: those that
/// give a text to work on. Quoting, correcting, rewriting or summarising a given text copies runs of it, which
/// drafts predict; a short question gives nothing to copy, and its answer is decoded as before.
public enum DraftPolicy {
  /// A user's text at least this long (in characters) is taken as a text to work on.
  public static let givenTextLength = 200
  /// Tokens drafted per step for such a request.
  public static let copyingDraftTokens = 8

  /// The draft length for a request whose user text is `text`.
  public static func draftTokens(forUserText text: String) -> Int {
    text.count >= givenTextLength ? copyingDraftTokens : 0
  }
}
