public import Foundation
public import HearthCore
import HearthInterchange
import HearthStore

/// A saved event with the conflicts it has with the rest of the calendar.
public struct SavedEvent: Sendable, Hashable, Codable {
  public var event: CalendarEvent
  public var conflicts: [Conflict]
}

/// The user's calendar: events, their occurrences, free time, and iCalendar files.
public struct CalendarService: Sendable {
  let context: ItemContext
  /// The events as items: found, stored and deleted as every kind is.
  public var items: ItemService<CalendarEvent> { ItemService(context: context) }
  private static let workingHoursKey = "calendar.workingHours"

  /// The clock floating and all-day times are read on.
  public var timeZone: TimeZone { context.timeZone }

  /// The event with this id or id prefix.
  public func event(_ reference: String) throws -> CalendarEvent { try items.item(reference) }

  /// Every event, by first start.
  public func events() throws -> [CalendarEvent] { try context.database.events() }

  /// The occurrences overlapping `range`, in order of start.
  public func occurrences(in range: DateInterval) throws -> [Occurrence] {
    try context.database.events(touching: range)
      .flatMap { $0.occurrences(overlapping: range, local: timeZone) }
      .sorted { ($0.startsAt, $0.event.title) < ($1.startsAt, $1.event.title) }
  }

  /// Adds an event (checked first) and reports what it overlaps.
  public func create(_ event: CalendarEvent) throws -> SavedEvent {
    let event = try items.create(event)
    return SavedEvent(event: event, conflicts: try conflicts(of: event))
  }

  /// Replaces an event (checked first) and reports what it now overlaps.
  public func update(_ event: CalendarEvent) throws -> SavedEvent {
    let event = try items.update(event)
    return SavedEvent(event: event, conflicts: try conflicts(of: event))
  }

  /// Deletes an event, returning it (so it can be restored).
  @discardableResult
  public func delete(_ reference: String) throws -> CalendarEvent {
    try items.delete(reference)
  }

  /// Puts back an event exactly as it was (after a deletion).
  public func restore(_ event: CalendarEvent) throws { try items.restore(event) }

  /// The busy occurrences of other events that `event` overlaps.
  public func conflicts(of event: CalendarEvent) throws -> [Conflict] {
    let clock = event.isAllDay ? timeZone : event.zone.resolved(local: timeZone)
    let start = event.start.instant(in: clock)
    let horizon = DateInterval(
      start: start,
      duration: Double(event.duration)
        + (event.recurrence == nil ? 1 : Double(CalendarEvent.conflictHorizonDays) * 86_400))
    return event.conflicts(with: try context.database.events(touching: horizon), local: timeZone)
  }

  /// `event` as ``create(_:)`` would store it, checked and stamped, without storing it.
  func prepared(new event: CalendarEvent) throws -> CalendarEvent { try items.prepared(new: event) }

  // MARK: Free time

  /// The user's working hours (09:00–17:00, Monday to Friday, until set).
  public func workingHours() throws -> WorkingHours {
    try context.database.setting(Self.workingHoursKey, as: WorkingHours.self) ?? .standard
  }

  public func setWorkingHours(_ hours: WorkingHours) throws {
    try context.database.setSetting(Self.workingHoursKey, to: hours)
  }

  /// Free slots of at least `minimum` seconds within working hours over `window`. A window of days off only
  /// ("when am I free on Saturday?") is read in the same hours of those days: the question is about them.
  public func freeSlots(in window: DateInterval, minimum: TimeInterval = 30 * 60) throws -> [DateInterval] {
    let busy = FreeTime.busy(try occurrences(in: window))
    var hours = try workingHours()
    let first = LocalDate(window.start, in: timeZone)
    let last = LocalDate(window.end.addingTimeInterval(-1), in: timeZone)
    let days = (0...max(0, first.days(until: last))).map { first.adding(days: $0).weekday }
    if !days.contains(where: hours.days.contains) { hours.days = Set(Weekday.allCases) }
    return FreeTime.slots(in: window, busy: busy, hours: hours, zone: timeZone, minimum: minimum)
  }

  /// The first free `duration`-second slot starting at or after `after`, within 30 days.
  public func nextFreeSlot(lasting duration: TimeInterval, after: Date) throws -> DateInterval? {
    let window = DateInterval(start: after, duration: 31 * 86_400)
    let busy = FreeTime.busy(try occurrences(in: window))
    return FreeTime.nextSlot(lasting: duration, after: after, busy: busy, hours: try workingHours(), zone: timeZone)
  }

  // MARK: Files

  /// Imports the events of an iCalendar file (its to-dos go through ``ReminderService``).
  public func importFile(_ data: Data) throws -> ImportSummary {
    try items.importing(try ICalendar.read(data, local: timeZone).events, name: \.title)
  }

  /// The calendar as an iCalendar file: every event, or those of one calendar.
  public func exportFile(calendar: String? = nil) throws -> String {
    let events = try events().filter { calendar == nil || $0.calendar == calendar }
    return ICalendar.write(events: events, calendarName: calendar)
  }
}
