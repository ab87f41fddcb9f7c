import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@Suite("Crashes and concurrent processes on one profile", .heavy)
struct CrashRecoveryTests {
  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func killNineWhileStreamingNeverLosesCommittedMessages() async throws {
    let home = try TestModels.temporaryDirectory()
    let environment = ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2]
    let hearth = CommandRunner(environment: environment)
    let first = try await hearth.run(["ask", "Say hello.", "--temperature", "0", "--max-tokens", "8", "--json"])
    #expect(first.status == 0, "\(first.standardError)")
    let sessionID = try #require(UUID(uuidString: try json(first.standardOutput)["session_id"] as? String ?? ""))
    let databasePath = home.appendingPathComponent("hearth.sqlite").path

    var committed: [UUID: StoredMessage] = [:]
    var generator = SeededRandom(seed: 20_261_122)
    var interruptedSeen = 0
    for round in 0..<10 {
      let process = Process()
      process.executableURL = hearth.executable
      process.arguments = [
        "ask", "--session", sessionID.uuidString, "--max-tokens", "400", "--temperature", "0",
        // Every fifth round asks for an answer long enough to be killed halfway, however fast it streams.
        round % 5 == 4
          ? "Count from 1 to 1000, one number per line (round \(round))."
          : "Write a long story about a lighthouse, part \(round).",
      ]
      process.environment = hearth.processEnvironment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let pause = Duration.milliseconds(Int.random(in: 150...1_500, using: &generator))
      if round % 5 == 4 {
        // That kill lands once part of the answer is on disk, however slow the machine is today.
        try await waitForAnswerText(in: databasePath, session: sessionID, while: process)
      } else {
        try await Task.sleep(for: pause)
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let database = try HearthDatabase(path: databasePath)
      #expect(try database.integrityCheck() == ["ok"])
      let messages = try database.messages(in: sessionID)
      let byID = Dictionary(uniqueKeysWithValues: messages.map { ($0.id, $0) })
      for (id, message) in committed {
        #expect(byID[id] == message, "message \(message.index) changed or vanished after round \(round)")
      }
      for message in messages where message.state == .complete { committed[message.id] = message }
      interruptedSeen += messages.filter { $0.state == .generating }.count
    }
    #expect(committed.count >= 2)

    // The next start repairs what the kills left: nothing is still "generating"; partial answers are kept.
    let after = try await hearth.run([
      "ask", "--session", sessionID.uuidString, "--max-tokens", "4", "--temperature", "0", "Thanks!",
    ])
    #expect(after.status == 0, "\(after.standardError)")
    let database = try HearthDatabase(path: databasePath)
    let messages = try database.messages(in: sessionID)
    #expect(!messages.contains { $0.state == .generating })
    // Some kills came mid-answer: their partial answers were kept and marked, not lost.
    #expect(interruptedSeen > 0)
    #expect(messages.contains { $0.state == .interrupted })
    #expect(messages.filter { $0.state == .interrupted }.allSatisfy { !$0.content.isEmpty || !$0.thinking.isEmpty })
    #expect(messages.filter { $0.state == .interrupted }.count <= interruptedSeen)
    #expect(messages.map(\.index) == Array(0..<messages.count))
  }

  @Test func twoProcessesShareAProfile() async throws {
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2])
    // One thread each: two processes spinning two threads apiece on two cores would mostly wait for each other.
    let flags = ["--temperature", "0", "--max-tokens", "24", "--threads", "1", "--json"]
    async let one = hearth.run(["ask", "Name a fruit."] + flags)
    async let two = hearth.run(["ask", "Name a colour."] + flags)
    let results = try await [one, two]
    for result in results { #expect(result.status == 0, "\(result.standardError)") }
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    #expect(try database.integrityCheck() == ["ok"])
    #expect(try database.sessionCount() == 2)
    #expect(try database.messageCount() == 4)
  }

  /// Returns once the session holds an answer being generated with some text in it, or once the process
  /// has ended (an answer short enough to finish between two saves); at most a minute.
  private func waitForAnswerText(in path: String, session: UUID, while process: Process) async throws {
    let database = try HearthDatabase(path: path)
    for _ in 0..<3_000 where process.isRunning {
      let messages = try database.messages(in: session)
      if messages.contains(where: { $0.state == .generating && !$0.content.isEmpty }) { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning { Issue.record("no answer text appeared within a minute") }
  }
}
