import Foundation
import HearthTestSupport
import Testing

@Suite("Ctrl-C in hearth chat", .heavy)
struct InterruptTests {
  @Test func stopsTheAnswerButNotTheProgram() async throws {
    let process = Process()
    let runner = CommandRunner()
    process.executableURL = runner.executable
    process.environment = runner.processEnvironment
    process.arguments = ["chat", "--model", TestModels.smolLM2, "--max-tokens", "2000", "--seed", "7"]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let output = OutputBuffer()
    let errors = OutputBuffer()
    stdout.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
    stderr.fileHandleForReading.readabilityHandler = { errors.append($0.availableData) }
    BrokenPipes.ignore()
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    func waitFor(_ text: String, occurrences: Int = 1) async throws {
      for _ in 0..<600 {
        if output.text.components(separatedBy: text).count > occurrences { return }
        if !process.isRunning {
          let ending =
            process.terminationReason == .exit
            ? "exit status \(process.terminationStatus)"
            : "signal \(process.terminationStatus) (\(signalName(process.terminationStatus)))"
          Issue.record("hearth chat ended (\(ending)) before printing \(text); standard error: \(errors.text)")
          throw ChatEnded()
        }
        try await Task.sleep(for: .milliseconds(50))
      }
      Issue.record("timed out waiting for \(text); got: \(output.text)")
    }

    try await waitFor("> ")
    try stdin.fileHandleForWriting.write(
      contentsOf: Data("Write a very long story about a lighthouse keeper.\n".utf8))
    // Wait until the answer is streaming, then press Ctrl-C.
    let before = output.text.count
    for _ in 0..<600 where output.text.count < before + 40 { try await Task.sleep(for: .milliseconds(20)) }
    kill(process.processIdentifier, SIGINT)
    try await waitFor("[stopped]")
    try await waitFor("> ", occurrences: 2)
    try stdin.fileHandleForWriting.write(contentsOf: Data("/stats\n/quit\n".utf8))
    for _ in 0..<200 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
    #expect(!process.isRunning)
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    #expect(output.text.contains("generated"))
  }
}

private struct ChatEnded: Error {}

private final class OutputBuffer: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
