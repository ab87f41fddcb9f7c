import Foundation
import HearthCore
import Logging

/// The user's coming week, due reminders and today's habits as short lines: what the system prompt tells the
/// model, and what the answer check lets an answer state. A section that cannot be read says so ("could not be
/// read") rather than falling silent, so the model never takes a failed read for an empty day; the failure is
/// logged.
struct DataDigest: Sendable {
  let calendar: CalendarService
  let reminders: ReminderService
  let habits: HabitService
  let logger: Logger

  /// What the model is told when a section could not be read.
  static func unavailable(_ what: String) -> String {
    "The user's \(what) could not be read just now: if asked, say that it could not be read, and state nothing"
      + " about it."
  }

  func upcomingEvents(today: LocalDate) -> String {
    let zone = calendar.timeZone
    let week = DateInterval(
      start: LocalDateTime(startOf: today).instant(in: zone),
      end: LocalDateTime(startOf: today.adding(days: 7)).instant(in: zone))
    guard let found = read("calendar", { try calendar.occurrences(in: week) }) else {
      return Self.unavailable("calendar")
    }
    guard !found.isEmpty else { return "" }
    let lines = found.prefix(12).map { occurrence -> String in
      let start = occurrence.event.isAllDay ? occurrence.start : LocalDateTime(occurrence.startsAt, in: zone)
      let time = occurrence.event.isAllDay ? "all day" : start.clock
      // Titles may come from someone else (an invitation that arrived by sync): shown, never a block.
      return "- \(start.date) \(time) \(ActionBlockParser.defused(occurrence.event.title))"
    }
    return "The user's next events:\n" + lines.joined(separator: "\n")
  }

  func dueReminders(today: LocalDate) -> String {
    guard let due = read("reminders", { try reminders.due(by: today.adding(days: 1)) }) else {
      return Self.unavailable("reminders")
    }
    guard !due.isEmpty else { return "" }
    return "Reminders due by tomorrow:\n"
      + due.prefix(8).map { "- \(ActionBlockParser.defused($0.title)) (\($0.due?.description ?? ""))" }
      .joined(separator: "\n")
  }

  func todaysHabits(now: Date) -> String {
    guard let overview = read("habits", { try habits.overview(now: now) }) else { return Self.unavailable("habits") }
    guard !overview.isEmpty else { return "" }
    let lines = overview.map { "- \($0.habit.name): \($0.stats.doneToday ? "done today" : "not yet today")" }
    return "Habits:\n" + lines.joined(separator: "\n")
  }

  /// What `body` reads, or `nil` (the failure logged) when `what` could not be read.
  private func read<Value>(_ what: String, _ body: () throws -> Value) -> Value? {
    do {
      return try body()
    } catch {
      logger.error("the \(what) could not be read for the prompt", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }
}
