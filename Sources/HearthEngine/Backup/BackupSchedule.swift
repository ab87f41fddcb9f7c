import Foundation
import Logging
public import ServiceLifecycle

/// Scheduled backups while `hearth serve` runs: the first `firstAfter` the start (so a start is never slowed),
/// then whenever the newest scheduled backup is older than the settings' interval, looked at every `look`;
/// after each, the rotation lets the old ones go. A failure is logged and tried again after a growing while
/// (15 minutes, 30, an hour … the interval), so a full disk is not hammered.
public struct BackupSchedule: Service {
  let backups: BackupService
  let firstAfter: Duration
  let look: Duration
  let logger: Logger

  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        try await Task.sleep(for: firstAfter)
        var failures = 0
        var retryAt = ContinuousClock.now
        while true {
          if ContinuousClock.now >= retryAt {
            switch await takeIfDue() {
            case .failed(let interval):
              failures += 1
              let wait = min(interval, .seconds(900) * (1 << min(failures - 1, 10)))
              retryAt = ContinuousClock.now + wait
            case .done, .notDue:
              failures = 0
            }
          }
          try await Task.sleep(for: look)
        }
      }
    } catch is CancellationError {
      // Shutting down; a backup under way finishes or leaves nothing behind.
    }
  }

  enum Outcome { case notDue, done, failed(interval: Duration) }

  func takeIfDue() async -> Outcome {
    var interval = Duration.seconds(86_400)
    do {
      let settings = try backups.settings()
      interval = .seconds(settings.everyHours * 3_600)
      guard settings.scheduled else { return .notDue }
      if let last = try backups.lastScheduled(),
        backups.backup.now().timeIntervalSince(last) < settings.everyHours * 3_600 - 60
      {
        return .notDue
      }
      let summary = try await backups.takeNow(scheduled: true)
      logger.info("scheduled backup taken", metadata: ["file": "\(summary.file)", "bytes": "\(summary.bytes)"])
    } catch is BackupBusyError {
      return .notDue
    } catch {
      logger.error("the scheduled backup failed", metadata: ["error": "\(error)"])
      return .failed(interval: interval)
    }
    // The backup stands whatever the rotation does: a rotation that failed keeps more, never fewer.
    do {
      let removed = try backups.rotate()
      if !removed.isEmpty { logger.info("old scheduled backups let go", metadata: ["count": "\(removed.count)"]) }
    } catch {
      logger.error("the rotation of scheduled backups failed", metadata: ["error": "\(error)"])
    }
    return .done
  }
}

extension Engine {
  /// Scheduled backups for `hearth serve`'s service group.
  public func backupSchedule(firstAfter: Duration = .seconds(600), look: Duration = .seconds(60)) -> BackupSchedule {
    BackupSchedule(backups: backups, firstAfter: firstAfter, look: look, logger: logger)
  }
}
