import Foundation

/// Reading a model file ahead of its load, so that the weights are in the system's page cache when the first
/// answer needs them instead of being read from disk page by page as the first prompt touches them.
public enum PageCache {
  /// What warming a file did.
  public struct Warmed: Sendable, Hashable {
    public var bytes: UInt64
    public var seconds: Double
  }

  /// Reads the file at `path` from start to end, off the caller's thread, in steps of 8 MiB; stops at
  /// cancellation.
  /// - Throws: the file system's error for a file that cannot be read.
  @discardableResult
  public static func warm(_ path: String) async throws -> Warmed {
    // The reading runs off the cooperative pool (its reads block); a cancelled caller cancels it.
    let reading = Task.detached(priority: .utility) {
      let clock = ContinuousClock()
      let start = clock.now
      let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? file.close() }
      var bytes: UInt64 = 0
      while !Task.isCancelled, let chunk = try file.read(upToCount: 8 << 20), !chunk.isEmpty {
        bytes += UInt64(chunk.count)
      }
      let elapsed = clock.now - start
      return Warmed(
        bytes: bytes, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return try await withTaskCancellationHandler {
      try await reading.value
    } onCancel: {
      reading.cancel()
    }
  }
}
