import Foundation

/// Runs a helper program to completion, capturing its output, with a time limit.
struct ChildProcess: Sendable {
  /// What a finished program left behind.
  struct Output: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Seconds from launch to the first byte on standard output, if any came.
    var firstOutputAfter: Duration?
  }

  var executable: String
  var arguments: [String]
  var timeout: Duration = .seconds(600)
  /// Variables set for the child on top of this process's environment.
  var environment: [String: String] = [:]

  func run() async throws(BenchmarkError) -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice

    let clock = ContinuousClock()
    let collected = Collected()
    let launched = clock.now
    stdout.fileHandleForReading.readabilityHandler = { handle in
      collected.appendOutput(handle.availableData, at: clock.now - launched)
    }
    stderr.fileHandleForReading.readabilityHandler = { handle in
      collected.appendError(handle.availableData)
    }
    let exited = AsyncStream<Int32> { continuation in
      process.terminationHandler = { finished in
        continuation.yield(finished.terminationStatus)
        continuation.finish()
      }
    }
    do {
      try process.run()
    } catch {
      throw .toolFailed(tool: executable, reason: "\(error)")
    }
    let watchdog = Task {
      try await Task.sleep(for: timeout)
      kill(process.processIdentifier, SIGKILL)
    }
    var status: Int32 = -1
    for await code in exited { status = code }
    watchdog.cancel()
    stdout.fileHandleForReading.readabilityHandler = nil
    stderr.fileHandleForReading.readabilityHandler = nil
    collected.appendOutput(stdout.fileHandleForReading.readDataToEndOfFile(), at: clock.now - launched)
    collected.appendError(stderr.fileHandleForReading.readDataToEndOfFile())
    return collected.output(status: status)
  }
}

/// Output gathered from a child's pipes, written from their reader threads.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()
  private var firstOutput: Duration?

  func appendOutput(_ data: Data, at elapsed: Duration) {
    guard !data.isEmpty else { return }
    lock.withLock {
      if firstOutput == nil { firstOutput = elapsed }
      out.append(data)
    }
  }

  func appendError(_ data: Data) {
    guard !data.isEmpty else { return }
    lock.withLock { err.append(data) }
  }

  func output(status: Int32) -> ChildProcess.Output {
    lock.withLock {
      ChildProcess.Output(
        status: status, standardOutput: String(decoding: out, as: UTF8.self),
        standardError: String(decoding: err, as: UTF8.self), firstOutputAfter: firstOutput)
    }
  }
}
