import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The installed models, which one answers, how it runs, and the remote server turns may go to.
struct ModelRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  func register(on router: Router<Context>) {
    router.get("/api/models") { _, _ in try JSONResponse.make(engine.modelsOverview()) }
    router.put("/api/models/active") { request, _ in
      let body = try await RequestReader.decodeStrict(
        ActiveModelInput.self, from: request, limit: configuration.maxBodyBytes)
      // Waits for the requests already in line, so a turn never sees its model change under it.
      try await engine.switchModel(to: body.model)
      return try JSONResponse.make(engine.modelsOverview())
    }
    router.get("/api/models/pulls") { _, _ in try JSONResponse.make(["pulls": engine.pulls.list()]) }
    router.post("/api/models/pulls") { request, _ in
      let body = try await RequestReader.decodeStrict(PullInput.self, from: request, limit: configuration.maxBodyBytes)
      let name = body.name?.trimmingCharacters(in: .whitespaces)
      return try JSONResponse.make(
        try await engine.startPull(
          url: body.url, sha256: body.sha256, name: name?.isEmpty == true ? nil : name,
          allowsPrivateNetwork: configuration.allowsPrivateNetworkPulls),
        status: .accepted)
    }
    router.delete("/api/models/pulls/:id") { _, context in
      let id = context.parameters.get("id") ?? ""
      guard let status = engine.pulls.cancel(id) else { throw APIError.notFound("no download has the id \(id)") }
      return try JSONResponse.make(status)
    }
    router.get("/api/remote") { _, _ in try JSONResponse.make(engine.remoteView()) }
    router.put("/api/remote") { request, _ in
      let body = try await RequestReader.decodeStrict(
        RemoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try engine.setRemote(body))
    }
    router.delete("/api/remote") { _, _ in try JSONResponse.make(try engine.clearRemote()) }
    router.post("/api/remote/check") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      guard let check = await engine.checkRemote() else {
        throw APIError.invalidRequest("no remote server is set up", parameter: "url")
      }
      return try JSONResponse.make(check)
    }
    router.get("/api/runtime") { _, _ in
      let settings = try engine.runtimeSettings()
      return try JSONResponse.make(
        RuntimeOverview(
          settings: settings,
          presets: Dictionary(
            uniqueKeysWithValues: RuntimeSettings.Preset.allCases.map { ($0.rawValue, RuntimeSettings.preset($0)) }),
          lastTest: try engine.lastRuntimeTest()))
    }
    router.post("/api/runtime/preview") { request, _ in
      let settings = try await RequestReader.decodeStrict(
        RuntimeSettings.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try engine.previewRuntime(settings))
    }
    router.put("/api/runtime") { request, _ in
      let settings = try await RequestReader.decodeStrict(
        RuntimeSettings.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try engine.applyRuntime(settings))
    }
    router.post("/api/runtime/validate") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(["checks": try await engine.validateRuntime()])
    }
    router.post("/api/runtime/test") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      // Waits its turn like any request, then loads the model as the saved settings say if it has to.
      return try JSONResponse.make(try await engine.testRuntime())
    }
  }
}

/// `POST /api/models/pulls`: a model to download, checked against its SHA-256.
struct PullInput: StrictInput {
  var url: String
  var sha256: String
  var name: String?
  static let fields: Set<String> = ["url", "sha256", "name"]
}

/// `PUT /api/models/active`: the installed chat model to answer with, by id or file name.
struct ActiveModelInput: StrictInput {
  var model: String
  static let fields: Set<String> = ["model"]
}

extension RuntimeSettings: StrictInput {}
extension RemoteInput: StrictInput {}

/// A body for an action that takes no parameters: `{}`, so that anything sent along is refused by name.
struct NoFields: StrictInput {
  static let fields: Set<String> = []
}

struct RuntimeOverview: Encodable {
  var settings: RuntimeSettings
  var presets: [String: RuntimeSettings]
  var lastTest: RuntimeTestResult?

  enum CodingKeys: String, CodingKey {
    case settings, presets
    case lastTest = "last_test"
  }
}
