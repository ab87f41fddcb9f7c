import Logging
public import ServiceLifecycle

/// Lets the local model go when nothing has used it for a while, or when the machine runs short of memory, so
/// that a server left running gives the memory back; the next turn loads the model again. It runs in the
/// service group beside the server and stops when the group shuts down.
public struct IdleUnloadService: Service {
  let host: LocalModelHost
  let idle: Duration?
  let pressure: UInt64?
  let interval: Duration
  let logger: Logger

  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        while true {
          try await Task.sleep(for: interval)
          if let reason = await host.unloadIfIdle(after: idle, pressure: pressure) {
            logger.info("model unloaded", metadata: ["model": "\(host.name)", "reason": "\(reason)"])
          }
        }
      }
    } catch is CancellationError {
      // Shutting down.
    }
  }
}
