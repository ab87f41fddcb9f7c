import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("Pinned prompts and replies, kept in the profile")
struct PinnedPromptTests {
  private func engine(_ model: ScriptedChatModel = ScriptedChatModel(pieces: ["Fine."])) throws -> Engine {
    try Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]),
      answering: model)
  }

  @Test func promptsArePinnedRenamedMovedAndUnpinned() throws {
    let engine = try engine()
    try engine.pinPrompt(name: "Weekly review", text: "What did I get done this week?")
    try engine.pinPrompt(name: "Tomorrow", text: "What is on tomorrow?")
    try engine.pinPrompt(name: " Plan ", text: "  Plan my day.  ")
    #expect(try engine.pinnedPrompts().map(\.name) == ["Weekly review", "Tomorrow", "Plan"])
    #expect(try engine.pinnedPrompt("plan").text == "Plan my day.")
    #expect(try engine.movePinnedPrompt("Plan", to: 1).map(\.name) == ["Plan", "Weekly review", "Tomorrow"])
    let renamed = try engine.editPinnedPrompt(
      "tomorrow", name: "Tomorrow's plan", text: "What is on tomorrow, hour by hour?")
    #expect(renamed.name == "Tomorrow's plan")
    // By id prefix too.
    let id = String(renamed.id.uuidString.prefix(8))
    #expect(try engine.pinnedPrompt(id).name == "Tomorrow's plan")
    try engine.unpinPrompt("weekly review")
    #expect(try engine.pinnedPrompts().map(\.name) == ["Plan", "Tomorrow's plan"])
    // A second engine on the profile sees the same list.
    let again = try Engine.open(
      EngineConfiguration(paths: engine.paths, environment: [:]), answering: ScriptedChatModel(pieces: []))
    #expect(try again.pinnedPrompts().map(\.name) == ["Plan", "Tomorrow's plan"])
  }

  @Test func badPromptsAreRefusedByWhatIsWrong() throws {
    let engine = try engine()
    try engine.pinPrompt(name: "Plan", text: "Plan my day.")
    #expect(throws: PinnedPromptError.duplicate("PLAN")) { try engine.pinPrompt(name: "PLAN", text: "x") }
    #expect(throws: PinnedPromptError.emptyName) { try engine.pinPrompt(name: "  ", text: "x") }
    #expect(throws: PinnedPromptError.emptyText) { try engine.pinPrompt(name: "Other", text: "\n") }
    #expect(throws: PinnedPromptError.tooLong(field: "name", limit: 40)) {
      try engine.pinPrompt(name: String(repeating: "n", count: 41), text: "x")
    }
    #expect(throws: PinnedPromptError.badPosition(3, count: 1)) { try engine.movePinnedPrompt("Plan", to: 3) }
    #expect(throws: PinnedPromptError.notFound("Nope", known: ["Plan"])) { try engine.unpinPrompt("Nope") }
  }

  @Test func aReplyQuotesTheAnswerAsItReadsNotItsBlocks() async throws {
    let block = #"[REMINDER_ACTION:{"action":"create","title":"Buy stamps"}]"#
    let engine = try engine(ScriptedChatModel(pieces: ["Noted. ", block]))
    let session = try await engine.chat.newSession()
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message("I need stamps"))) { _ in }
    let messages = try engine.sessions.messages(in: session.id)
    let answer = try #require(messages.last)
    let reply = try engine.reply("When?", quoting: answer.id, in: session.id)
    #expect(reply.hasPrefix("> Noted."))
    #expect(reply.contains("Buy stamps"))
    #expect(!reply.contains("REMINDER_ACTION"))
    #expect(reply.hasSuffix("\n\nWhen?"))
    #expect(try engine.reply("Sure?", quotingNumber: 1, in: session.id) == "> I need stamps\n\nSure?")
    #expect(throws: ReplyTargetError.self) { try engine.reply("x", quotingNumber: 9, in: session.id) }
    #expect(throws: ReplyTargetError.self) { try engine.reply("x", quoting: UUID(), in: session.id) }
  }
}
