import Foundation
import HearthCore
import HearthEngine
import HearthStore

/// A Radicale server for the benchmark, on a free loopback port, with one user.
struct BenchRadicale: Sendable {
  let url: URL
  let user = "bench"
  let password = "bench-password"
  private let process: Process

  init(environment: URL, folder: URL) throws {
    let users = folder.appendingPathComponent("users")
    try "\(user):\(password)\n".write(to: users, atomically: true, encoding: .utf8)
    guard let port = LoopbackPort.free() else {
      throw BenchmarkError.measurementFailed("no free port on loopback")
    }
    let process = Process()
    process.executableURL = environment.appendingPathComponent("bin/radicale")
    process.arguments = [
      "--server-hosts", "127.0.0.1:\(port)", "--auth-type", "htpasswd", "--auth-htpasswd-filename", users.path,
      "--auth-htpasswd-encryption", "plain", "--storage-filesystem-folder", folder.appendingPathComponent("dav").path,
      "--logging-level", "warning",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw BenchmarkError.toolFailed(tool: "radicale", reason: "\(error)")
    }
    self.process = process
    url = URL(string: "http://127.0.0.1:\(port)/")!
    for _ in 0..<200 where !LoopbackPort.accepts(port) {
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    guard LoopbackPort.accepts(port) else {
      stop()
      throw BenchmarkError.toolFailed(tool: "radicale", reason: "it did not start")
    }
  }

  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

/// `hearth` as a user runs it, on a profile of its own.
struct HearthSide: Sendable {
  let configuration: SyncBenchmark.Configuration
  let server: BenchRadicale
  let home: URL

  init(configuration: SyncBenchmark.Configuration, server: BenchRadicale, folder: URL) throws {
    self.configuration = configuration
    self.server = server
    home = folder.appendingPathComponent("hearth-home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  private func hearth(_ arguments: [String]) async throws -> ChildProcess.Output {
    let output = try await ChildProcess(
      executable: configuration.hearth, arguments: arguments, timeout: .seconds(1800),
      environment: ["HEARTH_HOME": home.path, "HEARTH_ACCOUNT_PASSWORD": server.password, "TZ": "UTC"]
    ).run()
    guard output.status == 0 else {
      throw BenchmarkError.toolFailed(
        tool: "hearth \(arguments.joined(separator: " "))", reason: output.standardError)
    }
    return output
  }

  /// The account added with only the benchmark's own collection syncing (not timed).
  func prepare() async throws {
    let url = server.url.appendingPathComponent("\(server.user)/hearth/").absoluteString
    _ = try await hearth(["accounts", "add", "caldav", url, "--user", server.user, "--name", "bench"])
    for other in ["vdirsyncer"] {
      _ = try await hearth(["accounts", "collection", "bench", other, "--off"])
    }
  }

  func sync() async throws -> Double {
    let started = ContinuousClock.now
    _ = try await hearth(["sync"])
    return Self.seconds(ContinuousClock.now - started)
  }

  func changeLocally() async throws {
    _ = try await hearth(["calendar", "edit", "event-3", "--title", "Event 3, changed here"])
  }

  /// Every event arrived once.
  func check(events: Int) async throws {
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    let stored = try database.events()
    guard stored.count == events, Set(stored.map(\.id)).count == events else {
      throw BenchmarkError.measurementFailed("Hearth holds \(stored.count) events after syncing \(events)")
    }
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

/// vdirsyncer syncing the same server's other collection into a folder of `.ics` files.
struct VdirsyncerSide: Sendable {
  let environment: URL
  let config: URL
  let local: URL

  init(environment: URL, server: BenchRadicale, folder: URL) throws {
    self.environment = environment
    let root = folder.appendingPathComponent("vdirsyncer")
    local = root.appendingPathComponent("local")
    config = root.appendingPathComponent("config")
    try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    let text = """
      [general]
      status_path = "\(root.appendingPathComponent("status").path)/"

      [pair bench]
      a = "bench_local"
      b = "bench_remote"
      collections = null
      conflict_resolution = "b wins"

      [storage bench_local]
      type = "filesystem"
      path = "\(local.path)/"
      fileext = ".ics"

      [storage bench_remote]
      type = "caldav"
      url = "\(server.url.appendingPathComponent("\(server.user)/vdirsyncer/").absoluteString)"
      username = "\(server.user)"
      password = "\(server.password)"

      """
    try text.write(to: config, atomically: true, encoding: .utf8)
  }

  private func vdirsyncer(_ arguments: [String]) async throws {
    let output = try await ChildProcess(
      executable: environment.appendingPathComponent("bin/vdirsyncer").path,
      arguments: ["-c", config.path] + arguments, timeout: .seconds(1800)
    ).run()
    guard output.status == 0 else {
      throw BenchmarkError.toolFailed(
        tool: "vdirsyncer \(arguments.joined(separator: " "))", reason: output.standardError)
    }
  }

  func prepare() async throws { try await vdirsyncer(["discover"]) }

  func sync() async throws -> Double {
    let started = ContinuousClock.now
    try await vdirsyncer(["sync"])
    return HearthSide.seconds(ContinuousClock.now - started)
  }

  /// One event's title changed in its file, as an editor would.
  func changeLocally() throws {
    let files = try FileManager.default.contentsOfDirectory(at: local, includingPropertiesForKeys: nil)
    guard let file = files.first(where: { $0.lastPathComponent.hasPrefix("event-3") }) else {
      throw BenchmarkError.measurementFailed("vdirsyncer wrote no event-3 file")
    }
    let text = try String(contentsOf: file, encoding: .utf8)
    try text.replacingOccurrences(of: "SUMMARY:Event 3", with: "SUMMARY:Event 3, changed here")
      .write(to: file, atomically: true, encoding: .utf8)
  }
}
