public import Foundation
import Testing

/// Runs the built `hearth` executable as a user would, capturing what it prints.
///
/// A child that dies of a signal (a crash: SIGILL, SIGSEGV, an abort) or outlives its time limit fails the
/// test that ran it, with its exit status and the end of what it wrote to standard error, whatever the test
/// itself checks afterwards; the test process carries on to the next test.
public struct CommandRunner: Sendable {
  /// What a finished command left behind.
  public struct Result: Sendable, CustomStringConvertible {
    public var status: Int32
    public var exitedNormally: Bool
    public var standardOutput: String
    public var standardError: String

    /// How it ended ("exit status 1", "signal 4 (SIGILL)") and the last lines of its standard error.
    public var description: String {
      let ending = exitedNormally ? "exit status \(status)" : "signal \(status) (\(signalName(status)))"
      return "\(ending); standard error ends with:\n\(standardError.lastLines(20))"
    }
  }

  /// The executable under test.
  public var executable: URL
  /// Extra environment variables.
  public var environment: [String: String]

  /// Uses the debug build of `hearth` in this package, with a fresh data directory unless `environment`
  /// names one, so that tests never touch the user's own data.
  public init(environment: [String: String] = [:]) {
    executable = TestModels.packageRoot.appendingPathComponent(".build/debug/hearth")
    var environment = environment
    if environment["HEARTH_HOME"] == nil {
      environment["HEARTH_HOME"] = (try? TestModels.temporaryDirectory().path) ?? NSTemporaryDirectory()
    }
    self.environment = environment
    BrokenPipes.ignore()
  }

  /// The process environment with this runner's variables applied.
  public var processEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
  }

  /// Runs `hearth` with `arguments`, feeding `input` on standard input, killing it after `timeout`.
  public func run(
    _ arguments: [String], input: String? = nil, timeout: Duration = .seconds(300)
  ) async throws
    -> Result
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = processEnvironment
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    let exited = AsyncStream<Void> { continuation in
      process.terminationHandler = { _ in continuation.finish() }
    }
    try process.run()
    // Read both pipes concurrently so a chatty child never blocks on a full pipe.
    async let out = Self.readAll(stdout.fileHandleForReading)
    async let err = Self.readAll(stderr.fileHandleForReading)
    let watchdog = Task {
      try await Task.sleep(for: timeout)
      kill(process.processIdentifier, SIGKILL)
      return true
    }
    // A child that stops reading (or has died) makes this write fail with EPIPE; how it ended is
    // reported below.
    if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    for await _ in exited {}
    watchdog.cancel()
    let timedOut = (try? await watchdog.value) ?? false
    let (output, error) = await (out, err)
    let result = Result(
      status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
      standardOutput: output, standardError: error)
    let command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
    if timedOut {
      Issue.record("`\(command)` was still running after \(timeout) and was killed; \(result)")
    } else if !result.exitedNormally {
      Issue.record("`\(command)` crashed: \(result)")
    }
    return result
  }

  /// Runs another program (a peer tool a test checks Hearth against) the same way.
  public static func runProcess(_ path: String, _ arguments: [String]) async throws -> Result {
    var runner = CommandRunner()
    runner.executable = URL(fileURLWithPath: path)
    return try await runner.run(arguments)
  }

  private static func readAll(_ handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
      }
      thread.start()
    }
  }
}

/// Makes writing to a pipe whose reader has gone an error (EPIPE) rather than SIGPIPE, which would end the
/// whole test process — every test after the one whose child died would never run.
public enum BrokenPipes {
  /// Idempotent; call before starting a child process whose standard input a test writes to.
  public static func ignore() { _ = installed }

  private static let installed: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// The conventional name of a signal number, for failure messages.
public func signalName(_ number: Int32) -> String {
  let names: [Int32: String] = [
    SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
    SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
    SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
  ]
  return names[number] ?? "signal \(number)"
}

extension String {
  /// The last `count` lines, for the tail of a log in a failure message.
  func lastLines(_ count: Int) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
  }
}
