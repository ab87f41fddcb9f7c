import Foundation
import HearthStore
import Logging
public import ServiceLifecycle

/// Keeps the accounts in step while `hearth serve` runs: a sync at start, one every `interval`, and one within
/// `watch` of a local change to an event, reminder or contact. Requests are never kept waiting on it: a turn
/// reads the store, which the last sync filled. When the next sync comes is kept in the store (``SyncSchedule``)
/// for `hearth accounts status`, the Accounts page and `hearth doctor`.
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
        // The first sync comes at start; the plan is written at once and then at least once a minute, so
        // another process can tell a plan from a service that has stopped.
        var next = accounts.clock()
        var written: ContinuousClock.Instant?
        while true {
          let now = ContinuousClock.now
          let current = try? accounts.database.syncedKindsStamp()
          let changed = stamp != nil && current != stamp
          let due = now - last >= interval || (failures > 0 ? now - last >= backOff(after: failures) : changed)
          if due, hasAccounts() {
            record(SyncSchedule(next: next, running: true, written: accounts.clock()))
            failures = await syncOnce() ? 0 : failures + 1
            last = ContinuousClock.now
            next = accounts.clock().addingTimeInterval(
              Self.seconds(failures > 0 ? backOff(after: failures) : interval))
            record(SyncSchedule(next: next, running: false, written: accounts.clock()))
            written = last
            // The stamp from before the sync: a change made while it ran is seen at the next look. The sync's
            // own writes are seen too, and cost one more sync that finds nothing to do.
            stamp = current
          } else {
            if stamp == nil { stamp = current }
            if written.map({ now - $0 >= .seconds(SyncSchedule.heartbeat) }) ?? true {
              record(SyncSchedule(next: next, running: false, written: accounts.clock()))
              written = now
            }
          }
          try await Task.sleep(for: watch)
        }
      }
    } catch is CancellationError {
      // Shutting down.
    }
    do {
      try accounts.clearSchedule()
    } catch {
      logger.warning("forgetting the sync plan failed", metadata: ["error": "\(error)"])
    }
  }

  /// After a failed sync, the next try comes after a growing while (15 s, 30 s, 1 min … the interval).
  private func backOff(after failures: Int) -> Duration {
    min(interval, .seconds(15) * (1 << min(max(failures - 1, 0), 10)))
  }

  private static func seconds(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Writes the plan; a failing write is logged, and the next heartbeat tries again.
  private func record(_ schedule: SyncSchedule) {
    do {
      try accounts.saveSchedule(schedule)
    } catch {
      logger.warning("writing the sync plan failed", metadata: ["error": "\(error)"])
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
