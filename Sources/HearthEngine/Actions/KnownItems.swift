import Foundation
public import HearthActions
public import HearthCore
import Logging

/// The items an action may name, of each kind: events from a week ago to three months ahead (with when each
/// next happens), open reminders, notes and habits.
struct KnownItems: Sendable {
  let calendar: CalendarService
  let reminders: ReminderService
  let notes: NoteService
  let habits: HabitService
  let contacts: ContactService
  let clock: @Sendable () -> Date
  /// Where a read that fails is told: the names are then missing from drafts and questions, never silently.
  var logger = Logger(label: "hearth.actions")

  @Sendable func items(_ kind: ActionKind) -> [KnownItem] {
    switch kind {
    case .calendar: return events()
    case .reminder: return read(kind) { try reminders.list(includeCompleted: false).map { KnownItem($0.title) } }
    case .note: return read(kind) { try notes.list().prefix(300).map { KnownItem($0.title) } }
    case .habit: return read(kind) { try habits.list().map { KnownItem($0.name) } }
    case .contactsSearch: return read(kind) { try contacts.list().prefix(500).map { KnownItem($0.fullName) } }
    // Facts are named by their words, which the planner matches itself.
    case .webSearch, .toolCall, .memory: return []
    }
  }

  /// The items `body` reads, or none — logged — when the read fails.
  private func read<Item>(_ kind: ActionKind, _ body: () throws -> [Item]) -> [Item] {
    do {
      return try body()
    } catch {
      logger.error(
        "the names an action may use could not be read",
        metadata: ["kind": "\(kind.rawValue)", "error": "\(ErrorKind.of(error))"])
      return []
    }
  }

  /// The items a question may name (``ItemQuestion``), each with what it holds: an event's place and notes, a
  /// note's text, a contact's organisation and notes; reminders and habits by their names.
  @Sendable func questionItems(_ kind: ActionKind) -> [KnownItem] {
    switch kind {
    case .note:
      return read(kind) {
        try notes.list().prefix(300).map { KnownItem($0.title, details: [String($0.body.prefix(400))]) }
      }
    case .contactsSearch:
      return read(kind) {
        try contacts.list().prefix(500).map {
          KnownItem($0.fullName, details: [$0.organization, $0.notes].compactMap { $0 })
        }
      }
    default: return items(kind)
    }
  }

  /// The names a request may call the user's contacts and habits by (``DataQuestion``).
  func questionNames() -> DataQuestion.Names {
    DataQuestion.Names(contacts: items(.contactsSearch).map(\.name), habits: items(.habit).map(\.name))
  }

  /// Each event once, with its next occurrence from now (its latest one when none is ahead).
  private func events() -> [KnownItem] {
    let now = clock()
    let zone = calendar.timeZone
    let range = DateInterval(start: now.addingTimeInterval(-7 * 86_400), duration: 100 * 86_400)
    let occurrences = read(.calendar) { try calendar.occurrences(in: range) }
    var upcoming: [String: LocalDateTime] = [:]
    var latest: [String: LocalDateTime] = [:]
    var byID: [String: CalendarEvent] = [:]
    for occurrence in occurrences {
      let id = occurrence.event.id
      let start = occurrence.event.isAllDay ? occurrence.start : LocalDateTime(occurrence.startsAt, in: zone)
      byID[id] = occurrence.event
      if occurrence.endsAt > now {
        upcoming[id] = min(upcoming[id] ?? start, start)
      } else {
        latest[id] = max(latest[id] ?? start, start)
      }
    }
    var known: [String: KnownItem] = [:]
    for (id, event) in byID {
      known[id] = KnownItem(
        event.title, details: [event.location, event.notes].compactMap { $0 }, next: upcoming[id] ?? latest[id])
    }
    for event in read(.calendar, { try Array(calendar.events().suffix(200)) }) where known[event.id] == nil {
      known[event.id] = KnownItem(
        event.title, details: [event.location, event.notes].compactMap { $0 }, next: event.start)
    }
    return known.values.sorted { $0.name < $1.name }
  }
}

extension Engine {
  /// The items an action may name, of one kind.
  @Sendable public func knownItems(_ kind: ActionKind) -> [KnownItem] {
    KnownItems(
      calendar: calendar, reminders: reminders, notes: notes, habits: habits, contacts: contacts,
      clock: configuration.clock, logger: logger
    ).items(kind)
  }
}
