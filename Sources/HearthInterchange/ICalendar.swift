public import Foundation
public import HearthCore

/// iCalendar files (RFC 5545): events (VEVENT) and reminders (VTODO), both ways.
public enum ICalendar {
  /// What one file holds.
  public struct Contents: Sendable {
    public var events: ParsedFile<CalendarEvent>
    public var reminders: ParsedFile<Reminder>
    /// The calendar's own name (`X-WR-CALNAME`), given to events that do not name theirs.
    public var calendarName: String?
  }

  /// Properties every program writes that carry nothing about the item itself.
  static let fileProperties: Set<String> = ["VERSION", "PRODID", "CALSCALE", "METHOD", "X-WR-CALNAME", "X-WR-TIMEZONE"]

  /// Reads a whole file. A broken item is skipped and reported with its line; the others are read.
  /// Floating times in UNTIL/EXDATE conversions are read on `local`'s clock.
  public static func read(_ data: Data, local: TimeZone = .current) throws(InterchangeError) -> Contents {
    let text = try InterchangeLimits.text(of: data, format: "iCalendar")
    let lines = ContentLines.parse(text)
    guard let first = lines.first, first.name == "BEGIN", first.value.uppercased() == "VCALENDAR" else {
      throw .wrongFormat(expected: "an iCalendar file (BEGIN:VCALENDAR)", found: String(text.prefix(40)))
    }
    var contents = Contents(events: ParsedFile(), reminders: ParsedFile(), calendarName: nil)
    var dropped: [String: Int] = [:]
    var droppedFromReminders: [String: Int] = [:]
    var index = 0
    while index < lines.count {
      let line = lines[index]
      index += 1
      switch (line.name, line.value.uppercased()) {
      case ("BEGIN", "VEVENT"), ("BEGIN", "VTODO"):
        let component = line.value.uppercased()
        let (body, nested, next, closed) = collect(component, in: lines, from: index)
        index = next
        let name = body.first { $0.name == "SUMMARY" }?.text
        guard closed else {
          let skipped = SkippedItem(
            line: line.line, item: name, reason: "\(component) is not closed (END:\(component) missing)")
          component == "VEVENT" ? contents.events.skipped.append(skipped) : contents.reminders.skipped.append(skipped)
          continue
        }
        do {
          if component == "VEVENT" {
            for component in nested { dropped[component, default: 0] += 1 }
            let event = try ICalendarEvents.event(from: body, line: line.line, local: local, dropped: &dropped)
            contents.events.items.append((event, line.line))
          } else {
            for component in nested { droppedFromReminders[component, default: 0] += 1 }
            let reminder = try ICalendarEvents.reminder(
              from: body, line: line.line, local: local, dropped: &droppedFromReminders)
            contents.reminders.items.append((reminder, line.line))
          }
        } catch {
          let skipped = SkippedItem(line: error.line, item: name, reason: error.reason)
          component == "VEVENT" ? contents.events.skipped.append(skipped) : contents.reminders.skipped.append(skipped)
        }
      case ("BEGIN", let component) where component != "VCALENDAR":
        // VTIMEZONE blocks describe zones by TZID; Hearth reads TZIDs with the system's zone database.
        let (_, _, next, _) = collect(component, in: lines, from: index)
        index = next
        if component != "VTIMEZONE" { dropped[component, default: 0] += 1 }
      case ("X-WR-CALNAME", _):
        contents.calendarName = line.text.trimmingCharacters(in: .whitespaces)
      case ("", _):
        contents.events.skipped.append(
          SkippedItem(line: line.line, item: nil, reason: "not a content line: \(line.value.prefix(40))"))
      case (let name, _) where fileProperties.contains(name) || name == "BEGIN" || name == "END":
        continue
      case (let name, _):
        dropped[name, default: 0] += 1
      }
    }
    if let name = contents.calendarName, !name.isEmpty {
      for index in contents.events.items.indices where contents.events.items[index].item.calendar.isEmpty {
        contents.events.items[index].item.calendar = name
      }
    }
    for index in contents.events.items.indices where contents.events.items[index].item.calendar.isEmpty {
      contents.events.items[index].item.calendar = CalendarEvent.defaultCalendar
    }
    contents.events.droppedProperties = dropped
    contents.reminders.droppedProperties = droppedFromReminders
    return contents
  }

  /// The lines of one component up to its END, the names of components nested in it, the index after it,
  /// and whether its END was found.
  private static func collect(
    _ component: String, in lines: [ContentLine], from start: Int
  )
    -> (body: [ContentLine], nested: [String], next: Int, closed: Bool)
  {
    var body: [ContentLine] = []
    var nested: [String] = []
    var depth = 0
    var index = start
    while index < lines.count {
      let line = lines[index]
      index += 1
      if line.name == "BEGIN" {
        if depth == 0 { nested.append(line.value.uppercased()) }
        if line.value.uppercased() == "VEVENT" || line.value.uppercased() == "VTODO"
          || line.value.uppercased() == "VCALENDAR"
        {
          // A new item begins before this one ended: this one is not closed.
          return (body, nested, index - 1, false)
        }
        depth += 1
      } else if line.name == "END" {
        if depth == 0 { return (body, nested, index, line.value.uppercased() == component) }
        depth -= 1
      } else if depth == 0 {
        body.append(line)
      }
    }
    return (body, nested, index, false)
  }

  /// Writes events and reminders as one calendar file (CRLF lines folded at 75 octets).
  public static func write(
    events: [CalendarEvent], reminders: [Reminder] = [], calendarName: String? = nil, now: Date = Date()
  ) -> String {
    var lines = [
      ContentLine(name: "BEGIN", value: "VCALENDAR"), ContentLine(name: "VERSION", value: "2.0"),
      ContentLine(name: "PRODID", value: "-//Hearth//Hearth//EN"), ContentLine(name: "CALSCALE", value: "GREGORIAN"),
    ]
    if let calendarName { lines.append(ContentLine(name: "X-WR-CALNAME", value: ContentLine.escape(calendarName))) }
    lines += VTimeZones.components(for: events, reminders: reminders)
    for event in events { lines += ICalendarEvents.lines(for: event, now: now) }
    for reminder in reminders { lines += ICalendarEvents.lines(for: reminder, now: now) }
    lines.append(ContentLine(name: "END", value: "VCALENDAR"))
    return ContentLines.write(lines)
  }
}
