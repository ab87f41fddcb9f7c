import Foundation
import Logging

/// An installed chat model a request may name (`/v1/models`).
public struct ServedModel: Sendable, Hashable, Encodable {
  /// The file name: what responses name the model by.
  public var file: String
  /// The registry id, when it has one.
  public var id: String?
  public var displayName: String?
  /// Whether turns are answered with it when no request names another.
  public var isActive: Bool
  /// Whether it is in memory now.
  public var isLoaded: Bool
}

extension Engine {
  /// The name a request uses for "whichever model is chosen", as clients written for one-model servers send.
  public static let chosenModelAlias = "hearth"

  /// The installed chat models that can be used, the chosen one first, then one loaded from outside the
  /// models folder (`--model PATH`) if that is what runs.
  public func servedModels() -> [ServedModel] {
    guard let host else { return [] }
    let active = host.active
    let activePath = Self.resolved(active.options.path)
    let loadedPath = host.loaded.map { Self.resolved($0.path) }
    let registry = ModelRegistry(folder: paths.models)
    let installed = logger.attempt("listing the installed models") { try registry.installed() } ?? []
    var served = installed.filter { $0.entry.role == .chat && $0.status.isUsable }.map {
      let path = Self.resolved($0.path)
      // A model run from elsewhere (`--model PATH`) and an installed copy of it are one model to a client.
      let isActive = path == activePath || $0.entry.fileName == active.fileName
      return ServedModel(
        file: $0.entry.fileName, id: $0.id, displayName: $0.entry.displayName, isActive: isActive,
        isLoaded: path == loadedPath || (isActive && loadedPath == activePath))
    }
    if !served.contains(where: \.isActive) {
      served.append(
        ServedModel(
          file: active.fileName, id: active.id, displayName: nil, isActive: true,
          isLoaded: activePath == loadedPath))
    }
    return served.filter(\.isActive) + served.filter { !$0.isActive }
  }

  /// The chosen chat model as the web app's header names it: its id in the models folder, else its file name,
  /// without `.gguf` — never the file header's own name, which is often a training run's ("Smollm2 135M 8k
  /// Lc100K Mix1 Ep2").
  public func activeModelLabel() -> String? {
    guard let active = servedModels().first(where: \.isActive) else { return nil }
    return ModelFileName.stem(active.id ?? active.file)
  }

  /// What a request naming `name` is answered with: `nil` for the chosen model (``chosenModelAlias`` or one
  /// of its own names), which is read only once the request's turn comes, since a choice made meanwhile
  /// applies to it; else the installed chat model with that id, file name or a prefix of its file name
  /// (any case).
  /// - Throws: ``ChatError/modelNotReady`` without a model; ``ModelRegistryError`` when no installed chat
  ///   model has the name, or the one named cannot be used.
  func chatModelChoice(named name: String) throws -> LocalModelHost.Choice? {
    guard let host else { throw ChatError.modelNotReady }
    let active = host.active
    let wanted = Self.stem(name)
    if name == Self.chosenModelAlias || wanted.isEmpty || name == active.id
      || Self.stem(active.fileName).hasPrefix(wanted)
    {
      return nil
    }
    let registry = ModelRegistry(folder: paths.models)
    let entry: ModelEntry
    do {
      entry = try registry.entry(named: name)
    } catch {
      let installed = logger.attempt("listing the installed models") { try registry.installed() } ?? []
      guard
        let match = installed.first(where: { $0.entry.role == .chat && Self.stem($0.entry.fileName).hasPrefix(wanted) })
      else {
        throw ModelRegistryError.unknownModel(
          name, known: [Self.chosenModelAlias] + servedModels().map { $0.id ?? $0.file })
      }
      entry = match.entry
    }
    let model = try registry.usable(entry.id, role: .chat)
    return LocalModelHost.Choice(
      options: Self.loadOptions(
        path: model.path, entry: entry, settings: try runtimeSettings(),
        base: LocalModelOptions(path: model.path, threads: active.options.threads)),
      id: entry.id)
  }

  /// Whether `name` names the chosen model or another installed chat model (usable or not).
  public func namesInstalledChatModel(_ name: String) -> Bool {
    do {
      _ = try chatModelChoice(named: name)
      return true
    } catch ModelRegistryError.unknownModel {
      return false
    } catch {
      return true
    }
  }

  /// Makes the installed chat model `name` the one turns are answered with, from now on and in later runs:
  /// waits for the requests already in line, then unloads the current model and loads the new one. When the
  /// new one cannot be loaded, the current one stays.
  /// - Throws: ``ChatError/modelNotReady`` for an engine without a model; ``ModelRegistryError`` for a name
  ///   that is no usable chat model; ``ModelTooLargeError`` or the loader's error when it cannot be loaded.
  @discardableResult
  public func switchModel(to name: String) async throws -> ServedModel {
    guard let host else { throw ChatError.modelNotReady }
    guard let choice = try chatModelChoice(named: name) else {
      return servedModels().first { $0.isActive }
        ?? ServedModel(file: host.active.fileName, id: host.active.id, displayName: nil, isActive: true, isLoaded: true)
    }
    try await host.line.run { try await host.activate(choice) }
    if let id = choice.id { try ModelRegistry(folder: paths.models).use(id) }
    return servedModels().first { $0.isActive }
      ?? ServedModel(file: choice.fileName, id: choice.id, displayName: nil, isActive: true, isLoaded: true)
  }

  /// A service that unloads the local model after `idle` without use, or when less than `pressure` bytes of
  /// memory are available (`nil`: never for that reason), checking every `interval`; a later turn loads it
  /// again. Run it in the service group beside the server; `nil` when there is nothing to watch.
  public func idleUnloadService(idle: Duration?, pressure: UInt64?, every interval: Duration) -> IdleUnloadService? {
    guard idle != nil || pressure != nil, let host else { return nil }
    let memory = memory
    return IdleUnloadService(
      host: host, idle: idle, pressure: pressure, interval: interval, logger: logger,
      release: { await memory.releaseConversations() })
  }

  /// Starts downloading a model into the profile's models folder in the background; ``pulls`` tells how it
  /// goes and cancels it.
  /// - Throws: ``ModelDownloadError`` for a malformed URL or hash, a private address when those are not
  ///   allowed, or too many downloads at once.
  public func startPull(
    url: String, sha256: String, name: String?, allowsPrivateNetwork: Bool = false
  ) async throws -> PullStatus {
    let prefetch = logger.attempt("reading the runtime settings") { try runtimeSettings().prefetch } ?? nil
    return try await pulls.start(
      url: url, sha256: sha256, name: name, registry: ModelRegistry(folder: paths.models),
      destination: PullDestination(allowsPrivateNetwork: allowsPrivateNetwork)
    ) { [logger] model in
      // With reading ahead on, the new model is in the page cache before it is first chosen.
      guard prefetch == true else { return }
      do {
        try await PageCache.warm(model.path)
      } catch {
        logger.warning("a downloaded model could not be read ahead", metadata: ["error": "\(ErrorKind.of(error))"])
      }
    }
  }

  static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  static func stem(_ name: String) -> String {
    name.lowercased().replacingOccurrences(of: ".gguf", with: "")
  }
}
