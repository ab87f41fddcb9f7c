import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

/// How an event or a reminder repeats, as `add` and `edit` take it.
struct RepeatFields: ParsableArguments {
  @Option(name: .long, help: "Repeat: daily, weekly, monthly or yearly.") var `repeat`: Recurrence.Frequency?
  @Option(name: .long, help: "Repeat every N days/weeks/months/years.") var interval: Int?
  @Option(name: .long, help: "Repeat this many times in all.") var count: Int?
  @Option(name: .long, help: "Repeat until this date or time (a date includes its day).") var until: DateTimeArgument?
  @Option(name: .long, help: "Weekdays of a weekly series: MO,WE,FR.") var on: WeekdaysArgument?

  func validate() throws {
    if `repeat` == nil, interval != nil || count != nil || until != nil || on != nil {
      throw ValidationError("--interval, --count, --until and --on need --repeat")
    }
  }

  /// The rule the options describe, or `nil` without `--repeat`.
  var rule: Recurrence? {
    `repeat`.map { frequency in
      Recurrence(
        frequency: frequency, interval: interval ?? 1, count: count,
        until: until.map { $0.isDateOnly ? LocalDateTime(startOf: $0.value.date).adding(seconds: 86_399) : $0.value },
        byWeekday: on?.days.map { Recurrence.WeekdayRule($0) } ?? [])
    }
  }
}

/// The fields of an event that `add` and `edit` share; every one given is applied.
struct EventFields: ParsableArguments {
  @Option(name: .long, help: "Start, local time: 2026-12-01T09:00 (a date alone with --all-day).")
  var start: DateTimeArgument?
  @Option(name: .long, help: "End (exclusive). Default: one hour after the start, or the next day for --all-day.")
  var end: DateTimeArgument?
  @Option(name: .long, help: "Length in minutes, instead of --end.") var duration: Int?
  @Flag(name: .long, help: "An all-day event (dates only).") var allDay = false
  @Option(
    name: .long, help: "Time zone: an IANA name such as Europe/Paris, UTC, or floating (yours, wherever you are).")
  var zone: String?
  @Option(name: .long, help: "Where it happens.") var location: String?
  @Option(name: .long, help: "Notes.") var notes: String?
  @Option(name: .long, help: "The calendar it belongs to (default: Personal).") var calendar: String?
  @Flag(name: .long, help: "Does not block time (free-time searches ignore it).") var free = false
  @Flag(name: .long, help: "Blocks time (the default).") var busy = false
  @OptionGroup var repeats: RepeatFields
  @Option(name: .long, help: "Leave out the occurrence starting at this time (repeatable).") var skip:
    [DateTimeArgument] = []

  func validate() throws {
    if let duration, duration < 0 || duration > 366 * 24 * 60 {
      throw ValidationError("--duration must be 0…527040 minutes")
    }
    if duration != nil, end != nil { throw ValidationError("give --end or --duration, not both") }
    if free, busy { throw ValidationError("give --free or --busy, not both") }
    if let zone, EventZone(parsing: zone) == nil { throw ValidationError("--zone \(zone) is not a known time zone") }
  }

  /// Applies the given fields to `event`.
  func apply(to event: inout CalendarEvent, isNew: Bool) throws {
    let length = event.duration
    if allDay { event.isAllDay = true }
    if let start {
      event.start = event.isAllDay ? LocalDateTime(startOf: start.value.date) : start.value
      if end == nil, duration == nil {
        // A moved event keeps its length; a new one lasts an hour (a day when all-day).
        event.end = event.start.adding(seconds: isNew ? (event.isAllDay ? 86_400 : 3600) : length)
      }
    }
    if let end {
      event.end =
        event.isAllDay ? LocalDateTime(startOf: end.value.date.adding(days: end.isDateOnly ? 1 : 0)) : end.value
    }
    if let duration { event.end = event.start.adding(seconds: duration * 60) }
    if let zone { event.zone = EventZone(parsing: zone) ?? event.zone }
    if event.isAllDay { event.zone = .floating }
    if let location { event.location = location.isEmpty ? nil : location }
    if let notes { event.notes = notes.isEmpty ? nil : notes }
    if let calendar { event.calendar = calendar }
    if free { event.isBusy = false }
    if busy { event.isBusy = true }
    if let rule = repeats.rule { event.recurrence = rule }
    event.exceptions += skip.map { event.isAllDay ? LocalDateTime(startOf: $0.value.date) : $0.value }
  }
}

extension CalendarCommand {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add an event; overlaps with busy events are reported.",
      discussion: "Example: hearth calendar add Dentist --start 2026-12-01T09:00 --duration 45 --location 'Rue A'")
    @Argument(help: "The title.") var title: String
    @OptionGroup var fields: EventFields
    @Flag(name: .long, help: "Print JSON (the event and its conflicts).") var json = false

    func validate() throws {
      if fields.start == nil { throw ValidationError("--start is required") }
    }

    func run() async throws {
      try await reportingFailures {
        let start = fields.start!.value
        var event = CalendarEvent(title: title, start: start, end: start)
        try fields.apply(to: &event, isNew: true)
        let calendar = try await Engine.openProfile().calendar
        try CalendarCommand.report(try calendar.create(event), json: json, verb: "added", zone: calendar.timeZone)
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change an event; fields not given stay as they are.")
    @Argument(help: "Event id or unique id prefix.") var id: String
    @Option(name: .long, help: "New title.") var title: String?
    @OptionGroup var fields: EventFields
    @Flag(name: .long, help: "Stop repeating.") var noRepeat = false
    @Flag(name: .long, help: "Print JSON (the event and its conflicts).") var json = false

    func validate() throws {
      if noRepeat, fields.repeats.repeat != nil { throw ValidationError("give --repeat or --no-repeat, not both") }
    }

    func run() async throws {
      try await reportingFailures {
        let calendar = try await Engine.openProfile().calendar
        var event = try calendar.event(id)
        if let title { event.title = title }
        try fields.apply(to: &event, isNew: false)
        if noRepeat {
          event.recurrence = nil
          event.exceptions = []
        }
        try CalendarCommand.report(try calendar.update(event), json: json, verb: "updated", zone: calendar.timeZone)
      }
    }
  }
}
