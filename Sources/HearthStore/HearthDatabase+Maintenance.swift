public import Foundation
import GRDB
import HearthCore

/// What start-up repair found.
public struct RepairReport: Sendable, Hashable {
  /// Messages that were being generated when a process ended; now marked interrupted, text kept.
  public var interrupted: Int
  /// Empty placeholders of answers that never started; removed.
  public var removedPlaceholders: Int

  public init(interrupted: Int, removedPlaceholders: Int) {
    self.interrupted = interrupted
    self.removedPlaceholders = removedPlaceholders
  }
}

/// Which sessions `prune` may delete.
public struct HistoryPolicy: Sendable, Hashable, Codable {
  /// Keep at most this many recent sessions (pinned and archived ones do not count and are never deleted).
  public var maximumSessions: Int?
  /// Delete sessions not updated for longer than this.
  public var maximumAge: TimeInterval?

  public init(maximumSessions: Int? = nil, maximumAge: TimeInterval? = nil) {
    self.maximumSessions = maximumSessions
    self.maximumAge = maximumAge
  }
}

extension HearthDatabase {
  /// Repairs what a crash can leave behind: answers still marked as generating become interrupted (their
  /// partial text kept), and placeholders that never received any text are removed.
  @discardableResult
  public func repairAfterCrash() throws(StoreError) -> RepairReport {
    let path = path
    return try write { db in
      let generating = MessageState.generating.rawValue
      try db.execute(
        sql: "DELETE FROM message WHERE state = ? AND content = '' AND thinking = ''", arguments: [generating])
      let removed = db.changesCount
      if removed > 0 { try BranchRows.healEmptyVersions(db, path: path) }
      try db.execute(
        sql: "UPDATE message SET state = ? WHERE state = ?", arguments: [MessageState.interrupted.rawValue, generating])
      return RepairReport(interrupted: db.changesCount, removedPlaceholders: removed)
    }
  }

  /// Deletes old sessions beyond the policy; returns how many were deleted.
  @discardableResult
  public func prune(_ policy: HistoryPolicy, now: Date = Date()) throws(StoreError) -> Int {
    try write { db in
      var doomed = Set<String>()
      let candidates = SessionRow.filter(Column("isPinned") == false && Column("isArchived") == false)
      if let maximum = policy.maximumSessions {
        let ids = try String.fetchAll(
          db, candidates.select(Column("id")).order(Column("updatedAt").desc).limit(-1, offset: max(0, maximum)))
        doomed.formUnion(ids)
      }
      if let age = policy.maximumAge {
        let cutoff = now.timeIntervalSince1970 - age
        doomed.formUnion(try String.fetchAll(db, candidates.select(Column("id")).filter(Column("updatedAt") < cutoff)))
      }
      return try SessionRow.deleteAll(db, keys: Array(doomed))
    }
  }
}
