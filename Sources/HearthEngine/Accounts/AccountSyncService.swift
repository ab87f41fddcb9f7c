import Foundation
import HearthStore
import Logging
public import ServiceLifecycle

/// Keeps the accounts in step while `hearth serve` runs: a sync at start, one every `interval`, and one within
/// `watch` of a local change to an event, reminder or contact. Requests are never kept waiting on it: a turn
/// reads the store, which the last sync filled.
public struct AccountSyncService: Service {
  let accounts: AccountService
  let interval: Duration
  let watch: Duration
  let logger: Logger

  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        var last = ContinuousClock.now - interval
        var stamp: String?
        var failures = 0
        while true {
          let now = ContinuousClock.now
          let current = try? accounts.database.syncedKindsStamp()
          // After a failed sync, the next try comes after a growing while (15 s, 30 s, 1 min … the interval).
          let backOff = min(interval, .seconds(15) * (1 << min(max(failures - 1, 0), 10)))
          let changed = stamp != nil && current != stamp
          let due = now - last >= interval || (failures > 0 ? now - last >= backOff : changed)
          if due, hasAccounts() {
            failures = await syncOnce() ? 0 : failures + 1
            last = ContinuousClock.now
            // The stamp from before the sync: a change made while it ran is seen at the next look. The sync's
            // own writes are seen too, and cost one more sync that finds nothing to do.
            stamp = current
          } else if stamp == nil {
            stamp = current
          }
          try await Task.sleep(for: watch)
        }
      }
    } catch is CancellationError {
      // Shutting down.
    }
  }

  /// Whether there is anything to sync; a failing read is logged and tried again at the next look.
  private func hasAccounts() -> Bool {
    do {
      return try !accounts.database.accounts().isEmpty
    } catch {
      logger.warning("reading the accounts failed", metadata: ["error": "\(error)"])
      return false
    }
  }

  /// Whether every account synced.
  private func syncOnce() async -> Bool {
    do {
      var succeeded = true
      for result in try await accounts.sync() {
        if let error = result.error {
          succeeded = false
          logger.warning("sync failed", metadata: ["account": "\(result.account)", "error": "\(error)"])
        }
      }
      return succeeded
    } catch {
      logger.warning("sync could not start", metadata: ["error": "\(error)"])
      return false
    }
  }
}

extension Engine {
  /// The accounts' sync for `hearth serve`'s service group.
  public func accountSyncService(
    every interval: Duration = .seconds(300), watch: Duration = .seconds(5)
  )
    -> AccountSyncService
  {
    AccountSyncService(accounts: accounts, interval: interval, watch: watch, logger: logger)
  }
}
