import Foundation
import HearthCore
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
    // And out again, all at once.
    let everything = try await runner.run(["sessions", "export", "--all", "--format", "json"])
    #expect(everything.status == 0, "\(everything.standardError)")
    let exported = try JSONDecoder().decode(JSONValue.self, from: Data(everything.standardOutput.utf8))
    #expect(exported["sessions"]?.arrayValue?.count == 4)
    let markdown = try await runner.run(["sessions", "export", "--all"])
    #expect(markdown.standardOutput.contains("Weekend in Lisbon"))
    #expect(markdown.standardOutput.contains("A poem"))
    let both = try await runner.run(["sessions", "export", "--all", "3F2A"])
    #expect(both.standardError.contains("give a session id or --all, not both"))
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
