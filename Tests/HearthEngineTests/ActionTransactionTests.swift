import Foundation
import HearthCore
import HearthEngine
import HearthStore
import HearthTestSupport
import Testing

/// An action's change and its audit record are one transaction: both or neither, and once however many
/// surfaces (the web app, the terminal, another process) press Confirm or Undo at the same moment.
@Suite("Actions and their audit records, written together")
struct ActionTransactionTests {
  private func engine() async throws -> Engine {
    try await Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]))
  }

  /// Runs `body` eight times at once; how many calls succeeded.
  private func racing(_ body: @escaping @Sendable () async throws -> ActionRecord) async -> Int {
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 { group.addTask { (try? await body()) != nil } }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
  }

  @Test func confirmationsAndUndosPressedAtOnceTakeEffectOnce() async throws {
    let engine = try await engine()
    let created = try await engine.actions.process(
      answer: #"[REMINDER_ACTION:{"action":"create","title":"Water the ferns"}]"#)[0]
    let reminderID = try #require(created.itemID)
    let done = try await engine.actions.process(
      answer: #"[REMINDER_ACTION:{"action":"complete","title":"water the ferns"}]"#)[0]
    #expect(done.state == .pending)

    #expect(await racing { try await engine.actions.confirm(done.id) } == 1)
    #expect(try engine.reminders.item(reminderID).completedAt != nil)
    #expect(try engine.actions.record(done.id.uuidString).state == .updated)

    #expect(await racing { try engine.actions.undo(done.id) } == 1)
    #expect(try engine.reminders.item(reminderID).completedAt == nil)

    #expect(await racing { try engine.actions.undo(created.id) } == 1)
    #expect(try engine.reminders.list().isEmpty)
    #expect(try engine.actions.record(created.id.uuidString).state == .undone)
  }

  @Test func aChangeTheStoreRefusesLeavesTheRecordAsItWas() throws {
    let database = try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("h.sqlite").path)
    let record = ActionRecord(
      kind: "REMINDER_ACTION", action: "complete", block: "[REMINDER_ACTION:{}]", state: .pending, summary: "Complete",
      itemKind: .reminder, itemID: "gone")
    try database.commitAction(record)
    var confirmed = record
    confirmed.state = .updated
    let missing = StoredItem.reminder(Reminder(id: "gone", title: "Gone"))
    #expect(throws: StoreError.self) {
      try database.commitAction(confirmed, writing: .update(missing), expecting: .pending)
    }
    #expect(try database.action(record.id)?.state == .pending)
    // And a record another writer moved is not overwritten, nor its change made.
    try database.commitAction(confirmed, expecting: .pending)
    #expect(try database.commitAction(confirmed, writing: .put(missing), expecting: .pending) == false)
    #expect(try database.item(.reminder, id: "gone") == nil)
  }

  @Test func aCheckInWhoseHabitIsGoneIsRecordedAsFailedWithoutAnItem() async throws {
    let engine = try await engine()
    let habit = try engine.habits.create(Habit(name: "Stretch"))
    let database = try HearthDatabase(path: engine.paths.database.path)
    let record = ActionRecord(
      kind: "HABIT_ACTION", action: "log", block: "[HABIT_ACTION:{}]", state: .created, summary: "Checked in",
      itemKind: .habitLog, itemID: "log-1")
    try engine.habits.delete(habit.id)
    #expect(throws: StoreError.self) {
      try database.commitAction(
        record, writing: .insert(.habitLog(HabitLog(id: "log-1", habitID: habit.id, at: Date()))))
    }
    #expect(try database.action(record.id) == nil)
    #expect(try database.item(.habitLog, id: "log-1") == nil)
  }
}
