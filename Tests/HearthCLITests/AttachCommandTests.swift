import Foundation
import HearthTestSupport
import Testing

@Suite("Files attached from the terminal (SmolLM2, real)", .heavy)
struct AttachCommandTests {
  static let sentence = TestModels.packageRoot.appendingPathComponent("Tests/HearthOCRTests/Fixtures/sentence.png")

  @Test func askAndChatAttachFilesThatTheAnswerReads() async throws {
    let runner = CommandRunner()
    let folder = try TestModels.temporaryDirectory()
    let note = folder.appendingPathComponent("garden.md")
    try Data("# Garden\nThe tomatoes need water every evening.".utf8).write(to: note)
    let asked = try await runner.run([
      "ask", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "24", "--json",
      "--attach", Self.sentence.path, "Where is the spare key?",
    ])
    #expect(asked.status == 0, "\(asked.standardError)")
    let report = try JSONDecoder().decode(AskOutput.self, from: Data(asked.standardOutput.utf8))
    // The prompt held the image's text: far more tokens than the question alone.
    #expect(report.promptTokens > 40)
    let shown = try await runner.run(["sessions", "show", report.sessionId, "--json"])
    #expect(shown.standardOutput.contains(#""name":"sentence.png""#), "\(shown.standardOutput)")
    #expect(shown.standardOutput.contains(#""reading":"ocr""#))

    let input = """
      /attach \(note.path)
      What do the tomatoes need?
      /attach /nowhere/missing.txt
      /quit

      """
    let chat = try await runner.run(
      ["chat", "--new", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "24"], input: input)
    #expect(chat.status == 0, "\(chat.standardError)")
    #expect(chat.standardOutput.contains("(garden.md: "))
    #expect(chat.standardError.contains("/nowhere/missing.txt: no such file"))
    let refused = try await runner.run(["ask", "--no-save", "--attach", note.path, "Hi"])
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("--attach keeps the files with the chat"))
  }

  private struct AskOutput: Decodable {
    var promptTokens: Int
    var sessionId: String

    enum CodingKeys: String, CodingKey {
      case promptTokens = "prompt_tokens"
      case sessionId = "session_id"
    }
  }
}
