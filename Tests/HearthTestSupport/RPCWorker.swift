public import Foundation

/// llama.cpp's `ggml-rpc-server` on a loopback port: a worker a model can spread its layers over. What it prints
/// goes to a log file the test can read (it reports each client it accepts).
public final class RPCWorker: @unchecked Sendable {
  public let port: UInt16
  public let log: URL
  private let process: Process

  /// Starts a worker on a free port with one thread, waiting until it accepts connections.
  public init() throws {
    port = try NginxServer.freePort()
    log = try TestModels.temporaryDirectory().appendingPathComponent("rpc-server.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process = Process()
    process.executableURL = URL(fileURLWithPath: TestModels.llamaTool("ggml-rpc-server"))
    process.arguments = ["-H", "127.0.0.1", "-p", "\(port)", "-t", "1"]
    let output = try FileHandle(forWritingTo: log)
    process.standardOutput = output
    process.standardError = output
    try process.run()
    for _ in 0..<200 {
      if NginxServer.accepts(port: port) { return }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw NginxError("ggml-rpc-server did not listen on port \(port): \(printed)")
  }

  /// `127.0.0.1:PORT`.
  public var endpoint: String { "127.0.0.1:\(port)" }

  /// What the worker has printed so far.
  public var printed: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  /// Kills it (SIGKILL: a child of the test process may not hear a gentler signal).
  public func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit { stop() }
}
