import Logging
public import ServiceLifecycle

/// Lets the local model go when nothing has used it for a while, or when the machine runs short of memory, so
/// that a server left running gives the memory back; the next turn loads the model again. Short of memory, the
/// past chats' vectors go first (`release`), and the model only if the machine is still short at the next look.
/// It runs in the service group beside the server and stops when the group shuts down.
public struct IdleUnloadService: Service {
  let host: LocalModelHost
  let idle: Duration?
  let pressure: UInt64?
  let interval: Duration
  let logger: Logger
  /// Lets go of what may go before the model; how many vectors went.
  var release: (@Sendable () async -> Int)? = nil
  /// The bytes available now.
  var available: @Sendable () -> UInt64 = { SystemMemory.available().bytes }

  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        var released = false
        while true {
          try await Task.sleep(for: interval)
          released = await look(released: released)
        }
      }
    } catch is CancellationError {
      // Shutting down.
    }
  }

  /// One look: whether the vectors were let go for the shortage that still lasts.
  func look(released: Bool) async -> Bool {
    let squeezed = pressure.map { available() < $0 } ?? false
    if squeezed, !released, let release {
      let count = await release()
      if count > 0 {
        logger.info("past chats' vectors let go for memory", metadata: ["vectors": "\(count)"])
        return true
      }
    }
    if let reason = await host.unloadIfIdle(after: idle, pressure: pressure, available: available) {
      logger.info("model unloaded", metadata: ["model": "\(host.name)", "reason": "\(reason)"])
    }
    return squeezed && released
  }
}
