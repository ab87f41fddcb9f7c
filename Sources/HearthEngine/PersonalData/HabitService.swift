public import Foundation
public import HearthCore
import HearthStore

/// A habit with how it is going.
public struct HabitProgress: Sendable, Hashable, Codable {
  public var habit: Habit
  public var stats: HabitStats
}

/// The user's habits and their check-ins.
public typealias HabitService = ItemService<Habit>

extension ItemService where Item == Habit {
  public func list() throws -> [Habit] { try context.database.habits() }

  /// Records that the habit was done (now, unless `at` says when).
  public func log(_ reference: String, at: Date? = nil, note: String? = nil) throws -> HabitLog {
    let log = HabitLog(habitID: try context.resolve(.habit, reference), at: at ?? Date(), note: note)
    try context.database.insert(log)
    return log
  }

  /// Removes a check-in.
  @discardableResult
  public func removeLog(_ id: String) throws -> HabitLog { try context.database.delete(HabitLog.self, id: id) }

  /// A habit's check-ins, oldest first.
  public func logs(_ reference: String) throws -> [HabitLog] {
    try context.database.habitLogs(try context.resolve(.habit, reference))
  }

  /// Streaks and completion of one habit over the last `windowDays` days.
  public func progress(_ reference: String, windowDays: Int = 30, now: Date = Date()) throws -> HabitProgress {
    let habit = try item(reference)
    return HabitProgress(habit: habit, stats: try stats(habit, windowDays: windowDays, now: now))
  }

  /// Every habit with its progress.
  public func overview(windowDays: Int = 30, now: Date = Date()) throws -> [HabitProgress] {
    try list().map { HabitProgress(habit: $0, stats: try stats($0, windowDays: windowDays, now: now)) }
  }

  /// How the habit stands once `log` is added too (for a check-in not stored yet).
  func stats(_ habit: Habit, adding log: HabitLog, now: Date = Date()) throws -> HabitStats {
    habit.stats(
      logs: try context.database.habitLogs(habit.id) + [log], today: LocalDate(now, in: context.timeZone),
      zone: context.timeZone, windowDays: 30)
  }

  private func stats(_ habit: Habit, windowDays: Int, now: Date) throws -> HabitStats {
    habit.stats(
      logs: try context.database.habitLogs(habit.id), today: LocalDate(now, in: context.timeZone),
      zone: context.timeZone, windowDays: windowDays)
  }
}
