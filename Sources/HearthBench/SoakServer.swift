import Foundation

/// `hearth serve` as a child process on a scratch profile, as a user starts it: its port read from what it
/// prints, its resident memory and open descriptors read from the system while it runs.
final class SoakServer: @unchecked Sendable {
  let process = Process()
  let home: URL
  private let output = Pipe()
  private let lock = NSLock()
  private var printed = ""
  private(set) var port = 0

  init(executable: URL, home: URL, modelPath: String, environment: [String: String]) throws {
    self.home = home
    process.executableURL = executable
    process.arguments = [
      "serve", "--port", "0", "--model", modelPath, "--any-model-name", "--first-backup-after", "86400",
    ]
    var environment = environment
    environment["HEARTH_HOME"] = home.path
    process.environment = environment
    process.standardOutput = output
    process.standardError = output
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.printed += String(decoding: data, as: UTF8.self) }
    }
    try process.run()
  }

  /// Waits for the line that names the port.
  func waitUntilListening(timeout: Duration = .seconds(120)) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let text = lock.withLock { printed }
      if let range = text.range(of: #"listening on http://[^:]+:(\d+)"#, options: .regularExpression) {
        port = Int(text[range].split(separator: ":").last ?? "") ?? 0
        return
      }
      guard process.isRunning else {
        throw BenchmarkError.measurementFailed("hearth serve exited: \(text.suffix(2_000))")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw BenchmarkError.measurementFailed("hearth serve did not start within \(timeout)")
  }

  /// What it printed (for a failure's report).
  var log: String { lock.withLock { printed } }

  /// Its resident memory, from the system; `nil` where the system does not say.
  func residentBytes() -> UInt64? {
    #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = UInt64(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
    #else
    return nil
    #endif
  }

  /// Its open file descriptors; `nil` where the system does not say.
  func openDescriptors() -> Int? { descriptorTargets()?.count }

  /// What each open descriptor points at (`/path`, `socket`, `pipe`, `anon_inode:[eventfd]` — inode numbers
  /// left out, so two sockets read alike); `nil` where the system does not say.
  func descriptorTargets() -> [String]? {
    let folder = "/proc/\(process.processIdentifier)/fd"
    guard let listed = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    return listed.compactMap { name in
      // A descriptor closed between the listing and its reading is simply gone.
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)") else {
        return nil
      }
      return target.replacingOccurrences(of: #":\[\d+\]$"#, with: "", options: .regularExpression)
    }
  }

  /// Whether it exited by itself before it was asked to stop (a crash during the soak), and how.
  private(set) var exitedEarly: String?

  /// Stops it as a user would (SIGTERM), then at once after `patience`; whether it stopped by itself, with
  /// status 0 (not killed, not crashed on the way out).
  func stop(patience: Duration = .seconds(30)) async -> Bool {
    guard process.isRunning else {
      // It ended on its own: a crash or an exit during the soak is no clean stop.
      process.waitUntilExit()
      output.fileHandleForReading.readabilityHandler = nil
      exitedEarly = "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)"
      return false
    }
    kill(process.processIdentifier, SIGTERM)
    let deadline = ContinuousClock.now + patience
    while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    let stopped = !process.isRunning
    if !stopped { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
    return stopped && process.terminationReason == .exit && process.terminationStatus == 0
  }
}
