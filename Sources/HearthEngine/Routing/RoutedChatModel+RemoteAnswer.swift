import Foundation
import HearthCore
import Synchronization

/// One remote answer: streamed, watched for its first token, and raced against the answer's time limit.
extension RoutedChatModel {
  /// How one remote answer stands: streaming, ended by the server, or cut at the answer's time limit. Whichever of
  /// the stream's end and the limit comes first decides, once.
  enum Phase: Sendable {
    case running, finished, cut
  }

  /// What the watchdogs and the stream of one remote answer share.
  final class AnswerFlags: Sendable {
    let answered = Mutex(false)
    /// No first token came in time.
    let timedOut = Mutex(false)
    let phase = Mutex(Phase.running)
    let pieces = Mutex(0)

    /// Moves from running to `next`; whether this call did.
    func end(as next: Phase) -> Bool {
      phase.withLock { phase in
        guard phase == .running else { return false }
        phase = next
        return true
      }
    }
  }

  /// Why the remote answer failed, and whether any of it was shown.
  struct RemoteFailure: Error {
    var error: any Error
    var answered: Bool
  }

  /// How a remote answer that did not fail ended.
  enum RemoteEnd {
    /// The server ended it (its `.done` was passed on).
    case finished
    /// The time limit cut it after some of it was shown (`.done(.timeout)` was passed on).
    case cut
    /// The time limit came before any of it (`.done(.timeout)` was passed on): nothing shows the server answers.
    case cutBeforeAnswering
  }

  /// Streams the remote server's answer; a first token that does not come within ``firstTokenTimeout`` ends
  /// it as a failure (the server may be alive but stuck, which no connection timeout notices), and the answer's
  /// own time limit, raced here, ends it as timed out with what came kept.
  func remoteAnswer(
    _ route: Route, messages: [ChatMessage], options: GenerationOptions,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws -> RemoteEnd {
    var free = options
    (free.grammar, free.grammarTrigger) = (nil, nil)
    // The request's own deadline comes after the race (a deadline ends the stream in an error and loses what
    // had come); an answer with no limit has a day.
    free.timeout = options.timeout.map { $0 + .seconds(30) } ?? .seconds(86_400)
    let flags = AnswerFlags()
    let clock = ContinuousClock()
    let started = clock.now
    let consumer = Task {
      for try await event in route.remote.generate(messages: messages, options: free) {
        if case .token = event {
          flags.answered.withLock { $0 = true }
          flags.pieces.withLock { $0 += 1 }
        }
        if case .usage(let figures) = event { self.usage.withLock { $0 = figures } }
        // The stream's end and the time limit race: the first decides, and a cut stream ends as timed out.
        if case .done = event, !flags.end(as: .finished) { continue }
        continuation.yield(event)
      }
    }
    let watchdog = Task { [sleep] in
      try await sleep(route.firstTokenTimeout)
      guard !flags.answered.withLock({ $0 }) else { return }
      flags.timedOut.withLock { $0 = true }
      consumer.cancel()
    }
    let limit = options.timeout.map { limit in
      Task {
        try await Task.sleep(for: limit)
        if flags.end(as: .cut) { consumer.cancel() }
      }
    }
    defer {
      watchdog.cancel()
      limit?.cancel()
    }
    let stuck = RemoteError.unreachable(
      "no first token within \(String(format: "%g", route.firstTokenTimeout.seconds)) s")
    var failure: (any Error)?
    do {
      try await withTaskCancellationHandler {
        try await consumer.value
      } onCancel: {
        consumer.cancel()
      }
    } catch {
      failure = error
    }
    let cut = flags.phase.withLock { $0 == .cut }
    let answered = flags.answered.withLock { $0 }
    if cut, !flags.timedOut.withLock({ $0 }) {
      // What came is kept, said to be the server's, and ends as timed out; an error then is the cut's own.
      let elapsed = clock.now - started
      let figures = GenerationUsage(
        promptTokens: 0, reusedPromptTokens: 0, prefilledTokens: 0, generatedTokens: flags.pieces.withLock { $0 },
        prefillDuration: .zero, timeToFirstToken: nil, generationDuration: elapsed, provider: .remote)
      usage.withLock { $0 = figures }
      continuation.yield(.usage(figures))
      continuation.yield(.done(.timeout))
      return answered ? .cut : .cutBeforeAnswering
    }
    if let failure {
      throw RemoteFailure(error: flags.timedOut.withLock({ $0 }) ? stuck : failure, answered: answered)
    }
    // A cancelled stream may simply end rather than throw.
    if flags.timedOut.withLock({ $0 }) { throw RemoteFailure(error: stuck, answered: false) }
    return .finished
  }
}
