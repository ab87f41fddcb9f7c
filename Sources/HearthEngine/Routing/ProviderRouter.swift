public import HearthCore

/// Who may answer a turn.
public enum ProviderPreference: String, Sendable, Hashable, Codable, CaseIterable {
  /// Always the local model.
  case local
  /// Always the remote server; a turn fails when it cannot be reached.
  case remote
  /// The remote server when it is enabled and has been reachable for a while, else the local model; a remote
  /// turn that fails before its first token is answered locally.
  case auto
}

/// Decides where a turn goes, from what it has seen of the remote server, on an injected clock.
///
/// The remote server is trusted again only after it has answered health probes for a stability window:
/// 2 s the first time it connects, 30 s after it has gone away once (a flapping link should not bounce
/// turns back and forth).
public actor ProviderRouter {
  /// The time now, on a monotonic clock.
  private let now: @Sendable () -> Duration
  public static let firstConnectWindow: Duration = .seconds(2)
  public static let reconnectWindow: Duration = .seconds(30)

  private var reachableSince: Duration?
  private var hasBeenUsable = false
  private var hasFailed = false

  /// A router reading time from `now`.
  public init(now: @escaping @Sendable () -> Duration) {
    self.now = now
  }

  /// A router on the system's monotonic clock.
  public init() {
    let clock = ContinuousClock()
    let start = clock.now
    self.init(now: { clock.now - start })
  }

  /// Whether the remote server has been reachable for its stability window.
  public var remoteIsUsable: Bool {
    guard let since = reachableSince else { return false }
    return now() - since >= (hasFailed ? Self.reconnectWindow : Self.firstConnectWindow)
  }

  /// Where a turn goes, given the user's preference and whether a remote server is configured.
  public func choose(_ preference: ProviderPreference, remoteConfigured: Bool) -> Provider {
    guard remoteConfigured else { return .local }
    switch preference {
    case .local: return .local
    case .remote: return .remote
    case .auto:
      guard remoteIsUsable else { return .local }
      hasBeenUsable = true
      return .remote
    }
  }

  /// A health probe's outcome.
  public func observeProbe(reachable: Bool) {
    if reachable {
      if reachableSince == nil { reachableSince = now() }
    } else {
      noteFailure()
    }
  }

  /// A remote turn that answered.
  public func observeSuccess() {
    if reachableSince == nil { reachableSince = now() }
  }

  /// A remote turn or probe that failed: the server must prove itself again, for the longer window.
  public func noteFailure() {
    if reachableSince != nil || hasBeenUsable { hasFailed = true }
    reachableSince = nil
  }

  /// How long the remote server has been trusted (usable and not failed since), or `nil` while it is not.
  public var trustedFor: Duration? {
    guard remoteIsUsable, let since = reachableSince else { return nil }
    return now() - since
  }

  /// Whether a probe is worth sending now (the server is not usable yet).
  public var wantsProbe: Bool { !remoteIsUsable }
}
