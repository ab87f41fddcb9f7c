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
  private let sleep: @Sendable (Duration) async throws -> Void
  private let last = Mutex<Provider?>(nil)
  private let usage = Mutex<GenerationUsage?>(nil)

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
    if let parkable = local as? any ParkableModel, parkable.isParked, let route,
      route.preference != .local, await route.router.trustedFor != nil
    {
      return
    }
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
    if let route = route, !pinned, route.preference != .local {
      if route.preference == .auto, await route.router.wantsProbe {
        let reachable = await route.remote.probe()
        await route.router.observeProbe(reachable: reachable)
        if !reachable { (local as? any ParkableModel)?.warm() }
      }
      if await route.router.choose(route.preference, remoteConfigured: true) == .remote {
        last.withLock { $0 = .remote }
        do {
          try await remoteAnswer(route, messages: messages, options: options, into: continuation)
          await route.router.observeSuccess()
          if let after = route.parkLocalAfter, let trusted = await route.router.trustedFor, trusted >= after {
            await (local as? any ParkableModel)?.park()
          }
          return
        } catch let failure as RemoteFailure {
          await route.router.noteFailure()
          // The remote server may be going away: the local model comes back before it is needed again.
          (local as? any ParkableModel)?.warm()
          // Nothing was shown yet: the local model answers instead, unless the user asked for the remote one.
          guard !failure.answered, route.preference == .auto, !(failure.error is CancellationError) else {
            throw failure.error
          }
        }
      }
    }
    last.withLock { $0 = .local }
    for try await event in local.generate(messages: messages, options: options) {
      if case .usage(let figures) = event { usage.withLock { $0 = figures } }
      continuation.yield(event)
    }
  }

  /// What the watchdog and the stream of one remote answer share.
  private final class AnswerFlags: Sendable {
    let answered = Mutex(false)
    let timedOut = Mutex(false)
  }

  /// Why the remote answer failed, and whether any of it was shown.
  private struct RemoteFailure: Error {
    var error: any Error
    var answered: Bool
  }

  /// Streams the remote server's answer; a first token that does not come within ``firstTokenTimeout`` ends
  /// it as a failure (the server may be alive but stuck, which no connection timeout notices).
  private func remoteAnswer(
    _ route: Route, messages: [ChatMessage], options: GenerationOptions,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    var free = options
    (free.grammar, free.grammarTrigger) = (nil, nil)
    let flags = AnswerFlags()
    let consumer = Task {
      for try await event in route.remote.generate(messages: messages, options: free) {
        if case .token = event { flags.answered.withLock { $0 = true } }
        if case .usage(let figures) = event { self.usage.withLock { $0 = figures } }
        continuation.yield(event)
      }
    }
    let watchdog = Task { [sleep] in
      try await sleep(route.firstTokenTimeout)
      guard !flags.answered.withLock({ $0 }) else { return }
      flags.timedOut.withLock { $0 = true }
      consumer.cancel()
    }
    defer { watchdog.cancel() }
    let stuck = RemoteError.unreachable(
      "no first token within \(String(format: "%g", route.firstTokenTimeout.seconds)) s")
    do {
      try await withTaskCancellationHandler {
        try await consumer.value
      } onCancel: {
        consumer.cancel()
      }
    } catch {
      throw RemoteFailure(
        error: flags.timedOut.withLock({ $0 }) ? stuck : error, answered: flags.answered.withLock { $0 })
    }
    // A cancelled stream may simply end rather than throw.
    if flags.timedOut.withLock({ $0 }) { throw RemoteFailure(error: stuck, answered: false) }
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
}
