import Foundation
import HearthTestSupport
import Testing

@Suite("hearth chat", .heavy)
struct ChatCommandTests {
  @Test func answersTurnsAndReusesTheConversation() async throws {
    let input = """
      What is the capital of France?
      /stats
      And what is the capital of Italy?
      /stats
      /new
      /quit

      """
    let result = try await CommandRunner().run(
      ["chat", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "40"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Paris"))
    #expect(result.standardOutput.contains("(new session "))
    // The model named as the web app names it, not by the header's training-run name.
    #expect(result.standardOutput.contains("SmolLM2-135M-Instruct"), "\(result.standardOutput.prefix(300))")
    #expect(!result.standardOutput.contains("Smollm2 135M 8k"))
    // The second turn reuses the cached first turn: its stats line reports reused tokens.
    let stats = result.standardOutput.split(separator: "\n").filter { $0.contains("reused") }
    #expect(stats.count == 2)
    let reused = stats.map { line -> Int in
      let match = line.firstMatch(of: /\((\d+) reused/)
      return match.flatMap { Int($0.1) } ?? -1
    }
    // The first turn may start after the saved instructions; the second reuses the whole first turn as well.
    let first = try #require(reused.first)
    #expect(first >= 0)
    #expect(reused.last ?? 0 > first + 10)
  }

  @Test func findListsTheMessagesThatHoldTheWords() async throws {
    let input = """
      What is the capital of France?
      /find PARIS
      /find zebra crossing
      /find
      /quit

      """
    let result = try await CommandRunner().run(
      ["chat", "--new", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "20"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    let output = result.standardOutput
    #expect(output.contains("2. assistant: "), "\(output)")
    #expect(output.contains("»Paris«"))
    #expect(output.contains("(no message here holds “zebra crossing”)"))
    #expect(result.standardError.contains("/find needs the words to look for"))
  }

  @Test func anEventThatOverlapsIsOfferedFreeTimesAndMovedToOne() async throws {
    let runner = CommandRunner()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = .current
    let day = { (offset: Int) in
      formatter.string(from: Calendar(identifier: .gregorian).date(byAdding: .day, value: offset, to: Date())!)
    }
    let tomorrow = day(1)
    let sync = try await runner.run([
      "calendar", "add", "Team sync", "--start", "\(tomorrow)T10:00", "--duration", "60",
    ])
    #expect(sync.status == 0, "\(sync.standardError)")
    let input = """
      Add a meeting with Ola tomorrow at 10 for an hour
      /reschedule 9
      /reschedule 1
      /reschedule 1
      /quit

      """
    let result = try await runner.run(
      ["chat", "--new", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "20"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("It overlaps “Team sync”"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("/reschedule N to move it to a free time:"))
    #expect(result.standardError.contains("/reschedule takes the number of a free time"))
    #expect(result.standardOutput.contains(", a free time"), "\(result.standardOutput)")
    // Moved once: the card overlaps nothing after.
    #expect(result.standardError.contains("the last answer's events overlap nothing"))
    let later = day(10)
    let listed = try await runner.run(["calendar", "list", "--from", tomorrow, "--to", later, "--json"])
    let items = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    let ola = items.filter { ($0["title"] as? String)?.lowercased().contains("ola") == true }
    #expect(ola.count == 1, "\(listed.standardOutput)")
    #expect(ola.allSatisfy { ($0["start"] as? String)?.hasPrefix("\(tomorrow)T10:00") == false }, "\(ola)")
    #expect(items.contains { $0["title"] as? String == "Team sync" })
  }

  @Test func pinnedPromptsAndRepliesFromTheTerminal() async throws {
    let runner = CommandRunner()
    let pinned = try await runner.run(["prompts", "add", "Capital", "What is the capital of France?"])
    #expect(pinned.status == 0, "\(pinned.standardError)")
    _ = try await runner.run(["prompts", "add", "Short", "Answer in one word."])
    let moved = try await runner.run(["prompts", "mv", "short", "1"])
    #expect(moved.standardOutput == "1. Short\n2. Capital\n")
    let listed = try await runner.run(["prompts", "list", "--json"])
    #expect(listed.standardOutput.contains("What is the capital of France?"))
    let input = """
      /p
      /p capital
      /reply 2 Why is that?
      /p Nowhere
      /reply 9 Hello
      /quit

      """
    let result = try await runner.run(
      ["chat", "--new", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "20"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("  Short: Answer in one word."))
    #expect(result.standardOutput.contains("Paris"))
    #expect(result.standardError.contains("no pinned prompt “Nowhere”"))
    #expect(result.standardError.contains("there is no message 9 in this chat"))
    let sessions = try await runner.run(["sessions", "list", "--json"])
    let id = try #require(sessions.standardOutput.firstMatch(of: /"id":"([0-9A-F-]{36})"/).map { String($0.1) })
    let shown = try await runner.run(["sessions", "show", id, "--json"])
    #expect(shown.standardOutput.contains("What is the capital of France?"))
    #expect(shown.standardOutput.contains("Why is that?"))
    #expect(shown.standardOutput.contains(#"> "#))
  }

  @Test func retryEditContinueAndVersions() async throws {
    let input = """
      /versions
      What is the capital of France?
      /retry
      /versions
      /versions 1
      /edit What is the capital of Italy?
      /versions 3
      /continue
      /quit

      """
    let result = try await CommandRunner().run(
      ["chat", "--new", "--model", TestModels.smolLM2, "--temperature", "0", "--max-tokens", "30"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    let output = result.standardOutput
    #expect(output.contains("(this chat has one version"))
    #expect(output.contains("(showing version 2 of 2 from message 2;"))
    #expect(output.contains("(showing version 1 of 2)"))
    #expect(output.contains("Rome"))
    // The edit forked the chat at the question: /versions now speaks of that fork, which has two versions.
    #expect(result.standardError.contains("/versions takes a number from 1 to 2"))
    // The answer about Rome was finished: nothing to continue.
    #expect(result.standardError.contains("cannot be continued"))
  }
}
