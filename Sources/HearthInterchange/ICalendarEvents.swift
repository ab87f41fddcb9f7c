import Foundation
import HearthCore

/// VEVENT and VTODO components to and from Hearth's items.
enum ICalendarEvents {
  /// Properties a program writes about the file copy rather than the item.
  static let transient: Set<String> = ["DTSTAMP"]

  static func event(
    from body: [ContentLine], line: Int, local: TimeZone, dropped: inout [String: Int]
  )
    throws(ItemProblem) -> CalendarEvent
  {
    guard let startLine = body.first(where: { $0.name == "DTSTART" }) else {
      throw ItemProblem(line, "DTSTART is missing")
    }
    let start = try TimeValue.parse(startLine)
    let zone: EventZone = start.isDate ? .floating : start.zone
    var event = CalendarEvent(
      id: "", title: "", start: start.local, end: start.local, zone: zone, isAllDay: start.isDate, calendar: "",
      createdAt: InterchangeLimits.wholeSecondNow())
    var end: LocalDateTime?
    for property in body {
      switch property.name {
      case "UID": event.id = property.text
      case "SUMMARY": event.title = property.text
      case "DTSTART": continue
      case "DTEND":
        let value = try TimeValue.parse(property)
        guard value.isDate == start.isDate else {
          throw ItemProblem(property.line, "DTEND is a \(value.isDate ? "date" : "date-time") but DTSTART is not")
        }
        end = value.converted(to: zone, local: local)
      case "DURATION":
        guard let seconds = ICalendarFormat.duration(property.value), seconds >= 0 else {
          throw ItemProblem(property.line, "DURATION \(property.value) is not a positive duration")
        }
        end = start.local.adding(seconds: seconds)
      case "LOCATION": event.location = property.text
      case "DESCRIPTION": event.notes = property.text
      case "TRANSP": event.isBusy = property.value.uppercased() != "TRANSPARENT"
      case "STATUS":
        if property.value.uppercased() == "CANCELLED" { throw ItemProblem(property.line, "the event is cancelled") }
      case "RRULE":
        guard event.recurrence == nil else { throw ItemProblem(property.line, "more than one RRULE is not supported") }
        event.recurrence = try RecurrenceRule.parse(property, start: start, local: local)
      case "EXDATE":
        for raw in property.value.split(separator: ",") {
          let value = try TimeValue.parse(String(raw), line: property)
          event.exceptions.append(
            start.isDate ? LocalDateTime(startOf: value.local.date) : value.converted(to: zone, local: local))
        }
      case "RDATE": throw ItemProblem(property.line, "RDATE (extra dates of a series) is not supported")
      case "RECURRENCE-ID":
        throw ItemProblem(property.line, "a changed occurrence of a series (RECURRENCE-ID) is not supported")
      case "CREATED": event.createdAt = try TimeValue.parse(property).instant(local: local)
      case "LAST-MODIFIED": event.updatedAt = try TimeValue.parse(property).instant(local: local)
      case "X-HEARTH-CALENDAR": event.calendar = property.text
      case "": throw ItemProblem(property.line, "not a content line: \(property.value.prefix(40))")
      case let name where transient.contains(name): continue
      case let name: dropped[name, default: 0] += 1
      }
    }
    if event.id.isEmpty {
      event.id = "ics-" + StableID.hash("\(event.title)\n\(startLine.value)\n\(event.zone)")
    }
    if event.title.isEmpty { event.title = "Untitled event" }
    event.end = end ?? (start.isDate ? start.local.adding(seconds: 86_400) : start.local)
    // Some programs end a one-day all-day event on its own date; iCalendar's end is exclusive.
    if start.isDate, event.end == event.start { event.end = event.start.adding(seconds: 86_400) }
    event.exceptions.sort()
    if event.end < event.start {
      throw ItemProblem(
        line, "the end \(event.end.shortDescription) is before the start \(event.start.shortDescription)")
    }
    return event
  }

  static func reminder(
    from body: [ContentLine], line: Int, local: TimeZone, dropped: inout [String: Int]
  )
    throws(ItemProblem) -> Reminder
  {
    var reminder = Reminder(id: "", title: "", createdAt: InterchangeLimits.wholeSecondNow())
    var completed = false
    var due: TimeValue?
    var start: ContentLine?
    var rule: ContentLine?
    for property in body {
      switch property.name {
      case "UID": reminder.id = property.text
      case "SUMMARY": reminder.title = property.text
      case "DESCRIPTION": reminder.notes = property.text
      case "DTSTART": start = property
      case "DUE":
        let value = try TimeValue.parse(property)
        due = value
        reminder.due =
          value.isDate ? ReminderDue(date: value.local.date) : ReminderDue(time: value.local, zone: value.zone)
      case "RRULE":
        guard rule == nil else { throw ItemProblem(property.line, "more than one RRULE is not supported") }
        rule = property
      case "PRIORITY":
        guard let value = Int(property.value), (0...9).contains(value) else {
          throw ItemProblem(property.line, "PRIORITY \(property.value) is not 0…9")
        }
        reminder.priority = ReminderPriority(iCalendarValue: value)
      case "STATUS":
        switch property.value.uppercased() {
        case "COMPLETED": completed = true
        case "CANCELLED": throw ItemProblem(property.line, "the reminder is cancelled")
        default: continue
        }
      case "COMPLETED": reminder.completedAt = try TimeValue.parse(property).instant(local: local)
      case "CREATED": reminder.createdAt = try TimeValue.parse(property).instant(local: local)
      case "LAST-MODIFIED": reminder.updatedAt = try TimeValue.parse(property).instant(local: local)
      case "X-HEARTH-LIST": reminder.list = property.text
      case "": throw ItemProblem(property.line, "not a content line: \(property.value.prefix(40))")
      case let name where transient.contains(name): continue
      case let name: dropped[name, default: 0] += 1
      }
    }
    if reminder.id.isEmpty {
      reminder.id = "ics-" + StableID.hash("\(reminder.title)\n\(reminder.due?.description ?? "")")
    }
    if reminder.title.isEmpty { reminder.title = "Untitled reminder" }
    if completed, reminder.completedAt == nil { reminder.completedAt = reminder.updatedAt }
    // A to-do repeats from its due time, the one Hearth keeps; the rule is read once that is known.
    // A repeating to-do with a start and no due time (as some phones write one) repeats from its start, which
    // Hearth keeps as its due time; without a rule, the start has no place in a reminder.
    if rule != nil, due == nil, let start {
      let value = try TimeValue.parse(start)
      due = value
      reminder.due =
        value.isDate ? ReminderDue(date: value.local.date) : ReminderDue(time: value.local, zone: value.zone)
    } else if start != nil {
      dropped["DTSTART", default: 0] += 1
    }
    if let rule {
      guard let due else { throw ItemProblem(rule.line, "a repeating to-do needs DUE or DTSTART to repeat from") }
      reminder.recurrence = try RecurrenceRule.parse(rule, start: due, local: local)
    }
    return reminder
  }

  static func lines(for event: CalendarEvent, now: Date) -> [ContentLine] {
    var lines = [
      ContentLine(name: "BEGIN", value: "VEVENT"), ContentLine(name: "UID", value: ContentLine.escape(event.id)),
      ContentLine(name: "DTSTAMP", value: ICalendarFormat.utc(now)),
      ICalendarFormat.property("DTSTART", event.start, zone: event.zone, isDate: event.isAllDay),
      ICalendarFormat.property("DTEND", event.end, zone: event.zone, isDate: event.isAllDay),
      ContentLine(name: "SUMMARY", value: ContentLine.escape(event.title)),
    ]
    if let location = event.location {
      lines.append(ContentLine(name: "LOCATION", value: ContentLine.escape(location)))
    }
    if let notes = event.notes { lines.append(ContentLine(name: "DESCRIPTION", value: ContentLine.escape(notes))) }
    lines.append(ContentLine(name: "TRANSP", value: event.isBusy ? "OPAQUE" : "TRANSPARENT"))
    if let rule = event.recurrence {
      lines.append(RecurrenceRule.write(rule, zone: event.zone, isAllDay: event.isAllDay))
    }
    for exception in event.exceptions {
      lines.append(ICalendarFormat.property("EXDATE", exception, zone: event.zone, isDate: event.isAllDay))
    }
    lines += [
      ContentLine(name: "CREATED", value: ICalendarFormat.utc(event.createdAt)),
      ContentLine(name: "LAST-MODIFIED", value: ICalendarFormat.utc(event.updatedAt)),
      ContentLine(name: "X-HEARTH-CALENDAR", value: ContentLine.escape(event.calendar)),
      ContentLine(name: "END", value: "VEVENT"),
    ]
    return lines
  }

  static func lines(for reminder: Reminder, now: Date) -> [ContentLine] {
    var lines = [
      ContentLine(name: "BEGIN", value: "VTODO"), ContentLine(name: "UID", value: ContentLine.escape(reminder.id)),
      ContentLine(name: "DTSTAMP", value: ICalendarFormat.utc(now)),
      ContentLine(name: "SUMMARY", value: ContentLine.escape(reminder.title)),
    ]
    if let notes = reminder.notes { lines.append(ContentLine(name: "DESCRIPTION", value: ContentLine.escape(notes))) }
    if let due = reminder.due {
      lines.append(ICalendarFormat.property("DUE", due.time, zone: due.zone, isDate: due.isDateOnly))
    }
    if let rule = reminder.recurrence, let due = reminder.due {
      lines.append(RecurrenceRule.write(rule, zone: due.zone, isAllDay: due.isDateOnly))
    }
    if reminder.priority != .none {
      lines.append(ContentLine(name: "PRIORITY", value: "\(reminder.priority.iCalendarValue)"))
    }
    if let completedAt = reminder.completedAt {
      lines.append(ContentLine(name: "STATUS", value: "COMPLETED"))
      lines.append(ContentLine(name: "COMPLETED", value: ICalendarFormat.utc(completedAt)))
    } else {
      lines.append(ContentLine(name: "STATUS", value: "NEEDS-ACTION"))
    }
    lines += [
      ContentLine(name: "CREATED", value: ICalendarFormat.utc(reminder.createdAt)),
      ContentLine(name: "LAST-MODIFIED", value: ICalendarFormat.utc(reminder.updatedAt)),
      ContentLine(name: "X-HEARTH-LIST", value: ContentLine.escape(reminder.list)),
      ContentLine(name: "END", value: "VTODO"),
    ]
    return lines
  }
}
