public import Foundation
import GRDB
public import HearthCore

enum AutomationSchema {
  static func create(_ db: Database) throws {
    try db.create(table: "automation") { t in
      t.primaryKey("id", .text)
      t.column("prompt", .text).notNull()
      t.column("schedule", .text).notNull()
      t.column("nextRunAt", .double)
      t.column("lastRunAt", .double)
      t.column("lastSessionID", .text)
      t.column("createdAt", .double).notNull()
    }
    try db.create(table: "automationSession") { t in
      t.primaryKey("sessionID", .text).references("session", onDelete: .cascade)
      t.column("automationID", .text).notNull()
    }
  }
}

private struct AutomationRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "automation"
  var id: String
  var prompt: String
  var schedule: String
  var nextRunAt: Double?
  var lastRunAt: Double?
  var lastSessionID: String?
  var createdAt: Double

  init(_ automation: Automation) {
    id = automation.id
    prompt = automation.prompt
    schedule = automation.schedule.text
    nextRunAt = automation.nextRunAt?.timeIntervalSince1970
    lastRunAt = automation.lastRunAt?.timeIntervalSince1970
    lastSessionID = automation.lastSessionID?.uuidString
    createdAt = automation.createdAt.timeIntervalSince1970
  }

  /// The automation; `nil` for a row whose schedule no longer reads (it is skipped, never run).
  var automation: Automation? {
    guard let schedule = AutomationSchedule(parsing: schedule) else { return nil }
    return Automation(
      id: id, prompt: prompt, schedule: schedule, nextRunAt: nextRunAt.map(Date.init(timeIntervalSince1970:)),
      lastRunAt: lastRunAt.map(Date.init(timeIntervalSince1970:)),
      lastSessionID: lastSessionID.flatMap { UUID(uuidString: $0) },
      createdAt: Date(timeIntervalSince1970: createdAt))
  }
}

extension HearthDatabase {
  public func saveAutomation(_ automation: Automation) throws(StoreError) {
    try write { db in try AutomationRow(automation).save(db) }
  }

  /// Every automation, the next to run first.
  public func automations() throws(StoreError) -> [Automation] {
    try read { db in
      try AutomationRow.order(Column("nextRunAt").ascNullsLast, Column("createdAt")).fetchAll(db).compactMap(
        \.automation)
    }
  }

  @discardableResult
  public func deleteAutomation(_ id: String) throws(StoreError) -> Bool {
    try write { db in try AutomationRow.deleteOne(db, key: id) }
  }

  /// Moves an automation whose time has come to its next time, if it still stands at `expected`: `true` for the
  /// one caller that moved it, so a run is claimed once however many schedulers look.
  public func claimAutomation(_ id: String, expected: Date, next: Date?, at now: Date) throws(StoreError) -> Bool {
    try write { db in
      try db.execute(
        sql: "UPDATE automation SET nextRunAt = ?, lastRunAt = ? WHERE id = ? AND nextRunAt = ?",
        arguments: [next?.timeIntervalSince1970, now.timeIntervalSince1970, id, expected.timeIntervalSince1970])
      return db.changesCount > 0
    }
  }
}

extension HearthDatabase {
  /// Marks a session as an automation's: its turns run with no one there, so what they propose waits.
  public func markAutomationSession(_ sessionID: UUID, automation: String) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO automationSession (sessionID, automationID) VALUES (?, ?)",
        arguments: [sessionID.uuidString, automation])
    }
  }

  /// Whether the session is an automation's.
  public func isAutomationSession(_ sessionID: UUID) throws(StoreError) -> Bool {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT 1 FROM automationSession WHERE sessionID = ?", arguments: [sessionID.uuidString]) != nil
    }
  }
}
