import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The installed models, which one answers, and downloads.
struct ModelRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/models"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(engine.modelsOverview()) }
    router.put("active") { request, _ in
      let body = try await RequestReader.decodeStrict(
        ActiveModelInput.self, from: request, limit: configuration.maxBodyBytes)
      // Waits for the requests already in line, so a turn never sees its model change under it.
      try await engine.switchModel(to: body.model)
      return try AppJSON.make(engine.modelsOverview())
    }
    // The vision projector images are read with (none: OCR).
    router.get("projector") { _, _ in try AppJSON.make(engine.visionProjectorView()) }
    router.put("projector") { request, _ in
      let body = try await RequestReader.decodeStrict(
        ProjectorInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let path = body.path, !path.isEmpty else {
        throw APIError.invalidRequest("path is required: the projector's file", parameter: "path")
      }
      try refuseProjectorFromTheEnvironment()
      return try AppJSON.make(try engine.setVisionProjector(path: path))
    }
    router.delete("projector") { request, _ in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      try refuseProjectorFromTheEnvironment()
      return try AppJSON.make(try engine.clearVisionProjector())
    }
    router.get("pulls") { _, _ in try AppJSON.make(["pulls": engine.pulls.list()]) }
    router.post("pulls") { request, _ in
      let body = try await RequestReader.decodeStrict(PullInput.self, from: request, limit: configuration.maxBodyBytes)
      let name = body.name?.trimmingCharacters(in: .whitespaces)
      return try AppJSON.make(
        try await engine.startPull(
          url: body.url, sha256: body.sha256, name: name?.isEmpty == true ? nil : name,
          allowsPrivateNetwork: configuration.allowsPrivateNetworkPulls),
        status: .accepted)
    }
    router.delete("pulls/:id") { _, context in
      let id = context.parameters.get("id") ?? ""
      guard let status = engine.pulls.cancel(id) else { throw APIError.notFound("no download has the id \(id)") }
      return try AppJSON.make(status)
    }
  }

  private func refuseProjectorFromTheEnvironment() throws {
    try APIError.refuseChangeOfEnvironmentSetting(
      "the projector", source: engine.visionProjectorView().source, variable: "HEARTH_MMPROJ")
  }
}

/// The remote server turns may go to.
struct RemoteRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/remote"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(await engine.remoteView()) }
    router.put { request, _ in
      let body = try await RequestReader.decodeStrict(
        RemoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try await engine.setRemote(body))
    }
    router.delete { _, _ in try AppJSON.make(try await engine.clearRemote()) }
    router.post("check") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      guard let check = await engine.checkRemote() else {
        throw APIError.invalidRequest("no remote server is set up", parameter: "url")
      }
      return try AppJSON.make(check)
    }
  }
}

/// How the model runs: settings, presets, their impact, and a test run.
struct RuntimeRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/runtime"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in
      let settings = try engine.runtimeSettings()
      return try AppJSON.make(
        RuntimeOverview(
          settings: settings,
          presets: Dictionary(
            uniqueKeysWithValues: RuntimeSettings.Preset.allCases.map { ($0.rawValue, RuntimeSettings.preset($0)) }),
          lastTest: try engine.lastRuntimeTest()))
    }
    router.post("preview") { request, _ in
      let settings = try await RequestReader.decodeStrict(
        RuntimeSettings.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try engine.previewRuntime(settings))
    }
    router.put { request, _ in
      let settings = try await RequestReader.decodeStrict(
        RuntimeSettings.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try engine.applyRuntime(settings))
    }
    router.post("validate") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(["checks": try await engine.validateRuntime()])
    }
    router.post("test") { request, _ in
      _ = try await RequestReader.decodeStrict(NoFields.self, from: request, limit: configuration.maxBodyBytes)
      // Waits its turn like any request, then loads the model as the saved settings say if it has to.
      return try AppJSON.make(try await engine.testRuntime())
    }
  }
}

/// `POST /api/models/pulls`: a model to download, checked against its SHA-256.
struct PullInput: StrictInput {
  var url: String
  var sha256: String
  var name: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case url, sha256, name }
}

/// `PUT /api/models/active`: the installed chat model to answer with, by id or file name.
struct ActiveModelInput: StrictInput {
  var model: String
  enum CodingKeys: String, CodingKey, CaseIterable { case model }
}

extension RuntimeSettings: StrictInput {}
extension RemoteInput: StrictInput {}
extension ChatSettings: StrictInput {}

/// A body for an action that takes no parameters: `{}`, so that anything sent along is refused by name.
struct NoFields: StrictInput {
  /// A key for the protocol's sake: an enum with a raw type needs a case. None is read, none is allowed.
  enum CodingKeys: String, CodingKey, CaseIterable { case none }
  static var fields: Set<String> { [] }

  /// An object, as every body is; its fields are refused by name afterwards.
  init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: CodingKeys.self)
  }
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

/// A vision projector to read images with.
struct ProjectorInput: StrictInput {
  var path: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case path }
}
