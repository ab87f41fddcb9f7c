public import Foundation
public import HearthCore

/// What a card offers when the event it adds, or would move, overlaps others (the seeds' conflict card): keep
/// it as it is, cancel it, or move it to one of the free times offered.
///
/// The free times come from the seven days from the event's own day (from now, when that has begun), within
/// working hours, with every busy time merged and the event's own left out; each is as long as the event but at
/// most 4 h (2 h for an all-day event, which becomes a timed one), starting on the quarter hour at the first
/// moment that fits in each free stretch.
public struct ConflictChoices: Sendable, Hashable, Encodable {
  /// An event the card's event overlaps, as it stands on the calendar.
  public struct Overlap: Sendable, Hashable, Encodable {
    public var title: String
    public var start: LocalDateTime
    public var end: LocalDateTime
    /// A whole day (or days): its times are midnights, not worth showing.
    public var allDay: Bool

    enum CodingKeys: String, CodingKey {
      case title, start, end
      case allDay = "all_day"
    }
  }

  /// A free time the event may move to, on the event's own clock.
  public struct Slot: Sendable, Hashable, Encodable {
    public var start: LocalDateTime
    public var end: LocalDateTime
  }

  public var overlaps: [Overlap]
  public var slots: [Slot]

  /// How far ahead free times are looked for.
  public static let windowDays = 7
  /// The longest free time offered.
  public static let longest: TimeInterval = 4 * 3600
  /// The length offered for an all-day event.
  public static let allDayLength: TimeInterval = 2 * 3600
  /// The most free times one card offers.
  public static let mostSlots = 6
}

extension CalendarService {
  /// The card's choices for `event` (a new event, or one with the times a change would give it): `nil` when it
  /// overlaps nothing, repeats (a series is moved by editing it) or is already over.
  public func conflictChoices(for event: CalendarEvent, now: Date) throws -> ConflictChoices? {
    guard event.recurrence == nil else { return nil }
    let clock = event.isAllDay ? timeZone : event.zone.resolved(local: timeZone)
    guard event.end.instant(in: clock) > now else { return nil }
    let conflicts = try conflicts(of: event)
    guard !conflicts.isEmpty else { return nil }
    var seen = Set<String>()
    let overlaps = conflicts.compactMap { conflict -> ConflictChoices.Overlap? in
      let other = conflict.other
      guard seen.insert("\(other.event.id) \(other.start)").inserted else { return nil }
      return ConflictChoices.Overlap(
        title: other.event.title, start: other.start, end: other.end, allDay: other.event.isAllDay)
    }
    let (_, free) = try freeStretches(for: event, now: now)
    let length = Self.offeredLength(of: event)
    let quarter = 15.0 * 60
    let slots = free.compactMap { stretch -> ConflictChoices.Slot? in
      let start = Date(timeIntervalSince1970: (stretch.start.timeIntervalSince1970 / quarter).rounded(.up) * quarter)
      let end = start.addingTimeInterval(length)
      guard end <= stretch.end else { return nil }
      return ConflictChoices.Slot(start: LocalDateTime(start, in: clock), end: LocalDateTime(end, in: clock))
    }
    return ConflictChoices(overlaps: overlaps, slots: Array(slots.prefix(ConflictChoices.mostSlots)))
  }

  /// The free time from `start` that `event` would take if moved there, when it is free now: one of the
  /// times offered, or any other start within the same free stretches (a card drawn a while ago offered a
  /// quarter hour that has passed since).
  public func freeSlot(
    for event: CalendarEvent, startingAt start: LocalDateTime, now: Date
  ) throws
    -> ConflictChoices.Slot?
  {
    let (clock, free) = try freeStretches(for: event, now: now)
    let begins = start.instant(in: clock)
    let ends = begins.addingTimeInterval(Self.offeredLength(of: event))
    guard free.contains(where: { $0.start <= begins && ends <= $0.end }) else { return nil }
    return ConflictChoices.Slot(start: start, end: LocalDateTime(ends, in: clock))
  }

  /// How long a move offers the event: as long as it is, at most 4 h; 2 h for an all-day event.
  static func offeredLength(of event: CalendarEvent) -> TimeInterval {
    event.isAllDay ? ConflictChoices.allDayLength : min(Double(event.duration), ConflictChoices.longest)
  }

  /// The event's clock (the user's, for an all-day event that becomes timed), and the free stretches long
  /// enough for it in the week from its day on the user's calendar, busy times merged and its own left out.
  private func freeStretches(for event: CalendarEvent, now: Date) throws -> (TimeZone, [DateInterval]) {
    let clock = event.isAllDay ? timeZone : event.zone.resolved(local: timeZone)
    let length = Self.offeredLength(of: event)
    guard length > 0 else { return (clock, []) }
    // The event's day as the user's calendar has it (an event on another zone's clock may fall on another).
    let day = event.isAllDay ? event.start.date : LocalDate(event.start.instant(in: clock), in: timeZone)
    let dayStart = LocalDateTime(startOf: day).instant(in: timeZone)
    let window = DateInterval(
      start: max(dayStart, now),
      end: max(dayStart.addingTimeInterval(Double(ConflictChoices.windowDays) * 86_400), now))
    guard window.duration > 0 else { return (clock, []) }
    let busy = FreeTime.busy(try occurrences(in: window).filter { $0.event.id != event.id })
    let free = FreeTime.slots(in: window, busy: busy, hours: try workingHours(), zone: timeZone, minimum: length)
    return (clock, free)
  }
}

/// Why a conflict card's event could not be moved.
public enum RescheduleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The card's event overlaps nothing (any more), or the card adds or moves no event.
  case overlapsNothing(UUID)
  /// The time asked for is not one of the free times the card offers.
  case notOffered(LocalDateTime, offered: [LocalDateTime])

  public var description: String {
    switch self {
    case .overlapsNothing(let id):
      "action \(id.uuidString.prefix(8)) has no overlap to resolve: its event overlaps nothing now"
    case .notOffered(let start, let offered):
      "start \(start.shortDescription) is not a free time for this event"
        + (offered.isEmpty
          ? " (none is free in the week)" : "; free: \(offered.map(\.shortDescription).joined(separator: ", "))")
    }
  }
}
