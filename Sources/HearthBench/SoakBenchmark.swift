import AsyncHTTPClient
public import Foundation
import HearthStore
import NIOCore
import NIOHTTP1

/// A day of use, compressed: `hearth serve` driven by several clients at once with a mix of chats, OpenAI and
/// Anthropic completions (some streamed and hung up on halfway), note imports, searches, notices, calendar
/// writes and backups, for a set time. Reports what was served, failures by kind (those of the client's own
/// doing apart), latency per kind, resident memory and open descriptors after the warm-up and at the end, and
/// the database's integrity check once the server has stopped.
public struct SoakBenchmark: Sendable {
  public struct Configuration: Sendable {
    /// The `hearth` executable to start as the server.
    public var executable: URL
    public var modelPath: String
    public var seconds: Double
    public var clients = 4
    /// The share of the time before memory and descriptors are first read.
    public var warmUp = 0.2
    /// The server's environment (the embedding model, the speech models…); `HEARTH_HOME` is set to a scratch one.
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    public var seed: UInt64 = 20_261_204
    /// The most resident memory may grow from the warm-up to the end, as a fraction, before the soak fails.
    public var maxGrowth = 0.10

    public init(executable: URL, modelPath: String, seconds: Double) {
      (self.executable, self.modelPath, self.seconds) = (executable, modelPath, seconds)
    }
  }

  /// What a client does.
  public enum Kind: String, CaseIterable, Sendable, Codable {
    case chat, stopped = "chat stopped", completion, hungUp = "completion hung up", anthropic
    case importNote = "import", search, notices
    case calendar, backup

    var weight: Double {
      switch self {
      case .chat: 2
      case .stopped: 1
      case .completion: 3
      case .hungUp: 2
      case .anthropic: 1
      case .importNote: 1
      case .search: 2
      case .notices: 1
      case .calendar: 1
      case .backup: 0.25
      }
    }
  }

  /// One kind's figures.
  public struct KindFigures: Sendable, Codable {
    public var kind: Kind
    public var served: Int
    /// Failures that were not the client's doing, by what they were (`status 500`, `transport: …`).
    public var failed: [String: Int]
    /// Requests the client itself cut short (a hung-up stream) or that were told to come back (a backup busy).
    public var byTheClient: Int
    public var p50Ms: Double
    public var p99Ms: Double
  }

  public struct Report: Sendable, Codable {
    public var seconds: Double
    public var clients: Int
    public var requests: Int
    /// Failures that were not the client's doing, all kinds together.
    public var failures: Int
    public var kinds: [KindFigures]
    public var residentAfterWarmUp: UInt64?
    public var residentAtEnd: UInt64?
    public var descriptorsAfterWarmUp: Int?
    public var descriptorsAtEnd: Int?
    /// Descriptors open at the end, once every client has hung up, that neither the idle server before the load
    /// nor the server after the warm-up held: sockets beyond the idle ones, files and pipes beyond both readings.
    public var leakedDescriptors: Int?
    /// What the leaked descriptors point at (a path, `socket`, `pipe`), one entry each.
    public var leaked: [String]
    /// The server stopped by itself on SIGTERM.
    public var stoppedCleanly: Bool
    /// How the server ended when it ended by itself before the soak's end (a crash), else `nil`.
    public var exitedEarly: String?
    /// The most growth of resident memory the soak allowed, as a fraction.
    public var maxGrowth: Double
    /// SQLite's full check of the profile after the server stopped (`["ok"]` when sound).
    public var integrity: [String]

    /// Resident memory growth after the warm-up, as a fraction.
    public var residentGrowth: Double? {
      guard let start = residentAfterWarmUp, let end = residentAtEnd, start > 0 else { return nil }
      return Double(end) / Double(start) - 1
    }

    /// Whether everything held: no request failed by the server's doing, nothing leaked, memory within its
    /// growth, a clean stop and a sound database.
    public var passed: Bool {
      failures == 0 && (leakedDescriptors ?? 0) == 0 && (residentGrowth ?? 0) <= maxGrowth && stoppedCleanly
        && integrity == ["ok"]
    }
  }

  /// Connections the database's pool may hold at once: its writer and GRDB's default five readers, each opened
  /// the first time that many reads overlap (possibly after the warm-up) and kept.
  static let pooledConnections = 6

  /// Descriptors in `end` beyond what `idle` (sockets) or either earlier reading (everything else) held; the
  /// database's files up to one per pooled connection are the pool's, not leaks.
  static func leaked(idle: [String], warm: [String], end: [String]) -> [String] {
    func counted(_ targets: [String]) -> [String: Int] { targets.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    let (idle, warm) = (counted(idle), counted(warm))
    return counted(end).sorted { $0.key < $1.key }.flatMap { target, count -> [String] in
      // Connections come and go with the clients: once they have all hung up, only the idle server's remain.
      var allowed =
        target == "socket" ? idle[target, default: 0] : max(idle[target, default: 0], warm[target, default: 0])
      if ["/hearth.sqlite", "/hearth.sqlite-wal", "/hearth.sqlite-shm"].contains(where: target.hasSuffix) {
        allowed = max(allowed, pooledConnections)
      }
      return Array(repeating: target, count: max(0, count - allowed))
    }
  }

  let configuration: Configuration

  public init(configuration: Configuration) { self.configuration = configuration }

  /// Runs the soak.
  public func run(progress: Benchmark.Progress) async throws -> Report {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-soak-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let server = try SoakServer(
      executable: configuration.executable, home: home, modelPath: configuration.modelPath,
      environment: configuration.environment)
    do {
      try await server.waitUntilListening()
    } catch {
      _ = await server.stop()
      throw error
    }
    progress(
      "soak: hearth serve on port \(server.port), \(configuration.clients) clients for \(configuration.seconds) s")
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let driver = SoakClient(http: client, base: "http://127.0.0.1:\(server.port)")
    let start = ContinuousClock.now
    let deadline = start + .milliseconds(Int64(configuration.seconds * 1000))
    let warmUpEnd = start + .milliseconds(Int64(configuration.seconds * configuration.warmUp * 1000))
    let idleDescriptors = server.descriptorTargets()
    let watcher = Task { () -> (UInt64?, [String]?) in
      try? await Task.sleep(until: warmUpEnd)
      return (server.residentBytes(), server.descriptorTargets())
    }
    let samples = await withTaskGroup(of: [SoakClient.Sample].self) { group in
      for index in 0..<configuration.clients {
        let seed = configuration.seed &+ UInt64(index)
        group.addTask { await driver.drive(until: deadline, seed: seed, client: index) }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    let (residentAfterWarmUp, descriptorsAfterWarmUp) = await watcher.value
    // Connections the clients opened are closed before the end's reading, as a user's browser would; the
    // server closes its side as it notices, so the reading waits (10 s at most) for the sockets to go.
    try? await client.shutdown()
    var descriptorsAtEnd = server.descriptorTargets()
    let closing = ContinuousClock.now + .seconds(10)
    while let idle = idleDescriptors, let end = descriptorsAtEnd, ContinuousClock.now < closing,
      end.count(where: { $0 == "socket" }) > idle.count(where: { $0 == "socket" })
    {
      try? await Task.sleep(for: .milliseconds(100))
      descriptorsAtEnd = server.descriptorTargets()
    }
    let residentAtEnd = server.residentBytes()
    let leaked = idleDescriptors.flatMap { idle in
      descriptorsAfterWarmUp.flatMap { warm in descriptorsAtEnd.map { Self.leaked(idle: idle, warm: warm, end: $0) } }
    }
    let stopped = await server.stop()
    let integrity: [String]
    do {
      integrity = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path).integrityCheck()
    } catch {
      integrity = ["\(error)"]
    }
    let kinds = Kind.allCases.map { kind in Self.figures(kind, samples.filter { $0.kind == kind }) }
    return Report(
      seconds: configuration.seconds, clients: configuration.clients, requests: samples.count,
      failures: kinds.reduce(0) { $0 + $1.failed.values.reduce(0, +) }, kinds: kinds,
      residentAfterWarmUp: residentAfterWarmUp, residentAtEnd: residentAtEnd,
      descriptorsAfterWarmUp: descriptorsAfterWarmUp?.count, descriptorsAtEnd: descriptorsAtEnd?.count,
      leakedDescriptors: leaked?.count, leaked: leaked ?? [], stoppedCleanly: stopped,
      exitedEarly: server.exitedEarly, maxGrowth: configuration.maxGrowth, integrity: integrity)
  }

  static func figures(_ kind: Kind, _ samples: [SoakClient.Sample]) -> KindFigures {
    var failed: [String: Int] = [:]
    var byTheClient = 0
    var served: [Double] = []
    for sample in samples {
      switch sample.outcome {
      case .served: served.append(sample.milliseconds)
      case .byTheClient: byTheClient += 1
      case .failed(let why): failed[why, default: 0] += 1
      }
    }
    return KindFigures(
      kind: kind, served: served.count, failed: failed, byTheClient: byTheClient,
      p50Ms: percentile(served, 0.5), p99Ms: percentile(served, 0.99))
  }

  static func percentile(_ values: [Double], _ share: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((Double(sorted.count) * share).rounded(.up)) - 1
    return sorted[min(sorted.count - 1, max(0, rank))]
  }
}

extension SoakBenchmark.Report {
  /// The report as a table.
  public var table: String {
    var lines = [
      "kind                   served  failed  by client    p50 ms    p99 ms"
    ]
    for figures in kinds {
      lines.append(
        figures.kind.rawValue.padding(toLength: 21, withPad: " ", startingAt: 0)
          + String(
            format: "%8d%8d%11d%10.0f%10.0f", figures.served, figures.failed.values.reduce(0, +),
            figures.byTheClient, figures.p50Ms, figures.p99Ms))
      for (why, count) in figures.failed.sorted(by: { $0.key < $1.key }) { lines.append("    \(count) × \(why)") }
    }
    let mib = { (bytes: UInt64?) in bytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unknown" }
    lines.append("")
    lines.append(
      "\(requests) requests from \(clients) clients in \(Int(seconds)) s; \(failures) failed not by the client")
    lines.append(
      "resident memory: \(mib(residentAfterWarmUp)) after the warm-up, \(mib(residentAtEnd)) at the end"
        + (residentGrowth.map { String(format: " (%+.1f %%)", $0 * 100) } ?? ""))
    lines.append(
      "open descriptors: \(descriptorsAfterWarmUp.map(String.init) ?? "unknown") after the warm-up, "
        + "\(descriptorsAtEnd.map(String.init) ?? "unknown") at the end, "
        + "\(leakedDescriptors.map(String.init) ?? "unknown") leaked"
        + (leaked.isEmpty ? "" : " (\(leaked.prefix(5).joined(separator: ", ")))"))
    lines.append(
      "stopped on SIGTERM: "
        + (stoppedCleanly ? "yes" : exitedEarly.map { "no, it had ended by itself (\($0))" } ?? "no, killed"))
    lines.append("integrity check: \(integrity.prefix(3).joined(separator: "; "))")
    return lines.joined(separator: "\n") + "\n"
  }
}
