public import HearthActions
public import Logging
import Synchronization

/// The ``IntentMatcher`` over the memory's embedding model: the examples are embedded once per process, the
/// first time a request needs them (about 260 sentences, well under a second), and each request as it comes.
public struct IntentReader: Sendable {
  private let embedder: LocalEmbedder
  private let logger: Logger

  public init(embedder: LocalEmbedder, logger: Logger = Logger(label: "hearth.intents")) {
    self.embedder = embedder
    self.logger = logger
  }

  /// How `request` reads, or `nil` when the embedding model cannot be used (not installed, failed): the
  /// readers of words then decide alone.
  public func read(_ request: String) async -> IntentMatcher.Reading? {
    await scores(request).map { $0.matcher.read($0.vector) }
  }

  /// The matcher and the request's vector, for a reading and for the scores a benchmark shows.
  public func scores(_ request: String) async -> (matcher: IntentMatcher, vector: [Float])? {
    guard embedder.isInstalled else { return nil }
    do {
      let matcher = try await loaded()
      guard let vector = try await embedder.embed([request]).first else { return nil }
      return (matcher, vector)
    } catch {
      logger.warning("the intent of a request could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }

  /// The examples' vectors depend on the model file alone, so every engine of a process shares them.
  private static let built = Mutex<[String: Task<IntentMatcher, any Error>]>([:])

  private func loaded() async throws -> IntentMatcher {
    let embedder = embedder
    let task = Self.built.withLock { built in
      if let task = built[embedder.path] { return task }
      let task = Task { () async throws -> IntentMatcher in
        _ = try await embedder.prepare()
        let labelled = IntentExamples.all.flatMap { entry in entry.examples.map { (entry.intent, $0) } }
        var vectors: [[Float]] = []
        // In batches, so one long decode does not hold the executor from the chat model.
        for start in stride(from: 0, to: labelled.count, by: 32) {
          vectors += try await embedder.embed(labelled[start..<min(start + 32, labelled.count)].map(\.1))
        }
        return IntentMatcher(examples: zip(labelled, vectors).map { ($0.0, $1) })
      }
      built[embedder.path] = task
      return task
    }
    do {
      return try await task.value
    } catch {
      // A model that could not be loaded is tried again with the next request.
      Self.built.withLock { $0[embedder.path] = nil }
      throw error
    }
  }
}
