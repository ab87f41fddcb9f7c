import Foundation
import HearthCore
import HearthStore
import Synchronization

/// The remote provider as the user sees it: where it is and how turns use it, the key masked.
public struct RemoteView: Sendable, Hashable, Encodable {
  /// `environment` (HEARTH_REMOTE_URL…), `profile` (saved from the web app), or `none`.
  public var source: String
  public var url: String?
  public var kind: String?
  public var model: String?
  /// The key's last four characters, when one is set; never the key.
  public var key: String?
  public var preference: ProviderPreference
  public var firstTokenTimeout: Double?
  /// Seconds of remote answers before the local model's weights are let go; `0` keeps them.
  public var parkLocalAfter: Double?
  /// Whether the server's model writes answers from what a look-up found.
  public var writesFromFacts: Bool?
  /// What the background probes found: `unknown`, `proving` (reachable, inside its stability window),
  /// `usable` or `unreachable`; absent while turns stay local.
  public var standing: RemoteStanding?

  enum CodingKeys: String, CodingKey {
    case source, url, kind, model, key, preference, standing
    case firstTokenTimeout = "first_token_timeout"
    case parkLocalAfter = "park_local_after"
    case writesFromFacts = "writes_from_facts"
  }
}

/// New remote settings from the user. A key left out keeps the saved one; an empty key removes it.
public struct RemoteInput: Sendable, Hashable, Decodable {
  public var url: String
  public var kind: RemoteKind?
  public var model: String?
  public var apiKey: String?
  public var preference: ProviderPreference?
  public var firstTokenTimeout: Double?
  /// Seconds; `0` keeps the local model loaded.
  public var parkLocalAfter: Double?
  public var writesFromFacts: Bool?

  /// The fields a request may send.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case url, kind, model, preference
    case apiKey = "api_key"
    case firstTokenTimeout = "first_token_timeout"
    case parkLocalAfter = "park_local_after"
    case writesFromFacts = "writes_from_facts"
  }

  public init(
    url: String, kind: RemoteKind? = nil, model: String? = nil, apiKey: String? = nil,
    preference: ProviderPreference? = nil, firstTokenTimeout: Double? = nil, parkLocalAfter: Double? = nil,
    writesFromFacts: Bool? = nil
  ) {
    self.parkLocalAfter = parkLocalAfter
    self.writesFromFacts = writesFromFacts
    self.url = url
    self.kind = kind
    self.model = model
    self.apiKey = apiKey
    self.preference = preference
    self.firstTokenTimeout = firstTokenTimeout
  }
}

/// Whether the remote server answered a health probe, and how fast.
public struct RemoteCheck: Sendable, Hashable, Encodable {
  public var reachable: Bool
  public var milliseconds: Double
}

/// The remote provider as kept in the profile; the key is stored here and nowhere else.
struct StoredRemote: Codable, Sendable, Hashable {
  var url: String
  var kind: RemoteKind
  var model: String
  var apiKey: String?
  var firstTokenTimeout: Double
  var preference: ProviderPreference
  /// Seconds, `0` to keep the local model; absent in profiles saved before it existed (the default then).
  var parkLocalAfter: Double?
  var writesFromFacts: Bool?

  var settings: RemoteSettings? {
    URL(string: url).map {
      RemoteSettings(
        url: $0, kind: kind, model: model, apiKey: apiKey,
        firstTokenTimeout: .milliseconds(Int64(firstTokenTimeout * 1000)),
        parkLocalAfter: parkLocalAfter.map { $0 == 0 ? nil : .seconds($0) }
          ?? RemoteSettings.defaultParkLocalAfter,
        writesFromFacts: writesFromFacts ?? true)
    }
  }
}

/// Which remote server turns may go to, where its settings came from, and the user's preference.
struct RemoteState: Sendable {
  var settings: RemoteSettings?
  /// `environment`, `profile` or `none`.
  var source: String
  var preference: ProviderPreference
}

extension Engine {
  static let remoteKey = "remote"

  /// Where a new engine's turns may go: the remote server from the configuration, the environment or the
  /// profile (in that order), with the preference from the configuration, else the profile, else `auto`.
  /// - Throws: ``RemoteError/invalidSettings(_:)`` for malformed environment settings, or when the remote
  ///   provider is asked for and none is configured.
  static func initialRemote(_ configuration: EngineConfiguration, database: HearthDatabase) throws -> RemoteState {
    let stored =
      configuration.logger.attempt("reading the saved remote server") {
        try database.setting(remoteKey, as: StoredRemote.self)
      } ?? nil
    let given = try configuration.remote ?? RemoteSettings.from(environment: configuration.environment)
    let settings = given ?? stored?.settings
    let preference = configuration.provider ?? stored?.preference ?? .auto
    if settings == nil, preference == .remote {
      throw RemoteError.invalidSettings("the remote provider is not configured: set HEARTH_REMOTE_URL")
    }
    let source = given != nil ? "environment" : settings != nil ? "profile" : "none"
    return RemoteState(settings: settings, source: source, preference: settings == nil ? .local : preference)
  }

  /// The route for `state` over `local`: none when turns stay local.
  static func route(_ state: RemoteState, local: any ChatModel) -> RoutedChatModel.Route? {
    guard let remote = state.settings, state.preference != .local else { return nil }
    return RoutedChatModel.Route(
      remote: RemoteChatModel(settings: remote, counter: local), router: ProviderRouter(),
      preference: state.preference, firstTokenTimeout: remote.firstTokenTimeout, parkLocalAfter: remote.parkLocalAfter)
  }

  /// The remote provider in use (or set up but switched off), its key masked.
  public func remoteView() async -> RemoteView {
    let state = remoteState.withLock { $0 }
    let settings = state.settings
    return RemoteView(
      source: state.source, url: settings?.url.absoluteString, kind: settings?.kind.rawValue, model: settings?.model,
      key: settings?.maskedKey, preference: state.preference, firstTokenTimeout: settings?.firstTokenTimeout.seconds,
      parkLocalAfter: settings.map { $0.parkLocalAfter?.seconds ?? 0 }, writesFromFacts: settings?.writesFromFacts,
      standing: await routed?.remoteStanding())
  }

  /// Checks and saves new remote settings in the profile, and routes the next turn by them.
  /// - Throws: ``RemoteError/invalidSettings(_:)`` naming what cannot be used; `StoreError` when saving fails.
  @discardableResult
  public func setRemote(_ input: RemoteInput) async throws -> RemoteView {
    let current = remoteState.withLock { $0 }
    guard let url = URL(webAddress: input.url) else {
      throw RemoteError.invalidSettings("url \(input.url) is not an http:// or https:// URL")
    }
    let kind = input.kind ?? .openai
    let model = input.model.flatMap { $0.isEmpty ? nil : $0 } ?? (kind == .openai ? "default" : nil)
    guard let model else { throw RemoteError.invalidSettings("model is needed for a Gemini server") }
    let timeout = input.firstTokenTimeout ?? current.settings?.firstTokenTimeout.seconds ?? 20
    guard timeout > 0, timeout <= 3600 else {
      throw RemoteError.invalidSettings("first_token_timeout \(timeout) is not within 0 to 3600 seconds")
    }
    let parkAfter =
      input.parkLocalAfter ?? current.settings.map { $0.parkLocalAfter?.seconds ?? 0 }
      ?? RemoteSettings.defaultParkLocalAfter.seconds
    guard parkAfter == 0 || (1...86_400).contains(parkAfter) else {
      throw RemoteError.invalidSettings("park_local_after \(parkAfter) is not 0 or 1 to 86400 seconds")
    }
    // A saved key stays with the origin it was given for: a new scheme, host or port without a key of its
    // own has none, so a changed URL never receives the old server's key.
    let key: String? =
      switch input.apiKey {
      case .none: current.settings.flatMap { Self.origin(of: $0.url) == Self.origin(of: url) ? $0.apiKey : nil }
      case .some(let text): text.isEmpty ? nil : text
      }
    let preference =
      input.preference ?? (current.preference == .local && current.settings == nil ? .auto : current.preference)
    let saved = StoredRemote(
      url: url.absoluteString, kind: kind, model: model, apiKey: key, firstTokenTimeout: timeout,
      preference: preference,
      parkLocalAfter: parkAfter,
      writesFromFacts: input.writesFromFacts ?? current.settings?.writesFromFacts ?? true)
    try database.setSetting(Self.remoteKey, to: saved)
    let state = RemoteState(settings: saved.settings, source: "profile", preference: preference)
    remoteState.withLock { $0 = state }
    if let host {
      var route = Self.route(state, local: host)
      // The same server keeps what was learnt of it (its standing, a failure's longer window, the switch).
      if let before = routed?.route, let settings = state.settings, before.remote.settings.url == settings.url,
        before.remote.settings.kind == settings.kind, before.remote.settings.model == settings.model,
        before.remote.settings.apiKey == settings.apiKey
      {
        route?.router = before.router
      }
      routed?.reroute(route)
      routed?.startWatching()
    }
    return await remoteView()
  }

  /// Scheme, host and port (the scheme's default when none is written), as a browser tells origins apart.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    let port = url.port ?? (scheme == "https" ? 443 : 80)
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
  }

  /// Forgets the remote server saved in the profile; turns stay on this machine (until a restart reads
  /// `HEARTH_REMOTE_URL` again, if it is set).
  @discardableResult
  public func clearRemote() async throws -> RemoteView {
    try database.removeSetting(Self.remoteKey)
    remoteState.withLock { $0 = RemoteState(settings: nil, source: "none", preference: .local) }
    routed?.reroute(nil)
    return await remoteView()
  }

  /// Probes the remote server now; `nil` when none is set up.
  public func checkRemote() async -> RemoteCheck? {
    guard let settings = remoteState.withLock({ $0.settings }) else { return nil }
    let clock = ContinuousClock()
    let start = clock.now
    let reachable = await RemoteChatModel(settings: settings).probe()
    return RemoteCheck(reachable: reachable, milliseconds: (clock.now - start).milliseconds)
  }
}
