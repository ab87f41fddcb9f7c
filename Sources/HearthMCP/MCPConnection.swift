import Foundation
import HearthEngine
import Logging
import MCP
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One live connection to an MCP server: the client, its transport and, for a stdio server, the process.
final class MCPConnection: Sendable {
  let endpoint: ToolServer.Endpoint
  let client = Client(name: "hearth", version: "1.0")
  let transport: any Transport
  private let process: Process?
  private let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32?, Never>])>((nil, []))

  init(endpoint: ToolServer.Endpoint, transport: any Transport, process: Process?) {
    self.endpoint = endpoint
    self.transport = transport
    self.process = process
  }

  /// The exit status once the process has ended; `nil` while it runs (and always for HTTP).
  var exitStatus: Int32? { state.withLock { $0.status } }

  /// Waits for the process to end and gives its status; `nil` at once for a connection with no process.
  func exited() async -> Int32? {
    guard process != nil else { return nil }
    return await withCheckedContinuation { waiter in
      let status = state.withLock { state -> Int32? in
        if state.status == nil { state.waiters.append(waiter) }
        return state.status
      }
      if let status { waiter.resume(returning: status) }
    }
  }

  private func ended(with status: Int32) {
    let waiters = state.withLock { state in
      state.status = status
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: status) }
  }

  /// Disconnects and ends the process (asked first, then made to).
  func close() async {
    await client.disconnect()
    guard let process, process.isRunning else { return }
    process.terminate()
    for _ in 0..<20 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// Starts `command` (a program found on `PATH` unless it names a path) with pipes for MCP's messages.
  static func launch(_ command: [String], name: String, log: URL?, logger: Logger) throws -> MCPConnection {
    // A server that ends while Hearth writes to it must be an error on that call, not the end of Hearth.
    signal(SIGPIPE, SIG_IGN)
    guard let program = command.first, let executable = resolve(program) else {
      throw ToolServerError.unreachable(server: name, detail: "no program named \(command.first ?? "") was found")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = Array(command.dropFirst())
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errorLog(log, name: name) ?? FileHandle.nullDevice
    let transport = StdioTransport(
      input: FileDescriptor(rawValue: output.fileHandleForReading.fileDescriptor),
      output: FileDescriptor(rawValue: input.fileHandleForWriting.fileDescriptor), logger: logger)
    let connection = MCPConnection(endpoint: .command(command), transport: transport, process: process)
    process.terminationHandler = { [weak connection] ended in connection?.ended(with: ended.terminationStatus) }
    do {
      try process.run()
    } catch {
      throw ToolServerError.unreachable(server: name, detail: "\(program) could not be started: \(error)")
    }
    return connection
  }

  /// The program's file: a path as given, else the first executable of that name on `PATH`.
  private static func resolve(_ program: String) -> URL? {
    if program.contains("/") {
      return FileManager.default.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(program)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// The server's standard error, appended to `mcp-NAME.log` in `folder`.
  private static func errorLog(_ folder: URL?, name: String) -> FileHandle? {
    guard let folder else { return nil }
    let file = folder.appendingPathComponent("mcp-\(name).log")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    if !FileManager.default.fileExists(atPath: file.path) {
      _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    }
    guard let handle = try? FileHandle(forWritingTo: file) else { return nil }
    _ = try? handle.seekToEnd()
    return handle
  }
}
