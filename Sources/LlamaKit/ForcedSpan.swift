/// The tokens that write text a grammar forces (``HearthCore/GrammarFollower``), chosen so that the model sees
/// the tokenization it would have written itself: the boundary with the token before is tokenized again
/// with the forced text, and the last token is left for the model to sample.
enum ForcedSpan {
  /// Most characters of forced text looked at in one step.
  static let maxCharacters = 96

  /// The tokens for `forced` after the sampled token `pending`; empty when there are none worth forcing.
  ///
  /// - When `pending`'s text and the forced text tokenize into a different first token (a `"` that the `,`
  ///   after it would join into `",`), nothing is forced this step: the model writes the next token and the
  ///   span is tried again after it.
  /// - The forced text's last token is not forced: the free text that follows may join it into a longer
  ///   token (` "` and `Team` into ` "Team`), which the model then picks under the grammar as usual.
  static func tokens(after pending: Int32, forced: String, model: LlamaModel) -> [Int32] {
    guard let pendingText = String(validating: model.pieceBytes(of: pending), as: UTF8.self) else { return [] }
    let tokens: [Int32]
    do {
      tokens = try model.tokenize(pendingText + forced, addSpecial: false, parseSpecial: false)
    } catch {
      // Forcing is only a shortcut: without it the model writes the same text token by token.
      return []
    }
    guard tokens.count > 2, tokens[0] == pending else { return [] }
    let span = Array(tokens[1..<(tokens.count - 1)])
    // The tokens must spell the forced text's beginning exactly, or they are not what the grammar forces.
    var spelled: [UInt8] = []
    for token in span { spelled += model.pieceBytes(of: token) }
    guard forced.utf8.starts(with: spelled) else { return [] }
    return span
  }
}
