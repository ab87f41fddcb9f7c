import Foundation
import Synchronization

/// A download started from the web app, as it stands.
public struct PullStatus: Sendable, Hashable, Encodable {
  public enum State: String, Sendable, Hashable, Encodable {
    case running, done, failed, cancelled
  }

  public var id: String
  public var url: String
  public var state: State
  public var received: UInt64
  public var total: UInt64?
  public var resumedFrom: UInt64
  public var bytesPerSecond: Double
  public var secondsLeft: Double?
  /// The installed model's id, once done.
  public var model: String?
  /// Why it failed.
  public var error: String?

  enum CodingKeys: String, CodingKey {
    case id, url, state, received, total, model, error
    case resumedFrom = "resumed_from"
    case bytesPerSecond = "bytes_per_second"
    case secondsLeft = "seconds_left"
  }
}

/// Model downloads running in the background of a server, each with live progress and a way to cancel it. A
/// cancelled or failed download keeps its bytes, so pulling the same file again resumes it.
public final class ModelPulls: Sendable {
  private final class Pull: Sendable {
    let status: Mutex<PullStatus>
    let task = Mutex<Task<Void, Never>?>(nil)
    init(_ status: PullStatus) { self.status = Mutex(status) }
  }

  private let pulls = Mutex<[Pull]>([])
  /// Finished downloads kept for the list; older ones are forgotten.
  private static let kept = 20
  /// Downloads under way at once, at most.
  public static let maxRunning = 2

  public init() {}

  /// Starts downloading `url` into `registry` (see ``ModelDownloader/pull(url:sha256:name:progress:)``) and
  /// returns at once; ``list()`` tells how it goes.
  /// - Throws: ``ModelDownloadError`` for a malformed URL or hash, a URL `destination` does not allow, or
  ///   ``maxRunning`` downloads under way, before anything starts.
  public func start(
    url: String, sha256: String, name: String?, registry: ModelRegistry, destination: PullDestination,
    installed: (@Sendable (RegisteredModel) async -> Void)? = nil
  ) async throws -> PullStatus {
    guard let parsed = URL(webAddress: url) else { throw ModelDownloadError.invalidURL(url) }
    guard SHA256Digest.isValidHex(sha256) else { throw ModelDownloadError.invalidHash(sha256) }
    try await destination.check(parsed)
    let pull = Pull(
      PullStatus(
        id: UUID().uuidString.lowercased(), url: url, state: .running, received: 0, resumedFrom: 0, bytesPerSecond: 0))
    try pulls.withLock { list in
      guard list.count(where: { $0.status.withLock { $0.state == .running } }) < Self.maxRunning else {
        throw ModelDownloadError.tooManyPulls(limit: Self.maxRunning)
      }
      list.append(pull)
      let finished = list.filter { $0.status.withLock { $0.state != .running } }
      if finished.count > Self.kept {
        let dropped = Set(finished.prefix(finished.count - Self.kept).map(ObjectIdentifier.init))
        list.removeAll { dropped.contains(ObjectIdentifier($0)) }
      }
    }
    let task = Task {
      do {
        let downloader = ModelDownloader(registry: registry, destination: destination)
        let model = try await downloader.pull(url: url, sha256: sha256, name: name) {
          progress in
          pull.status.withLock {
            $0.received = progress.received
            $0.total = progress.total
            $0.resumedFrom = progress.resumedFrom
            $0.bytesPerSecond = progress.bytesPerSecond
            $0.secondsLeft = progress.secondsLeft
          }
        }
        pull.status.withLock {
          $0.state = .done
          $0.model = model.id
          $0.secondsLeft = 0
        }
        // Done for the user; reading the new file ahead (when asked) follows.
        await installed?(model)
      } catch {
        let cancelled = error is CancellationError || Task.isCancelled
        pull.status.withLock {
          $0.state = cancelled ? .cancelled : .failed
          $0.error = cancelled ? nil : "\(error)"
        }
      }
    }
    pull.task.withLock { $0 = task }
    return pull.status.withLock { $0 }
  }

  /// Every download this server started (the latest finished ones), oldest first.
  public func list() -> [PullStatus] {
    pulls.withLock { $0.map { $0.status.withLock { $0 } } }
  }

  /// Stops the download `id` (its bytes are kept for a later pull). Returns its status, or `nil` when there is
  /// no such download.
  public func cancel(_ id: String) -> PullStatus? {
    guard let pull = pulls.withLock({ $0.first { $0.status.withLock { $0.id } == id } }) else { return nil }
    pull.task.withLock { $0?.cancel() }
    return pull.status.withLock { $0 }
  }
}
