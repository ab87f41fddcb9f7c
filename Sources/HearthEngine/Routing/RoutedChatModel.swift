import Foundation
public import HearthCore
import Synchronization

/// The local model and a remote one behind the one `ChatModel` seam: each generation goes where the router
/// says, and in `auto` a remote one that fails before its first token is answered locally. Generations held to
/// a grammar from their first token (a drafted action block, tool arguments) always run locally, where the
/// grammar is enforced; a lazy grammar (action blocks a free answer may hold) is not sent to the remote server,
/// whose blocks are checked after the answer like any other.
public final class RoutedChatModel: ChatModel {
  public let local: any ChatModel
  public let remote: RemoteChatModel
  public let router: ProviderRouter
  public let preference: ProviderPreference
  /// How long the remote server may take to send its first token before the turn goes to the local model
  /// (in `auto`) or fails (in `remote`).
  public let firstTokenTimeout: Duration
  private let sleep: @Sendable (Duration) async throws -> Void
  private let last = Mutex<Provider?>(nil)
  private let usage = Mutex<GenerationUsage?>(nil)

  /// Routes between `local` and `remote`.
  public init(
    local: any ChatModel, remote: RemoteChatModel, router: ProviderRouter, preference: ProviderPreference,
    firstTokenTimeout: Duration = .seconds(20),
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.firstTokenTimeout = firstTokenTimeout
    self.sleep = sleep
    self.local = local
    self.remote = remote
    self.router = router
    self.preference = preference
  }

  public var name: String { local.name }
  public var contextSize: Int { local.contextSize }
  public var parameterCount: UInt64? { local.parameterCount }

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
  /// whoever answers.
  public func prepare() async throws {
    try await local.prepare()
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        do {
          try await route(messages: messages, options: options, into: continuation)
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  private func route(
    messages: [ChatMessage], options: GenerationOptions,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    let pinned = options.grammar != nil && options.grammarTrigger == nil
    if !pinned, preference == .auto, await router.wantsProbe {
      await router.observeProbe(reachable: await remote.probe())
    }
    let choice = pinned ? Provider.local : await router.choose(preference, remoteConfigured: true)
    if choice == .remote {
      last.withLock { $0 = .remote }
      do {
        try await remoteAnswer(messages: messages, options: options, into: continuation)
        await router.observeSuccess()
        return
      } catch let failure as RemoteFailure {
        await router.noteFailure()
        // Nothing was shown yet: the local model answers instead, unless the user asked for the remote one.
        guard !failure.answered, preference == .auto, !(failure.error is CancellationError) else { throw failure.error }
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
    messages: [ChatMessage], options: GenerationOptions,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    var free = options
    (free.grammar, free.grammarTrigger) = (nil, nil)
    let flags = AnswerFlags()
    let consumer = Task {
      for try await event in remote.generate(messages: messages, options: free) {
        if case .token = event { flags.answered.withLock { $0 = true } }
        if case .usage(let figures) = event { self.usage.withLock { $0 = figures } }
        continuation.yield(event)
      }
    }
    let watchdog = Task { [sleep, firstTokenTimeout] in
      try await sleep(firstTokenTimeout)
      guard !flags.answered.withLock({ $0 }) else { return }
      flags.timedOut.withLock { $0 = true }
      consumer.cancel()
    }
    defer { watchdog.cancel() }
    let stuck = RemoteError.unreachable("no first token within \(String(format: "%g", firstTokenTimeout.seconds)) s")
    do {
      try await withTaskCancellationHandler {
        try await consumer.value
      } onCancel: {
        consumer.cancel()
      }
    } catch {
      throw RemoteFailure(error: flags.timedOut.withLock({ $0 }) ? stuck : error, answered: flags.answered.withLock { $0 })
    }
    // A cancelled stream may simply end rather than throw.
    if flags.timedOut.withLock({ $0 }) { throw RemoteFailure(error: stuck, answered: false) }
  }
}
