import Foundation
public import HearthCore
import Synchronization

/// The local model and a remote one behind the one `ChatModel` seam: each generation goes where the router
/// says, and in `auto` a remote one that fails before its first token is answered locally. Generations held to
/// a grammar from their first token (a drafted action block, tool arguments) or naming tokens by id always
/// run locally, where the grammar is enforced and the ids mean what the caller meant; a lazy grammar (action
/// blocks a free answer may hold) is not sent to the remote server, whose blocks are checked after the answer
/// like any other.
public final class RoutedChatModel: ChatModel {
  /// Where turns may go besides the local model, and who decides.
  public struct Route: Sendable {
    public var remote: RemoteChatModel
    public var router: ProviderRouter
    public var preference: ProviderPreference
    /// How long the remote server may take to send its first token before the turn goes to the local model
    /// (in `auto`) or fails (in `remote`).
    public var firstTokenTimeout: Duration
    /// Once the remote server has been trusted this long, the local model's weights are let go (its
    /// tokenizer stays to count tokens); `nil` keeps them.
    public var parkLocalAfter: Duration?

    public init(
      remote: RemoteChatModel, router: ProviderRouter, preference: ProviderPreference,
      firstTokenTimeout: Duration = .seconds(20), parkLocalAfter: Duration? = nil
    ) {
      self.parkLocalAfter = parkLocalAfter
      self.remote = remote
      self.router = router
      self.preference = preference
      self.firstTokenTimeout = firstTokenTimeout
    }
  }

  public let local: any ChatModel
  private let current: Mutex<Route?>
  let sleep: @Sendable (Duration) async throws -> Void
  private let last = Mutex<Provider?>(nil)
  let usage = Mutex<GenerationUsage?>(nil)
  private let watching = Mutex<Task<Void, Never>?>(nil)

  /// Routes between `local` and the route's remote server; without a route every turn is local.
  public init(
    local: any ChatModel, route: Route?,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.local = local
    self.current = Mutex(route)
    self.sleep = sleep
  }

  /// Routes between `local` and `remote`.
  public convenience init(
    local: any ChatModel, remote: RemoteChatModel, router: ProviderRouter, preference: ProviderPreference,
    firstTokenTimeout: Duration = .seconds(20),
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.init(
      local: local,
      route: Route(remote: remote, router: router, preference: preference, firstTokenTimeout: firstTokenTimeout),
      sleep: sleep)
  }

  /// The route now, if any.
  public var route: Route? { current.withLock { $0 } }

  /// Replaces the route (new settings from the user); the next turn follows it.
  public func reroute(_ route: Route?) {
    current.withLock { $0 = route }
    if route == nil || route?.preference == .local {
      stopWatching()
      (local as? any ParkableModel)?.warm()
    }
  }

  public var name: String { local.name }
  public var contextSize: Int { local.contextSize }
  public var parameterCount: UInt64? { local.parameterCount }
  public var vocabulary: (any ModelVocabulary)? { local.vocabulary }

  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    try local.countTokens(messages)
  }

  /// Which model answered the generation started last.
  public var lastProvider: Provider? { last.withLock { $0 } }

  /// The figures of the generation that ended last, from whichever model answered it.
  public var lastUsage: GenerationUsage? { usage.withLock { $0 } }

  public func settle() async {
    await local.settle()
  }

  /// The local model counts every turn's tokens and answers when the remote cannot, so it is made ready
  /// whoever answers; once the remote server is trusted and the local weights were let go, counting is all it
  /// is needed for, and its tokenizer does that.
  public func prepare() async throws {
    if await keepsLocalParked() { return }
    try await local.prepare()
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    .producing { continuation in
      try await self.route(messages: messages, options: options, into: continuation)
    }
  }

  /// Raw prompts are the local model's own tokens, so the local model continues them.
  public func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    last.withLock { $0 = .local }
    return .producing { continuation in
      for try await event in self.local.complete(prompt: prompt, options: options) {
        if case .usage(let figures) = event { self.usage.withLock { $0 = figures } }
        continuation.yield(event)
      }
    }
  }

  private func route(
    messages: [ChatMessage], options: GenerationOptions,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    // Token ids (logit bias, log probabilities) are the local vocabulary's.
    let pinned = (options.grammar != nil && options.grammarTrigger == nil) || options.usesTokenIDs
    // An answer from facts goes to the server only when the user trusts its model with them.
    let trusted = !options.needsCapableModel || (route?.remote.settings.writesFromFacts ?? false)
    if let route = route, !pinned, trusted, route.preference != .local {
      if route.preference == .auto { await confirm(route) }
      if await route.router.choose(route.preference, remoteConfigured: true) == .remote {
        last.withLock { $0 = .remote }
        do {
          // Cut by the time limit before a word came: nothing shows the server answers, so the switch is not
          // confirmed by it.
          guard
            try await remoteAnswer(route, messages: messages, options: options, into: continuation)
              != .cutBeforeAnswering
          else { return }
          await route.router.observeSuccess()
          if let after = route.parkLocalAfter, let answering = await route.router.answeringRemotelyFor,
            answering >= after, let parkable = local as? any ParkableModel, await route.router.trustedFor != nil
          {
            await parkable.park()
          }
          return
        } catch let failure as RemoteFailure {
          await route.router.noteFailure()
          // The remote server may be going away: the local model comes back before it is needed again (when it
          // may answer at all).
          if route.preference == .auto { (local as? any ParkableModel)?.warm() }
          // Nothing was shown yet: the local model answers instead, unless the user asked for the remote one
          // or the answer needs a model the local one is not.
          let fallback = await mayAnswerLocally(options)
          guard !failure.answered, route.preference == .auto, !(failure.error is CancellationError), fallback
          else { throw failure.error }
        }
      }
    }
    guard await mayAnswerLocally(options) else {
      throw RemoteError.unreachable("no model trusted to write this answer is answering now")
    }
    last.withLock { $0 = .local }
    for try await event in local.generate(messages: messages, options: options) {
      if case .usage(let figures) = event { usage.withLock { $0 = figures } }
      continuation.yield(event)
    }
  }

  private func mayAnswerLocally(_ options: GenerationOptions) async -> Bool {
    guard options.needsCapableModel else { return true }
    return await local.writesFromFacts()
  }

  /// The local model when it is big enough, else a remote server that the user counts as capable and that this
  /// turn would go to.
  public func writesFromFacts() async -> Bool {
    if await local.writesFromFacts() { return true }
    guard let route, route.preference != .local, route.remote.settings.writesFromFacts else { return false }
    if route.preference == .remote { return true }
    if await route.router.remoteIsUsable { return true }
    return await route.router.firstWindowLeft != nil
  }

  /// Before an `auto` generation commits: the server is probed when nothing was heard of it yet, the rest of its
  /// first window is waited out (a one-shot command opens, probes and asks within those 2 s), and a usable
  /// server is probed once more unless it was heard from a moment ago.
  private func confirm(_ route: Route) async {
    let router = route.router
    if !(await router.hasObserved) { await probe(route) }
    if let left = await router.firstWindowLeft {
      do { try await sleep(left) } catch { return }
      await probe(route)
    } else if await router.remoteIsUsable, !(await router.contactIsFresh) {
      await probe(route)
    }
  }

  private func probe(_ route: Route) async {
    let reachable = await route.remote.probe()
    await route.router.observeProbe(reachable: reachable)
    // The server may be going away: the local model comes back before it is needed (never answering when
    // the user asked for the remote one only).
    if !reachable, route.preference == .auto { (local as? any ParkableModel)?.warm() }
  }

  /// Whether the local weights are let go and stay so for this turn: the remote server is trusted, so only the
  /// tokenizer is needed (a turn reserving the model then loads nothing).
  public func keepsLocalParked() async -> Bool {
    guard let parkable = local as? any ParkableModel, parkable.isParked, let route, route.preference != .local
    else { return false }
    return await route.router.trustedFor != nil
  }

  /// Probes the remote server in the background for as long as this model lives, so its stability windows are
  /// measured before turns arrive: every second while it proves itself, every 2 s while it is away, every 10 s
  /// while it is usable. Once remote answers have come for ``Route/parkLocalAfter``, the local weights are let
  /// go (when no generation holds them). Starting it again does nothing.
  public func startWatching() {
    guard let route, route.preference != .local else { return }
    watching.withLock { task in
      guard task == nil else { return }
      let sleep = self.sleep
      task = Task { [weak self] in
        while !Task.isCancelled {
          guard let pause = await self?.watchOnce() else { return }
          do { try await sleep(pause) } catch { return }
        }
      }
    }
  }

  private func stopWatching() {
    watching.withLock { task in
      task?.cancel()
      task = nil
    }
  }

  /// One look at the remote server; the pause before the next.
  func watchOnce() async -> Duration {
    guard let route, route.preference != .local else {
      // Turns stay here now: weights let go for the server come back.
      (local as? any ParkableModel)?.warm()
      return .seconds(5)
    }
    let router = route.router
    await probe(route)
    if await shouldPark(route), let parkable = local as? any ParkableModel {
      // Decided again once the model is free: the server may have failed, or the route changed, meanwhile.
      await parkable.parkWhenIdle { [weak self] in
        guard let self, let now = self.route, now.router === route.router else { return false }
        return await self.shouldPark(now)
      }
    }
    switch await router.standing {
    case .usable: return .seconds(10)
    case .proving: return .seconds(1)
    case .unknown, .unreachable: return .seconds(2)
    }
  }

  /// Whether the switch to the server has held for ``Route/parkLocalAfter`` and the local weights are still here.
  private func shouldPark(_ route: Route) async -> Bool {
    guard route.preference != .local, let after = route.parkLocalAfter,
      let parkable = local as? any ParkableModel, !parkable.isParked,
      let answering = await route.router.answeringRemotelyFor, answering >= after
    else { return false }
    return await route.router.trustedFor != nil
  }

  /// Where the remote server stands now, `nil` without a route.
  public func remoteStanding() async -> RemoteStanding? {
    guard let route, route.preference != .local else { return nil }
    return await route.router.standing
  }

  deinit {
    watching.withLock { $0?.cancel() }
  }
}

/// A local model that can let its weights go while a remote server answers, keeping only what counts tokens.
protocol ParkableModel: Sendable {
  /// Whether the weights are let go and only the tokenizer is kept.
  var isParked: Bool { get }
  /// Lets the weights go, keeping the tokenizer.
  func park() async
  /// Starts loading the weights again in the background.
  func warm()
  /// Lets the weights go when no request holds or waits for the model and `stillWanted` says so then; a busy
  /// model is left for a later look rather than queued behind.
  func parkWhenIdle(if stillWanted: @escaping @Sendable () async -> Bool) async
}
