import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// llama.cpp's own `llama-server` on a loopback port, on a local model: a real OpenAI-compatible peer that a
/// test can stop and start again (the same port) to take it offline and bring it back.
public final class LlamaServer: @unchecked Sendable {
  public let port: UInt16
  public let model: String
  private var process: Process?

  /// Starts the server on a free port.
  public init(model: String) throws {
    self.model = model
    self.port = try NginxServer.freePort()
    try start()
  }

  /// `http://127.0.0.1:PORT/v1`.
  public var base: String { "http://127.0.0.1:\(port)/v1" }

  /// Starts it (again), waiting until it answers its health check.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestModels.llamaTool("llama-server"))
    process.arguments = [
      "-m", model, "--host", "127.0.0.1", "--port", "\(port)", "-c", "2048", "-t", "2", "--no-webui",
    ]
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    self.process = process
    for _ in 0..<300 {
      if healthy() { return }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw NginxError("llama-server did not become healthy on port \(port)")
  }

  /// Kills it (the port is free again).
  public func stop() {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    self.process = nil
  }

  deinit { stop() }

  private func healthy() -> Bool {
    guard NginxServer.accepts(port: port) else { return false }
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var ok = false
    let task = URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/health")!) { _, response, _ in
      ok = (response as? HTTPURLResponse)?.statusCode == 200
      semaphore.signal()
    }
    task.resume()
    _ = semaphore.wait(timeout: .now() + 2)
    return ok
  }
}
