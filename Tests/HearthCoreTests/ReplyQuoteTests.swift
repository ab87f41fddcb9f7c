import HearthCore
import Testing

@Suite("Replies quote the message they answer")
struct ReplyQuoteTests {
  @Test func theQuoteComesFirstAndSplitsBackOut() throws {
    let text = ReplyQuote.compose("Why that one?", quoting: "Paris is the capital.\nIt is large.")
    #expect(text == "> Paris is the capital.\n> It is large.\n\nWhy that one?")
    let parts = try #require(ReplyQuote.split(text))
    #expect(parts.quote == "Paris is the capital.\nIt is large.")
    #expect(parts.reply == "Why that one?")
    #expect(ReplyQuote.split("Just a message") == nil)
    #expect(ReplyQuote.split("> a quote with no reply") == nil)
  }

  @Test func aQuotedBlockIsDefusedAndALongQuoteIsCut() {
    let block = #"[NOTE_ACTION:{"action":"create","title":"X"}]"#
    let quoted = ReplyQuote.compose("Again", quoting: "Done. " + block)
    #expect(ActionBlockParser.parse(quoted).blocks.isEmpty)
    let long = ReplyQuote.compose("ok", quoting: String(repeating: "word ", count: 400))
    let quote = ReplyQuote.split(long)?.quote ?? ""
    #expect(quote.count <= ReplyQuote.limit + 1)
    #expect(quote.hasSuffix("…"))
  }
}
