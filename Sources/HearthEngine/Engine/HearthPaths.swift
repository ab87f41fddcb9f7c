public import Foundation
public import HearthStore

/// Where Hearth keeps its data: `$HEARTH_HOME`, by default `~/.local/share/hearth`.
public struct HearthPaths: Sendable, Hashable {
  /// The data directory.
  public var home: URL
  /// Where models are installed: `models` in the data directory unless set otherwise.
  public var models: URL

  /// Reads `HEARTH_HOME` from `environment`, falling back to `~/.local/share/hearth`.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let home = environment["HEARTH_HOME"], !home.isEmpty {
      self.init(home: URL(fileURLWithPath: home, isDirectory: true))
    } else {
      let base =
        environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      self.init(home: base.appendingPathComponent(".local/share/hearth", isDirectory: true))
    }
  }

  /// Creates paths rooted at `home`, with models in `models` (default: `home/models`).
  public init(home: URL, models: URL? = nil) {
    self.home = home
    self.models = models ?? home.appendingPathComponent("models", isDirectory: true)
  }

  /// The profile's database.
  public var database: URL { home.appendingPathComponent("hearth.sqlite") }

  /// Where the local model keeps each chat's evaluated state between turns and restarts (it holds the chat
  /// itself, so it stays in the profile).
  public var conversationStates: URL { home.appendingPathComponent("state", isDirectory: true) }

  /// The local certificate authority and the server certificate `hearth serve --tls` serves, with their keys.
  public var tls: URL { home.appendingPathComponent("tls", isDirectory: true) }

  /// The key notifications are pushed with (VAPID): browsers subscribed for it accept no other.
  public var push: URL { home.appendingPathComponent("push", isDirectory: true) }

  /// Where evaluated instruction prefixes are kept for every profile on the machine (they hold Hearth's own
  /// instructions, never the user's data): `$HEARTH_PREFIX_CACHE`, else `hearth/prefixes` in
  /// `$XDG_CACHE_HOME` (default `~/.cache`); `nil` when `HEARTH_PREFIX_CACHE` is `off`.
  public static func prefixCache(environment: [String: String]) -> URL? {
    if let set = environment["HEARTH_PREFIX_CACHE"], !set.isEmpty {
      return set == "off" ? nil : URL(fileURLWithPath: set, isDirectory: true)
    }
    return cacheFolder(environment: environment).appendingPathComponent("prefixes", isDirectory: true)
  }

  /// Hearth's folder in the user's cache: `hearth` in `$XDG_CACHE_HOME` (unset or empty: `~/.cache`), where
  /// the set-up also puts llama.cpp, whisper.cpp and the models.
  public static func cacheFolder(environment: [String: String]) -> URL {
    let cache =
      environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? ((environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.cache")
    return URL(fileURLWithPath: cache, isDirectory: true).appendingPathComponent("hearth", isDirectory: true)
  }

  /// Held (shared) by every process that may be generating into the database.
  public var generationLock: URL { home.appendingPathComponent("generation.lock") }
}

/// Picks the chat model a command runs: an explicit path or registry name, else `$HEARTH_MODEL` (either),
/// else the model chosen with `hearth models use`, else the default model installed in the data directory.
public struct ModelResolver: Sendable {
  /// File name of the default chat model (SmolLM2-135M-Instruct), installed by the set-up.
  public static let defaultModelFileName = "SmolLM2-135M-Instruct.Q4_1.gguf"

  /// Data directory.
  public var paths: HearthPaths
  /// Environment to read `HEARTH_MODEL` from.
  public var environment: [String: String]

  /// Creates a resolver.
  public init(paths: HearthPaths, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.paths = paths
    self.environment = environment
  }

  /// The model file to load and, when the registry knows it, its entry (template and context to use).
  public struct Resolved: Sendable, Hashable {
    public var path: String
    public var entry: ModelEntry?
  }

  /// The model to use.
  /// - Throws: ``ModelResolutionError`` when no model was named and the default is not installed; a
  ///   ``ModelRegistryError`` when a registry name is unknown or its model cannot be used (missing, damaged,
  ///   a wrong hash, an embedding model).
  public func resolveModel(explicit: String?) throws -> Resolved {
    let registry = ModelRegistry(folder: paths.models)
    for named in [explicit, environment["HEARTH_MODEL"]] {
      guard let named, !named.isEmpty else { continue }
      // A path is a path; a bare name that is no file here is a registry name.
      if ModelRegistry.isFilePath(named) {
        let entry = try? registry.entries().first { registry.path(of: $0) == named }
        return Resolved(path: named, entry: entry)
      }
      let model = try registry.usable(named, role: .chat)
      return Resolved(path: model.path, entry: model.entry)
    }
    if let active = try registry.active(.chat) {
      let model = try registry.usable(active.id, role: .chat)
      return Resolved(path: model.path, entry: model.entry)
    }
    let fallback = paths.models.appendingPathComponent(Self.defaultModelFileName).path
    guard FileManager.default.fileExists(atPath: fallback) else {
      throw ModelResolutionError(searched: fallback)
    }
    return Resolved(path: fallback, entry: BundledModels.entries.first { $0.fileName == Self.defaultModelFileName })
  }

  /// The model path to use (see ``resolveModel(explicit:)``).
  public func resolve(explicit: String?) throws -> String {
    try resolveModel(explicit: explicit).path
  }
}

/// No model was named and the default model is not installed.
public struct ModelResolutionError: Error, Sendable, CustomStringConvertible {
  /// Where the default model was looked for.
  public var searched: String

  public var description: String {
    "no model given and the default model is not installed at \(searched); pass --model PATH, set HEARTH_MODEL, or run `make build`"
  }
}

extension HistoryPolicy {
  /// The history policy set by `HEARTH_KEEP_SESSIONS` (a count) and `HEARTH_KEEP_DAYS` (an age), or `nil`
  /// when neither is set. Pinned and archived sessions are never pruned.
  public init?(environment: [String: String]) {
    let count = environment["HEARTH_KEEP_SESSIONS"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    let days = environment["HEARTH_KEEP_DAYS"].flatMap { Double($0) }.flatMap { $0 >= 0 ? $0 : nil }
    guard count != nil || days != nil else { return nil }
    self.init(maximumSessions: count, maximumAge: days.map { $0 * 86_400 })
  }
}
