import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// Health and metrics, for monitors: at the root, as llama-server and Prometheus expect them.
struct SystemRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let metrics: ServerMetrics

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get("health") { _, _ in
      try AppJSON.make(Health(status: engine.model == nil ? "no_model" : "ok", model: engine.model?.name))
    }
    router.get("metrics") { _, _ in
      metrics.recordQueueDepth(await engine.queueDepth)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }
  }
}

/// The chat settings: sampling, length, system prompt.
struct SettingsRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/settings"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(try engine.chatSettings()) }
    router.put { request, _ in
      let settings = try await RequestReader.decodeStrict(
        ChatSettings.self, from: request, limit: configuration.maxBodyBytes)
      try engine.setChatSettings(settings)
      return try AppJSON.make(settings)
    }
  }
}

/// What the Diagnostics page shows: `hearth doctor`'s report and the server's figures, never the user's words.
struct DiagnosticsRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/diagnostics"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in
      try AppJSON.make(try await diagnostics())
    }
    // The latest log lines, as the server writes them to its standard error: requests, loads, syncs,
    // failures, never what anyone wrote.
    router.get("log") { request, _ in
      let count = try RouteInput.integer(request, "limit", default: 200, in: 1...dependencies.recentLog.capacity)
      return try AppJSON.make(RecentLines(lines: dependencies.recentLog.latest(count)))
    }
  }

  private func diagnostics() async throws -> Diagnostics {
    let figures = try await engine.figures()
    let report = try await engine.doctor()
    let uptime = Date().timeIntervalSince(dependencies.startedAt)
    let server = [
      "", "Server", "  " + "up for".padding(toLength: 24, withPad: " ", startingAt: 0) + "\(Int(uptime)) s",
      "  " + "requests in line".padding(toLength: 24, withPad: " ", startingAt: 0) + "\(figures.queueDepth)",
      "  " + "API key".padding(toLength: 24, withPad: " ", startingAt: 0)
        + (configuration.apiKey == nil ? "not required" : "required"),
    ]
    return Diagnostics(
      report: report, text: report.text + server.joined(separator: "\n") + "\n",
      version: HearthVersion.current,
      uptimeSeconds: uptime,
      model: figures.model,
      contextSize: figures.contextSize,
      sessions: figures.sessions,
      messages: figures.messages,
      databaseBytes: figures.databaseBytes,
      queueDepth: figures.queueDepth,
      processors: figures.processors,
      physicalMemoryBytes: figures.physicalMemoryBytes,
      operatingSystem: figures.operatingSystem,
      apiKeyRequired: configuration.apiKey != nil,
      host: configuration.host)
  }
}

/// `GET /api/diagnostics/log`: the latest log lines, oldest first.
struct RecentLines: Encodable {
  var lines: [RecentLog.Line]
}

struct Health: Encodable {
  var status: String
  var model: String?
}

/// What the diagnostics view shows: figures about the installation, never anything the user wrote.
struct Diagnostics: Encodable {
  /// What `hearth doctor` reports, and its text for copying.
  var report: DoctorReport
  var text: String
  var version: String
  var uptimeSeconds: Double
  var model: String?
  var contextSize: Int?
  var sessions: Int
  var messages: Int
  var databaseBytes: UInt64
  var queueDepth: Int
  var processors: Int
  var physicalMemoryBytes: UInt64
  var operatingSystem: String
  var apiKeyRequired: Bool
  var host: String

  enum CodingKeys: String, CodingKey {
    case report, text, version, model, sessions, messages, processors, host
    case uptimeSeconds = "uptime_seconds"
    case contextSize = "context_size"
    case databaseBytes = "database_bytes"
    case queueDepth = "queue_depth"
    case physicalMemoryBytes = "physical_memory_bytes"
    case operatingSystem = "operating_system"
    case apiKeyRequired = "api_key_required"
  }
}
