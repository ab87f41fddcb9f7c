public import Foundation
import HearthCore

/// Debian's nginx serving a folder on a loopback port, started for one test and stopped with it: a real HTTP
/// server with byte ranges, redirects and the usual headers.
public final class NginxServer: @unchecked Sendable {
  /// The folder it serves.
  public let root: URL
  /// Its address, e.g. `http://127.0.0.1:40123`.
  public let base: String
  private let process: Process
  private let directory: URL

  /// Starts nginx on a free port serving `root`; `extraLocations` are added to its `server` block as they are.
  public init(root: URL, port chosen: UInt16? = nil, extraLocations: String = "") throws {
    guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
    else { throw NginxError("nginx is not installed (scripts/setup-system.sh installs it)") }
    directory = try TestModels.temporaryDirectory()
    let port = try chosen ?? Self.freePort()
    let config = """
      daemon off;
      master_process off;
      error_log \(directory.path)/error.log;
      pid \(directory.path)/nginx.pid;
      events { worker_connections 64; }
      http {
        access_log \(directory.path)/access.log;
        client_body_temp_path \(directory.path); proxy_temp_path \(directory.path);
        fastcgi_temp_path \(directory.path); uwsgi_temp_path \(directory.path); scgi_temp_path \(directory.path);
        server {
          listen 127.0.0.1:\(port);
          root \(root.path);
          \(extraLocations)
        }
      }
      """
    let configPath = directory.appendingPathComponent("nginx.conf")
    try config.write(to: configPath, atomically: true, encoding: .utf8)
    process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["-c", configPath.path, "-p", directory.path]
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    self.root = root
    self.base = "http://127.0.0.1:\(port)"
    // Ready once it accepts a connection.
    for _ in 0..<100 {
      if Self.accepts(port: port) { return }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    throw NginxError("nginx did not start: \(log)")
  }

  /// The requests it answered, one access-log line each.
  public func accessLog() -> [String] {
    let text = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Stops nginx.
  public func stop() {
    // SIGKILL: a child started by Foundation's Process inherits the test runner's blocked signals, so
    // nginx (without its master process to reset them) would never see a SIGTERM.
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  deinit { stop() }

  /// A port on loopback nothing listens on now.
  public static func freePort() throws -> UInt16 {
    guard let port = LoopbackPort.free() else { throw NginxError("no free port on loopback") }
    return port
  }

  /// Whether something accepts connections on the loopback port.
  public static func accepts(port: UInt16) -> Bool { LoopbackPort.accepts(port) }
}

/// nginx could not be started.
public struct NginxError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
