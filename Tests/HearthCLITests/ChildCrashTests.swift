import Foundation
import HearthTestSupport
import Testing

/// A child process that crashes fails the test that started it, with its status and the end of its standard
/// error, and the test process goes on to the next test: one crashing build of llama.cpp must not take the
/// rest of the suite down with it.
@Suite("A crashing child process fails its own test", .heavy)
struct ChildCrashTests {
  @Test func aChildThatDiesOfASignalIsReportedWithItsStatusAndStandardError() async throws {
    // A shell that writes a line and then dies of SIGILL, as a CPU instruction it cannot run would make it.
    try await withKnownIssue("the child dies of SIGILL; the runner must record it") {
      let result = try await CommandRunner.runProcess(
        "/bin/sh", ["-c", "echo 'about to fault in the matrix kernel' >&2; kill -ILL $$"])
      #expect(!result.exitedNormally)
      #expect(result.status == SIGILL)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined(separator: " ")
      return text.contains("crashed") && text.contains("SIGILL")
        && text.contains("about to fault in the matrix kernel")
    }
  }

  @Test func writingToAChildThatIsGoneDoesNotEndTheTestProcess() async throws {
    var runner = CommandRunner()
    runner.executable = URL(fileURLWithPath: "/bin/sh")
    // More input than a pipe holds, to a child that exits without reading it: without SIGPIPE ignored, the
    // write would kill this process and every later test with it.
    let input = String(repeating: "lighthouse keeper\n", count: 100_000)
    let result = try await runner.run(["-c", "exit 3"], input: input)
    #expect(result.exitedNormally && result.status == 3, "\(result)")
  }
}
