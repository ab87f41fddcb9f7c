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
/// turns back and forth). The probes come from the background watch while a remote server is configured
/// (``RoutedChatModel/startWatching()``), and one more just before a turn commits to the server.
public actor ProviderRouter {
  /// The time now, on a monotonic clock.
  private let now: @Sendable () -> Duration
  public static let firstConnectWindow: Duration = .seconds(2)
  public static let reconnectWindow: Duration = .seconds(30)
  /// A turn committing to the server sends a health probe first unless the server was heard from this recently.
  public static let freshContact: Duration = .seconds(3)

  private var reachableSince: Duration?
  private var hasBeenUsable = false
  private var hasFailed = false
  private var lastContact: Duration?
  private var remoteAnsweringSince: Duration?
  private var heard = false

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

  private var window: Duration { hasFailed ? Self.reconnectWindow : Self.firstConnectWindow }

  /// Whether the remote server has been reachable for its stability window.
  public var remoteIsUsable: Bool {
    guard let since = reachableSince else { return false }
    return now() - since >= window
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
    heard = true
    if reachable {
      if reachableSince == nil { reachableSince = now() }
      lastContact = now()
    } else {
      noteFailure()
    }
  }

  /// A remote turn that answered: from the first one, the switch to the server is confirmed.
  public func observeSuccess() {
    heard = true
    if reachableSince == nil { reachableSince = now() }
    lastContact = now()
    if remoteAnsweringSince == nil { remoteAnsweringSince = now() }
  }

  /// A remote turn or probe that failed: the server must prove itself again, for the longer window.
  public func noteFailure() {
    heard = true
    if reachableSince != nil || hasBeenUsable { hasFailed = true }
    reachableSince = nil
    lastContact = nil
    remoteAnsweringSince = nil
  }

  /// How long the remote server has been trusted (usable and not failed since), or `nil` while it is not.
  public var trustedFor: Duration? {
    guard remoteIsUsable, let since = reachableSince else { return nil }
    return now() - since
  }

  /// How long remote answers have been coming since the switch was confirmed (the first one that answered
  /// after the last failure), or `nil` while none has.
  public var answeringRemotelyFor: Duration? {
    remoteAnsweringSince.map { now() - $0 }
  }

  /// Whether anything has been heard of the server yet (a probe or an answer, either way).
  public var hasObserved: Bool { heard }

  /// What is left of the first-connect window while the server is proving itself for the first time: a turn
  /// may wait that long rather than go local (a one-shot command opens, probes and asks within it). `nil` when
  /// the server is not reachable, already usable, or coming back after a failure (30 s is too long to wait).
  public var firstWindowLeft: Duration? {
    guard let since = reachableSince, !hasFailed else { return nil }
    let left = Self.firstConnectWindow - (now() - since)
    return left > .zero ? left : nil
  }

  /// Whether the server was heard from within ``freshContact``.
  public var contactIsFresh: Bool {
    guard let lastContact else { return false }
    return now() - lastContact < Self.freshContact
  }

  /// Whether a probe is worth sending now (the server is not usable yet).
  public var wantsProbe: Bool { !remoteIsUsable }

  /// Where the server stands, as the user is shown it.
  public var standing: RemoteStanding {
    if remoteIsUsable { return .usable }
    if reachableSince != nil { return .proving }
    return hasObserved ? .unreachable : .unknown
  }
}

/// Where the remote server stands with the router.
public enum RemoteStanding: String, Sendable, Hashable, Codable {
  /// No probe has come back yet.
  case unknown
  /// Reachable, but not for its whole stability window yet: turns stay local.
  case proving
  /// Reachable for its stability window: `auto` turns go to it.
  case usable
  /// The last probe or turn failed.
  case unreachable
}
