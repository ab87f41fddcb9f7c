public import Foundation
import HearthDAV
import HearthEngine

/// `hearth sync` against vdirsyncer, the established command-line sync tool, on the same Radicale server in
/// one run: the first sync of a collection of `events` events, a sync with nothing to do, one change on the
/// server, one change here. Each tool syncs a collection of its own holding the same events, so neither sees
/// the other's changes; both are timed as whole commands, start-up included.
public struct SyncBenchmark: Sendable {
  public struct Configuration: Sendable {
    /// The `hearth` executable to time.
    public var hearth: String
    /// The virtual environment with `radicale` and `vdirsyncer` (scripts/setup-dav.sh).
    public var environment: URL
    public var events = 5000

    public init(hearth: String, environment: URL) {
      self.hearth = hearth
      self.environment = environment
    }
  }

  /// One step timed for both tools.
  public struct Row: Sendable, Codable {
    public var step: String
    public var hearthSeconds: Double
    public var vdirsyncerSeconds: Double
    /// vdirsyncer's time over Hearth's: above 1, Hearth is faster.
    public var ratio: Double { hearthSeconds > 0 ? vdirsyncerSeconds / hearthSeconds : 0 }
  }

  let configuration: Configuration

  public init(configuration: Configuration) { self.configuration = configuration }

  public func run(progress: @Sendable (String) -> Void) async throws -> [Row] {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let server = try BenchRadicale(environment: configuration.environment, folder: work)
    defer { server.stop() }
    let transport = HTTPDAVTransport(username: server.user, password: server.password)
    do {
      let rows = try await measure(
        server: server, client: DAVClient(base: server.url, transport: transport), work: work, progress: progress)
      await transport.shutdown()
      return rows
    } catch {
      await transport.shutdown()
      throw error
    }
  }

  private func measure(
    server: BenchRadicale, client: DAVClient, work: URL, progress: @Sendable (String) -> Void
  ) async throws -> [Row] {
    progress("filling two collections with \(configuration.events) events each")
    for name in ["hearth", "vdirsyncer"] {
      try await fill(client, collection: "/\(server.user)/\(name)/", name: name)
    }
    let hearth = try HearthSide(configuration: configuration, server: server, folder: work)
    let vdirsyncer = try VdirsyncerSide(environment: configuration.environment, server: server, folder: work)
    try await hearth.prepare()
    try await vdirsyncer.prepare()
    var rows: [Row] = []
    func step(
      _ name: String, hearth one: () async throws -> Double, vdirsyncer other: () async throws -> Double
    )
      async throws
    {
      progress(name)
      rows.append(Row(step: name, hearthSeconds: try await one(), vdirsyncerSeconds: try await other()))
    }
    try await step("first sync, \(configuration.events) events", hearth: hearth.sync, vdirsyncer: vdirsyncer.sync)
    try await step("nothing to do", hearth: hearth.sync, vdirsyncer: vdirsyncer.sync)
    try await changeOnServer(client, collection: "/\(server.user)/hearth/")
    try await changeOnServer(client, collection: "/\(server.user)/vdirsyncer/")
    try await step("one change on the server", hearth: hearth.sync, vdirsyncer: vdirsyncer.sync)
    try await hearth.changeLocally()
    try vdirsyncer.changeLocally()
    try await step("one change here", hearth: hearth.sync, vdirsyncer: vdirsyncer.sync)
    try await hearth.check(events: configuration.events)
    return rows
  }

  /// The same events in each collection, uploaded as one calendar (Radicale makes a collection of a calendar
  /// PUT to its path, one member per UID: filling it one PUT at a time grows slower with every member). Not timed.
  private func fill(_ client: DAVClient, collection: String, name: String) async throws {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth bench//EN", "X-WR-CALNAME:\(name)"]
    for index in 0..<configuration.events {
      let event = Self.event(index, title: "Event \(index)").components(separatedBy: "\r\n")
      guard let begin = event.firstIndex(of: "BEGIN:VEVENT"), let end = event.firstIndex(of: "END:VEVENT") else {
        continue
      }
      lines += event[begin...end]
    }
    lines.append("END:VCALENDAR")
    _ = try await client.put(
      Data((lines.joined(separator: "\r\n") + "\r\n").utf8), at: collection,
      contentType: "text/calendar; charset=utf-8", replacing: nil)
  }

  private func changeOnServer(_ client: DAVClient, collection: String) async throws {
    let href = "\(collection)event-7.ics"
    let etag = try await client.members(of: DAVCollection(href: collection, displayName: "", content: .events))
      .first { DAVPath.normalized($0.href) == DAVPath.normalized(href) }?.etag
    _ = try await client.put(
      Data(Self.event(7, title: "Event 7, moved").utf8), at: href, contentType: "text/calendar; charset=utf-8",
      replacing: etag)
  }

  static func event(_ index: Int, title: String) -> String {
    let day = Calendar(identifier: .gregorian).date(
      byAdding: .day, value: index % 730, to: Date(timeIntervalSince1970: 1_798_761_600))!
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyyMMdd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    let date = formatter.string(from: day)
    let hour = 8 + index % 10
    let time = hour < 10 ? "0\(hour)" : "\(hour)"
    return [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth bench//EN", "BEGIN:VEVENT", "UID:event-\(index)",
      "DTSTAMP:20261201T000000Z", "DTSTART:\(date)T\(time)0000Z", "DTEND:\(date)T\(time)3000Z", "SUMMARY:\(title)",
      "LOCATION:Room \(index % 12)", "END:VEVENT", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"
  }
}
