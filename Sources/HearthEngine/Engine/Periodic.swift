import ServiceLifecycle

/// The loop of Hearth's background services: do the work, wait, again, until the service group shuts down.
enum Periodic {
  /// Runs `work` now and every `interval` after; returns when the group shuts down.
  static func run(every interval: Duration, _ work: @escaping @Sendable () async -> Void) async throws {
    do {
      try await cancelWhenGracefulShutdown {
        while true {
          await work()
          try await Task.sleep(for: interval)
        }
      }
    } catch is CancellationError {
      // Shutting down.
    }
  }
}
