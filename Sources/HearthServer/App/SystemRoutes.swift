import Foundation
import HearthCore
import HearthEngine
import HearthStore
import Hummingbird

/// Health, metrics, settings, models and diagnostics.
struct SystemRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration
  let metrics: ServerMetrics

  func register(on router: Router<Context>) {
    router.get("/health") { _, _ in
      try JSONResponse.make(
        Health(status: dependencies.model == nil ? "no_model" : "ok", model: dependencies.model?.name))
    }
    router.get("/metrics") { _, _ in
      metrics.recordQueueDepth(await dependencies.queue.depth)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }
    router.get("/api/settings") { _, _ in try JSONResponse.make(try dependencies.settings()) }
    router.put("/api/settings") { request, _ in
      let settings = try await RequestReader.decode(ChatSettings.self, from: request, limit: configuration.maxBodyBytes)
      do {
        try settings.validate()
      } catch {
        throw APIError.invalidRequest("\(error)")
      }
      try dependencies.database.setChatSettings(settings)
      return try JSONResponse.make(settings)
    }
    router.get("/api/models") { _, _ in
      var installed = ModelCatalog.installed(in: dependencies.modelsFolder)
      var loaded: InstalledModel?
      if let path = dependencies.modelPath {
        loaded = installed.first { Self.samePath($0.path, path) }
        if loaded == nil {
          // Loaded from elsewhere (`--model PATH`): listed first so the view still shows it.
          let outside = ModelCatalog.describe(path: path)
          installed.insert(outside, at: 0)
          loaded = outside
        }
      }
      return try JSONResponse.make(
        ModelsView(
          loaded: loaded?.id, contextSize: dependencies.model?.contextSize, models: installed))
    }
    router.get("/api/diagnostics") { _, _ in try JSONResponse.make(try await diagnostics()) }
  }

  private func diagnostics() async throws -> Diagnostics {
    let database = dependencies.database
    let attributes = try? FileManager.default.attributesOfItem(atPath: database.path)
    return Diagnostics(
      version: HearthVersion.current,
      uptimeSeconds: Date().timeIntervalSince(dependencies.startedAt),
      model: dependencies.model?.name,
      contextSize: dependencies.model?.contextSize,
      sessions: try database.sessionCount(),
      messages: try database.messageCount(),
      databaseBytes: (attributes?[.size] as? NSNumber)?.uint64Value ?? 0,
      queueDepth: await dependencies.queue.depth,
      processors: ProcessInfo.processInfo.activeProcessorCount,
      physicalMemoryBytes: ProcessInfo.processInfo.physicalMemory,
      operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
      apiKeyRequired: configuration.apiKey != nil,
      host: configuration.host)
  }

  static func samePath(_ a: String, _ b: String) -> Bool {
    URL(fileURLWithPath: a).resolvingSymlinksInPath().path == URL(fileURLWithPath: b).resolvingSymlinksInPath().path
  }
}

struct Health: Encodable {
  var status: String
  var model: String?
}

struct ModelsView: Encodable {
  var loaded: String?
  var contextSize: Int?
  var models: [InstalledModel]
  enum CodingKeys: String, CodingKey {
    case loaded, models
    case contextSize = "context_size"
  }
}

/// What the diagnostics view shows: figures about the installation, never anything the user wrote.
struct Diagnostics: Encodable {
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
    case version, model, sessions, messages, processors, host
    case uptimeSeconds = "uptime_seconds"
    case contextSize = "context_size"
    case databaseBytes = "database_bytes"
    case queueDepth = "queue_depth"
    case physicalMemoryBytes = "physical_memory_bytes"
    case operatingSystem = "operating_system"
    case apiKeyRequired = "api_key_required"
  }
}

/// Hearth's version, reported by diagnostics.
public enum HearthVersion {
  public static let current = "0.4.0"
}
