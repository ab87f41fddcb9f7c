import Foundation
import HearthCore
import HearthStore

/// The installed models and which one is loaded.
public struct ModelsOverview: Sendable, Encodable {
  /// The id of the loaded model, if any (none while it is unloaded).
  public var loaded: String?
  /// The file name of the model turns are answered with (loaded when a turn needs it).
  public var active: String?
  /// The file names of the chat models that can be chosen.
  public var choosable: [String]
  /// Its context window.
  public var contextSize: Int?
  /// Every model file in the models folder; one loaded from elsewhere (`--model PATH`) is listed first.
  public var models: [InstalledModel]

  enum CodingKeys: String, CodingKey {
    case loaded, models, active, choosable
    case contextSize = "context_size"
  }
}

/// Figures about the installation: counts and sizes, never anything the user wrote.
public struct EngineFigures: Sendable {
  public var model: String?
  public var contextSize: Int?
  public var sessions: Int
  public var messages: Int
  public var databaseBytes: UInt64
  public var queueDepth: Int
  public var processors: Int
  public var physicalMemoryBytes: UInt64
  public var operatingSystem: String
}

extension Engine {
  /// The `.gguf` files in the profile's models folder and the loaded model.
  public func modelsOverview() -> ModelsOverview {
    var installed = ModelCatalog.installed(in: paths.models)
    var loaded: InstalledModel?
    if let path = model?.path {
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      loaded = installed.first { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path == target }
      if loaded == nil {
        let outside = ModelCatalog.describe(path: path)
        installed.insert(outside, at: 0)
        loaded = outside
      }
    }
    let served = servedModels()
    return ModelsOverview(
      loaded: loaded?.id, active: served.first(where: \.isActive)?.file, choosable: served.map(\.file),
      contextSize: model?.contextSize, models: installed)
  }

  /// The names of the model files installed in the profile, without reading them.
  public func installedModelNames() -> [String] {
    ModelCatalog.fileNames(in: paths.models)
  }

  /// Counts and sizes for diagnostics.
  public func figures() async throws -> EngineFigures {
    let counts = try sessions.counts()
    let attributes = try? FileManager.default.attributesOfItem(atPath: database.path)
    let process = ProcessInfo.processInfo
    return EngineFigures(
      model: model?.name, contextSize: model?.contextSize, sessions: counts.sessions, messages: counts.messages,
      databaseBytes: (attributes?[.size] as? NSNumber)?.uint64Value ?? 0, queueDepth: await queueDepth,
      processors: Processors.available, physicalMemoryBytes: process.physicalMemory,
      operatingSystem: process.operatingSystemVersionString)
  }
}
