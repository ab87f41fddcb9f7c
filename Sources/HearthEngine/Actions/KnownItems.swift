import Foundation
public import HearthActions
public import HearthCore

/// The items an action may name, of each kind: events from a week ago to three months ahead (with when each
/// next happens), open reminders, notes and habits.
struct KnownItems: Sendable {
  let calendar: CalendarService
  let reminders: ReminderService
  let notes: NoteService
  let habits: HabitService
  let contacts: ContactService
  let clock: @Sendable () -> Date

  @Sendable func items(_ kind: ActionKind) -> [KnownItem] {
    switch kind {
    case .calendar: return events()
    case .reminder: return ((try? reminders.list(includeCompleted: false)) ?? []).map { KnownItem($0.title) }
    case .note: return ((try? notes.list().prefix(300)) ?? []).map { KnownItem($0.title) }
    case .habit: return ((try? habits.list()) ?? []).map { KnownItem($0.name) }
    case .contactsSearch: return ((try? contacts.list().prefix(500)) ?? []).map { KnownItem($0.fullName) }
    case .webSearch, .toolCall: return []
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
    let occurrences = (try? calendar.occurrences(in: range)) ?? []
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
    for event in ((try? calendar.events().suffix(200)) ?? []) where known[event.id] == nil {
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
      clock: configuration.clock
    ).items(kind)
  }
}
