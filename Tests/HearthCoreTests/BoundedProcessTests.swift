import Foundation
import HearthCore
import Testing

@Suite("Helper programs run within bounds (real processes)")
struct BoundedProcessTests {
  @Test("a program that writes without end is stopped at the output cap, with the output kept up to it")
  func outputCap() async throws {
    let run = BoundedProcess(
      executable: URL(fileURLWithPath: "/usr/bin/yes"), arguments: ["hearth"], outputLimit: 1 << 20,
      timeLimit: .seconds(60))
    let outcome = try await run.run()
    #expect(outcome.stopped == .outputLimit(bytes: 1 << 20))
    #expect(outcome.output.count == 1 << 20)
    #expect(String(decoding: outcome.output.prefix(14), as: UTF8.self) == "hearth\nhearth\n")
  }

  @Test("a program that hangs is stopped at the time limit, even one that ignores SIGTERM")
  func timeLimit() async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let run = BoundedProcess(
      executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "trap '' TERM; echo started >&2; sleep 60"],
      outputLimit: 1024, timeLimit: .milliseconds(300))
    let outcome = try await run.run()
    #expect(outcome.stopped == .timeLimit(seconds: 0.3))
    #expect(outcome.errors.contains("started"))
    #expect(clock.now - start < .seconds(20))
  }

  @Test("a program that ends by itself gives its output, errors and status")
  func normalRun() async throws {
    let run = BoundedProcess(
      executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "printf out; printf err >&2; exit 3"],
      outputLimit: 1024, timeLimit: .seconds(30))
    let outcome = try await run.run()
    #expect(outcome.stopped == nil)
    #expect(String(decoding: outcome.output, as: UTF8.self) == "out")
    #expect(outcome.errors == "err")
    #expect(outcome.status == 3)
    await #expect(throws: (any Error).self) {
      try await BoundedProcess(
        executable: URL(fileURLWithPath: "/nonexistent/tool"), arguments: [], outputLimit: 1, timeLimit: .seconds(1)
      ).run()
    }
  }
}
