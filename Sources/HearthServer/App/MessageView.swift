import HearthCore

/// A message as the web app gets it: the stored message and, for an answer, where its action blocks are
/// (`action_blocks`, UTF-16 `[start, end]` pairs), so that the app shows cards in their place without
/// parsing blocks itself.
struct MessageView: Encodable {
  let message: StoredMessage

  init(_ message: StoredMessage) { self.message = message }

  private enum Extra: String, CodingKey { case actionBlocks = "action_blocks" }

  func encode(to encoder: any Encoder) throws {
    try message.encode(to: encoder)
    var container = encoder.container(keyedBy: Extra.self)
    let spans = message.role == .assistant ? ActionBlockParser.blockSpans(in: message.content) : []
    try container.encode(spans.map { [$0.lowerBound, $0.upperBound] }, forKey: .actionBlocks)
  }
}
