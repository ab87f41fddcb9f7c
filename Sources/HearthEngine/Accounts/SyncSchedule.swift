public import Foundation
import HearthStore
import Logging

/// When `hearth serve` syncs the accounts next, as it last wrote it in the store, so that the terminal, the
/// Accounts page and `hearth doctor` (other processes, or other requests) can say so.
public struct SyncSchedule: Codable, Sendable, Equatable {
  /// When the next timed sync starts. A change made here brings it sooner, within seconds.
  public var next: Date
  /// Whether a sync is running now.
  public var running: Bool
  /// When `hearth serve` last wrote it: it writes at least once a minute while it runs, so an old one means it
  /// has stopped.
  public var written: Date

  static let settingKey = "accounts.syncSchedule"
  /// How often the service writes while it waits.
  static let heartbeat: TimeInterval = 60
  /// How old a schedule may be and still be believed: two missed heartbeats while waiting; an hour while a sync
  /// runs, as the service writes nothing until it ends.
  static func isCurrent(_ schedule: SyncSchedule, at now: Date) -> Bool {
    now.timeIntervalSince(schedule.written) <= (schedule.running ? 3600 : 2 * heartbeat)
  }
}

/// The next sync of the accounts, as the user is told it.
public enum NextSync: Sendable, Equatable {
  /// `hearth serve` syncs at this time (or sooner, after a change here); a time past means in a moment.
  case at(Date)
  /// `hearth serve` is syncing now.
  case running
  /// Nothing syncs until `hearth serve` runs or the user syncs by hand.
  case notScheduled

  /// When it is, for JSON; `nil` while it runs or when nothing is scheduled.
  public var date: Date? {
    if case .at(let date) = self { return date }
    return nil
  }

  /// In words: "next sync 14:05", "syncing now", "no sync scheduled (hearth serve syncs while it runs)".
  public func describe(_ time: (Date) -> String, now: Date) -> String {
    switch self {
    case .at(let date): date <= now ? "next sync due now" : "next sync \(time(date))"
    case .running: "syncing now"
    case .notScheduled: "no sync scheduled (hearth serve syncs while it runs)"
    }
  }
}

extension AccountService {
  /// The next sync `hearth serve` has planned, or ``NextSync/notScheduled`` when it is not running.
  /// - Throws: when the store cannot be read.
  public func nextSync() throws -> NextSync {
    let stored: SyncSchedule?
    do {
      stored = try database.setting(SyncSchedule.settingKey, as: SyncSchedule.self)
    } catch {
      // A plan that no longer reads (written by another version) says nothing; the service writes a new one
      // within a minute. The accounts, the page and the doctor still answer.
      logger.warning("the sync plan is unreadable", metadata: ["error": "\(ErrorKind.of(error))"])
      return .notScheduled
    }
    guard let schedule = stored, SyncSchedule.isCurrent(schedule, at: clock()) else { return .notScheduled }
    return schedule.running ? .running : .at(schedule.next)
  }

  /// Records what the service plans next.
  func saveSchedule(_ schedule: SyncSchedule) throws {
    try database.setSetting(SyncSchedule.settingKey, to: schedule)
  }

  /// Forgets the plan when the service stops.
  func clearSchedule() throws {
    try database.removeSetting(SyncSchedule.settingKey)
  }
}
