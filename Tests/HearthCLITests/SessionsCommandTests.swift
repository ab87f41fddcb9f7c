import Foundation
import HearthTestSupport
import Testing

@Suite("hearth sessions and saved asks", .heavy)
struct SessionsCommandTests {
  private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  private func array(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
  }

  @Test("a chat's Markdown export tells its actions in words, as `sessions show` and the web export do")
  func theMarkdownExportNarratesActions() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    let asked = try await hearth.run([
      "ask", "Remind me to water the ferns tomorrow", "--temperature", "0", "--max-tokens", "60", "--json",
    ])
    #expect(asked.status == 0, "\(asked.standardError)")
    let id = try #require(try object(asked.standardOutput)["session_id"] as? String)
    // The answer holds the block the reminder was made from (else this test proves nothing).
    #expect((try object(asked.standardOutput)["text"] as? String)?.contains("[REMINDER_ACTION:") == true)
    let markdown = try await hearth.run(["sessions", "export", id, "--format", "md"])
    #expect(markdown.status == 0, "\(markdown.standardError)")
    #expect(!markdown.standardOutput.contains("REMINDER_ACTION"), "\(markdown.standardOutput)")
    #expect(markdown.standardOutput.lowercased().contains("water the ferns"), "\(markdown.standardOutput)")
    // JSON keeps the block as stored.
    let json = try await hearth.run(["sessions", "export", id, "--format", "json"])
    #expect(json.standardOutput.contains("REMINDER_ACTION"))
  }

  @Test func asksAreSavedContinuedAndManaged() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    let first = try await hearth.run(["ask", "What is the capital of France?", "--temperature", "0", "--json"])
    #expect(first.status == 0, "\(first.standardError)")
    let id = try #require(try object(first.standardOutput)["session_id"] as? String)

    let second = try await hearth.run([
      "ask", "And of Germany?", "--session", String(id.prefix(8)), "--temperature", "0", "--max-tokens", "30", "--json",
    ])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(try object(second.standardOutput)["session_id"] as? String == id)
    // A new process starts from the chat's state the first one wrote: the whole first turn is not read again.
    let reused = try object(second.standardOutput)["reused_prompt_tokens"] as? Int ?? -1
    let firstPrompt = try object(first.standardOutput)["prompt_tokens"] as? Int ?? 0
    #expect(reused >= firstPrompt, "\(reused)")

    let unsaved = try await hearth.run([
      "ask", "What is the capital of France?", "--no-save", "--temperature", "0", "--json",
    ])
    #expect(unsaved.status == 0)
    #expect(try object(unsaved.standardOutput)["session_id"] == nil)
    // Saving or not, the model sees the same prompt and gives the same answer.
    #expect(
      try object(unsaved.standardOutput)["prompt_tokens"] as? Int == object(first.standardOutput)["prompt_tokens"]
        as? Int)
    #expect(try object(unsaved.standardOutput)["text"] as? String == object(first.standardOutput)["text"] as? String)

    let list = try array(try await hearth.run(["sessions", "list", "--json"]).standardOutput)
    #expect(list.count == 1)
    #expect(list.first?["title"] as? String == "What is the capital of France?")

    let shown = try object(try await hearth.run(["sessions", "show", id, "--json"]).standardOutput)
    let messages = try #require(shown["messages"] as? [[String: Any]])
    #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
    #expect(messages.allSatisfy { $0["state"] as? String == "complete" && $0["thinking"] is String })
    #expect((messages[1]["content"] as? String)?.contains("Paris") == true)

    let found = try array(
      try await hearth.run(["sessions", "search", "Germany", "--scope", "bodies", "--json"]).standardOutput)
    #expect(found.count == 1)
    #expect(
      try await hearth.run(["sessions", "search", "Germany", "--scope", "titles", "--json"]).standardOutput == "[]\n")

    #expect(try await hearth.run(["sessions", "rename", id, "Capitals"]).status == 0)
    #expect(try await hearth.run(["sessions", "pin", id]).status == 0)
    let pinned = try array(
      try await hearth.run(["sessions", "search", "capitals", "--scope", "pinned", "--json"]).standardOutput)
    #expect(pinned.count == 1)

    let markdown = try await hearth.run(["sessions", "export", id, "--format", "md"])
    #expect(markdown.standardOutput.hasPrefix("# Capitals\n"))
    #expect(markdown.standardOutput.contains("## Assistant"))

    let file = try TestModels.temporaryDirectory().appendingPathComponent("capitals.json").path
    #expect(try await hearth.run(["sessions", "export", id, "--format", "json", "--output", file]).status == 0)
    let imported = try await hearth.run(["sessions", "import", file])
    #expect(imported.status == 0, "\(imported.standardError)")
    let copies = try array(try await hearth.run(["sessions", "list", "--json"]).standardOutput)
    #expect(copies.count == 2)
    let copyID = try #require(copies.compactMap { $0["id"] as? String }.first { $0 != id })
    let original = try object(try await hearth.run(["sessions", "show", id, "--json"]).standardOutput)
    let copy = try object(try await hearth.run(["sessions", "show", copyID, "--json"]).standardOutput)
    let contents = { (export: [String: Any]) in
      (export["messages"] as? [[String: Any]] ?? []).map {
        "\($0["role"] ?? "")|\($0["content"] ?? "")|\($0["state"] ?? "")"
      }
    }
    #expect(contents(original) == contents(copy))

    #expect(try await hearth.run(["sessions", "archive", copyID]).status == 0)
    #expect(try array(try await hearth.run(["sessions", "list", "--json"]).standardOutput).count == 1)
    #expect(try array(try await hearth.run(["sessions", "list", "--all", "--json"]).standardOutput).count == 2)
    #expect(try await hearth.run(["sessions", "rm", copyID]).status == 0)
    #expect(try array(try await hearth.run(["sessions", "list", "--all", "--json"]).standardOutput).count == 1)
  }

  @Test func badImportsAndUnknownSessionsAreClearErrors() async throws {
    let hearth = CommandRunner()
    let folder = try TestModels.temporaryDirectory()
    let broken = folder.appendingPathComponent("broken.json")
    try Data("{\"format\": 1, \"session\": {\"id\": 5}".utf8).write(to: broken)
    let malformed = try await hearth.run(["sessions", "import", broken.path])
    #expect(malformed.status == 1)
    #expect(malformed.standardError.contains("malformed JSON"))
    let wrongShape = folder.appendingPathComponent("shape.json")
    try Data("{\"format\": 1, \"messages\": []}".utf8).write(to: wrongShape)
    let missing = try await hearth.run(["sessions", "import", wrongShape.path])
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("missing field session"))
    #expect(try array(try await hearth.run(["sessions", "list", "--all", "--json"]).standardOutput).isEmpty)
    let unknown = try await hearth.run(["sessions", "show", "00000000"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("no session 00000000"))
  }

  @Test func aCorruptDatabaseIsReportedNotReset() async throws {
    let home = try TestModels.temporaryDirectory()
    let database = home.appendingPathComponent("hearth.sqlite")
    let garbage = Data(repeating: 0x5A, count: 4096)
    try garbage.write(to: database)
    let result = try await CommandRunner(environment: ["HEARTH_HOME": home.path]).run(["sessions", "list"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("damaged"))
    #expect(try Data(contentsOf: database) == garbage)
  }
}
