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
  private let last = Mutex<Provider?>(nil)
  private let usage = Mutex<GenerationUsage?>(nil)

  /// Routes between `local` and `remote`.
  public init(local: any ChatModel, remote: RemoteChatModel, router: ProviderRouter, preference: ProviderPreference) {
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
      var answered = false
      do {
        var free = options
        (free.grammar, free.grammarTrigger) = (nil, nil)
        for try await event in remote.generate(messages: messages, options: free) {
          if case .token = event { answered = true }
          if case .usage(let figures) = event { usage.withLock { $0 = figures } }
          continuation.yield(event)
        }
        await router.observeSuccess()
        return
      } catch {
        await router.noteFailure()
        // Nothing was shown yet: the local model answers instead, unless the user asked for the remote one.
        guard !answered, preference == .auto, !(error is CancellationError) else { throw error }
      }
    }
    last.withLock { $0 = .local }
    for try await event in local.generate(messages: messages, options: options) {
      if case .usage(let figures) = event { usage.withLock { $0 = figures } }
      continuation.yield(event)
    }
  }
}
