public import Foundation

/// Runs the built `hearth` executable as a user would, capturing what it prints.
public struct CommandRunner: Sendable {
  /// What a finished command left behind.
  public struct Result: Sendable {
    public var status: Int32
    public var exitedNormally: Bool
    public var standardOutput: String
    public var standardError: String
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
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let watchdog = Task {
      try await Task.sleep(for: timeout)
      kill(process.processIdentifier, SIGKILL)
    }
    for await _ in exited {}
    watchdog.cancel()
    let (output, error) = await (out, err)
    return Result(
      status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
      standardOutput: output, standardError: error)
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
