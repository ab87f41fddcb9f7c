import Foundation
import HearthTestSupport
import Testing

@Suite("hearth import: chats from ChatGPT and Claude through the real binary", .heavy)
struct ImportCommandTests {
  static let fixtures = TestModels.packageRoot.appendingPathComponent("Tests/HearthInterchangeTests/Fixtures")

  @Test func bothExportsImportWithCountsAndTheMemoryFindsThem() async throws {
    let runner = CommandRunner(environment: ["HEARTH_EMBEDDING_MODEL": TestModels.miniLM])
    let chatgpt = try await runner.run(
      ["import", "chatgpt", Self.fixtures.appendingPathComponent("chatgpt-conversations.json").path, "--memory"])
    #expect(chatgpt.status == 0, "\(chatgpt.standardError)")
    #expect(
      chatgpt.standardOutput
        == """
        Imported 2 chats from ChatGPT: 9 messages, 2 other versions kept.
        Not kept: 1 image, 1 tether browsing display, 1 tool output.
        2 added to the memory.

        """)
    let claude = try await runner.run(
      ["import", "claude", Self.fixtures.appendingPathComponent("claude-conversations.json").path, "--json"])
    #expect(claude.status == 0, "\(claude.standardError)")
    #expect(claude.standardOutput.contains(#""conversations":2"#))
    #expect(claude.standardOutput.contains(#""versions":1"#))
    let again = try await runner.run(
      ["import", "claude", Self.fixtures.appendingPathComponent("claude-conversations.json").path])
    #expect(again.standardOutput.contains("2 already imported, left as they were."))
    let listed = try await runner.run(["sessions", "list"])
    for title in ["Weekend in Lisbon", "Quick sum", "Garden planning", "A poem"] {
      #expect(listed.standardOutput.contains(title), "\(listed.standardOutput)")
    }
    let recalled = try await runner.run(["recall", "custard tarts in Belém", "--collection", "conversations"])
    #expect(recalled.standardOutput.contains("Weekend in Lisbon"), "\(recalled.standardOutput)")

    let wrong = try await runner.run(
      ["import", "claude", Self.fixtures.appendingPathComponent("calendar-export.ics").path])
    #expect(wrong.status != 0)
    #expect(wrong.standardError.contains("not a Claude export"))
    let unknown = try await runner.run(["import", "gemini", "x.json"])
    #expect(unknown.status != 0)
  }
}
