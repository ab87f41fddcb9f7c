import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct BriefingCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "briefing",
    abstract: "The day at a glance, from your data: events, free time, reminders, habits and birthdays ahead.")

  @Option(name: .long, help: "The day: 2026-12-01, today or tomorrow (default: today).")
  var date: DateTimeArgument?
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let engine = try await Engine.openProfile()
      let briefing = try engine.briefing(for: date?.value.date)
      if json { return Terminal.write(try JSONOutput.encode(briefing) + "\n") }
      Terminal.write(Self.text(briefing))
    }
  }

  static func text(_ briefing: Briefing) -> String {
    var lines = ["\(briefing.date.weekday.name) \(briefing.date)"]
    func section(_ title: String, _ items: [String], empty: String? = nil) {
      guard !items.isEmpty || empty != nil else { return }
      lines.append("")
      lines.append(title)
      lines += items.isEmpty ? ["  \(empty ?? "")"] : items.map { "  \($0)" }
    }
    section(
      "Events",
      briefing.events.map { event in
        let when = event.isAllDay ? "all day    " : "\(event.start.clock)–\(event.end.clock)"
        return "\(when)  \(event.title)" + (event.location.map { " · \($0)" } ?? "")
      }, empty: "Nothing planned.")
    section(
      "Free time (working hours)",
      briefing.freeTime.map { "\($0.start.clock)–\($0.end.clock)  (\(duration($0.minutes)))" },
      empty: "None left.")
    section(
      "Due",
      briefing.due.map {
        "○ \($0.title)" + ($0.due.map { due in due.isDateOnly ? "" : " at \(due.time.clock)" } ?? "")
      })
    section("Overdue", briefing.overdue.map { "○ \($0.title) (due \($0.due.map { "\($0.time.date)" } ?? "?"))" })
    section("Habits", briefing.habits.map { ($0.done ? "✓ " : "○ ") + $0.name })
    section(
      "Birthdays this week",
      briefing.birthdays.map { birthday in
        let when = birthday.inDays == 0 ? "today" : birthday.inDays == 1 ? "tomorrow" : "\(birthday.date.weekday.name)"
        return "\(birthday.name) — \(when), \(birthday.date)" + (birthday.turns.map { " (turns \($0))" } ?? "")
      })
    return lines.joined(separator: "\n") + "\n"
  }

  private static func duration(_ minutes: Int) -> String {
    minutes < 60 ? "\(minutes) min" : minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
  }
}
