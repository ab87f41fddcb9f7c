import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct CalendarCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "Your calendar: list, add, edit, remove, find free time, import and export iCalendar files.",
    subcommands: [List.self, Add.self, Edit.self, Remove.self, Free.self, Hours.self, Import.self, Export.self]
  )

  /// One occurrence as scripts read it.
  struct OccurrenceOutput: Encodable {
    var id: String
    var title: String
    var start: String
    var end: String
    var zone: String
    var allDay: Bool
    var location: String?
    var notes: String?
    var calendar: String
    var busy: Bool
    var recurring: Bool

    /// Start and end are on the user's clock (`zone`); `zone` says the clock the event itself keeps.
    init(_ occurrence: Occurrence, zone local: TimeZone) {
      let (start, end) = DataText.local(occurrence, zone: local)
      id = occurrence.event.id
      title = occurrence.event.title
      self.start = start.shortDescription
      self.end = end.shortDescription
      zone = occurrence.event.zone.description
      allDay = occurrence.event.isAllDay
      location = occurrence.event.location
      notes = occurrence.event.notes
      calendar = occurrence.event.calendar
      busy = occurrence.event.isBusy
      recurring = occurrence.event.recurrence != nil
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List what happens between two times (default: the next 7 days from today).")
    @Option(name: .long, help: "Start, local time: 2026-12-01 or 2026-12-01T09:00 (default: today).")
    var from: DateTimeArgument?
    @Option(name: .long, help: "End, local time (default: 7 days after the start; a date alone includes that day).")
    var to: DateTimeArgument?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let zone = engine.calendar.timeZone
        let range = try CalendarCommand.range(from: from, to: to, zone: zone)
        let occurrences = try engine.calendar.occurrences(in: range)
        if json {
          return Terminal.write(try JSONOutput.encode(occurrences.map { OccurrenceOutput($0, zone: zone) }) + "\n")
        }
        if occurrences.isEmpty { Terminal.writeError("nothing planned\n") }
        for occurrence in occurrences { Terminal.write(CalendarCommand.line(occurrence, zone: zone) + "\n") }
      }
    }
  }

  static func line(_ occurrence: Occurrence, zone: TimeZone) -> String {
    var text = "\(DataText.when(occurrence, zone: zone))  \(occurrence.event.title)"
    if occurrence.event.zone != .floating, !occurrence.event.isAllDay,
      occurrence.event.zone.resolved(local: zone).identifier != zone.identifier
    {
      text += " (\(occurrence.start.clock) \(occurrence.event.zone))"
    }
    if let location = occurrence.event.location { text += " @ \(location)" }
    if occurrence.event.calendar != CalendarEvent.defaultCalendar { text += " [\(occurrence.event.calendar)]" }
    if occurrence.event.recurrence != nil { text += " ↻" }
    return text + "  " + Terminal.dim(DataText.shortID(occurrence.event.id))
  }

  /// The interval between two command-line times; a date-only end includes its day.
  static func range(
    from: DateTimeArgument?, to: DateTimeArgument?, zone: TimeZone, defaultDays: Int = 7
  ) throws
    -> DateInterval
  {
    let start = from?.value ?? LocalDateTime(startOf: LocalDate(Date(), in: zone))
    let end: LocalDateTime
    if let to {
      end = to.isDateOnly ? LocalDateTime(startOf: to.value.date.adding(days: 1)) : to.value
    } else {
      end = LocalDateTime(startOf: start.date.adding(days: defaultDays))
    }
    guard end > start else {
      throw ValidationError("--to \(end.shortDescription) is not after --from \(start.shortDescription)")
    }
    return DateInterval(start: start.instant(in: zone), end: end.instant(in: zone))
  }

  static func report(_ saved: SavedEvent, json: Bool, verb: String, zone: TimeZone) throws {
    if json { return Terminal.write(try JSONOutput.encode(saved) + "\n") }
    let clock = saved.event.isAllDay ? zone : saved.event.zone.resolved(local: zone)
    let first = Occurrence(
      event: saved.event, start: saved.event.start, end: saved.event.end,
      startsAt: saved.event.start.instant(in: clock), endsAt: saved.event.end.instant(in: clock))
    Terminal.write("\(verb) \(line(first, zone: zone))\n")
    for conflict in saved.conflicts {
      Terminal.write("  ⚠ overlaps \(conflict.other.event.title) (\(DataText.when(conflict.other, zone: zone)))\n")
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an event (the whole series).")
    @Argument(help: "Event id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        let event = try await Engine.openProfile().calendar.delete(id)
        Terminal.write("deleted \(event.title)\n")
      }
    }
  }

  struct Free: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Free time within working hours (default: the next 7 days), or the next free slot of a length.")
    @Option(name: .long, help: "Start (default: now).") var from: DateTimeArgument?
    @Option(name: .long, help: "End (default: 7 days after the start).") var to: DateTimeArgument?
    @Option(name: .long, help: "Shortest slot to list, in minutes.") var minimum = 30
    @Option(name: .long, help: "Find the first free slot of this many minutes instead.") var next: Int?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if minimum < 1 { throw ValidationError("--minimum must be at least 1 minute") }
      if let next, next < 1 || next > 24 * 60 { throw ValidationError("--next must be 1…1440 minutes") }
      if next != nil, to != nil { throw ValidationError("--next looks 30 days ahead; it takes no --to") }
    }

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let zone = engine.calendar.timeZone
        let start = from.map { $0.value.instant(in: zone) } ?? Date()
        let slots: [DateInterval]
        if let next {
          slots = try engine.calendar.nextFreeSlot(lasting: Double(next) * 60, after: start).map { [$0] } ?? []
          if slots.isEmpty { Terminal.writeError("no free slot of \(next) minutes in the next 30 days\n") }
        } else {
          let end =
            try to.map { try CalendarCommand.range(from: from, to: $0, zone: zone).end }
            ?? start.addingTimeInterval(7 * 86_400)
          slots = try engine.calendar.freeSlots(in: DateInterval(start: start, end: end), minimum: Double(minimum) * 60)
        }
        let local = slots.map { (start: LocalDateTime($0.start, in: zone), end: LocalDateTime($0.end, in: zone)) }
        if json {
          return Terminal.write(
            try JSONOutput.encode(local.map { ["start": $0.start.shortDescription, "end": $0.end.shortDescription] })
              + "\n")
        }
        for slot in local {
          let minutes = (slot.end.secondsSinceEpoch - slot.start.secondsSinceEpoch) / 60
          Terminal.write(
            "\(slot.start.date.weekday.abbreviation) \(slot.start.date) \(slot.start.clock)–\(slot.end.clock)  (\(minutes) min)\n"
          )
        }
      }
    }
  }

  struct Hours: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show or set the working hours free time is found in, e.g. 09:00-17:00 or '08:30-16:00 MO,TU,WE'.")
    @Argument(help: "New working hours; omit to show them.") var hours: String?

    func run() async throws {
      try await reportingFailures {
        let calendar = try await Engine.openProfile().calendar
        if let hours {
          guard let parsed = WorkingHours(parsing: hours) else {
            throw ValidationError("working hours look like 09:00-17:00 or '08:30-16:00 MO,TU,WE', not \(hours)")
          }
          try calendar.setWorkingHours(parsed)
        }
        Terminal.write("\(try calendar.workingHours())\n")
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import the events (and to-dos, as reminders) of an iCalendar file; same UIDs are replaced.")
    @Argument(help: "An .ics file.") var file: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let data = try InputFile.read(file)
        let events = try engine.calendar.importFile(data)
        let reminders = try engine.reminders.importFile(data)
        let summaries =
          reminders.added + reminders.replaced + reminders.skipped.count > 0 ? [events, reminders] : [events]
        if json { return Terminal.write(try JSONOutput.encode(summaries) + "\n") }
        for summary in summaries { Terminal.write("\(summary)\n") }
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the calendar as an iCalendar file.")
    @Option(name: .shortAndLong, help: "File to write (default: standard output).") var output: String?
    @Option(name: .long, help: "Only this calendar.") var calendar: String?

    func run() async throws {
      try await reportingFailures {
        let text = try await Engine.openProfile().calendar.exportFile(calendar: calendar)
        try OutputFile.write(text, to: output)
      }
    }
  }
}
