import Foundation
import HearthActions
import HearthCore
import HearthStore

/// Why a valid block cannot run: nothing matches its target, several do, or the data refuses the change.
struct ActionFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Turns validated actions into changes of the user's data: finds their targets, works out the new state
/// of an item (for a preview and, on confirmation, again on the item as it is then), and answers questions.
struct ActionPlanner {
  let context: ItemContext
  let calendar: CalendarService
  let reminders: ReminderService
  let notes: NoteService
  let habits: HabitService
  let contacts: ContactService
  /// Where web searches go; `nil` keeps them off.
  var webSearch: (any WebSearchProvider)?

  var zone: TimeZone { context.timeZone }
  var today: LocalDate { LocalDate(context.clock(), in: zone) }

  // MARK: Targets

  /// The one item among `items` that `action` names by id or by title (exact, then containing, then
  /// every word), refusing none and several.
  func pick<Item>(
    _ items: [Item], in action: ValidatedAction, noun: String, id: (Item) -> String, title: (Item) -> String
  ) throws -> Item {
    if let wanted = action.text("id") {
      guard let item = items.first(where: { id($0) == wanted || id($0).hasPrefix(wanted) }) else {
        throw ActionFailure("no \(noun) with id \(wanted)")
      }
      return item
    }
    let name = (action.text("title") ?? action.text("name") ?? "").lowercased()
    let exact = items.filter { title($0).lowercased() == name }
    let containing = items.filter { title($0).lowercased().contains(name) }
    let words = name.split(separator: " ")
    let allWords = items.filter { item in words.allSatisfy { title(item).lowercased().contains($0) } }
    let candidates = !exact.isEmpty ? exact : !containing.isEmpty ? containing : allWords
    guard let first = candidates.first else { throw ActionFailure("no \(noun) called “\(name)”") }
    guard candidates.count == 1 else {
      let names = candidates.prefix(4).map { "“\(title($0))”" }.joined(separator: ", ")
      throw ActionFailure("several \(noun)s match “\(name)” (\(names)); name one by id or start")
    }
    return first
  }

  /// The event an action names; with `start`, the one with an occurrence starting then.
  func event(for action: ValidatedAction) throws -> CalendarEvent {
    var events = try calendar.events()
    if let start = action.dateTime("start"), action.action != "create" {
      let window = DateInterval(start: start.instant(in: zone).addingTimeInterval(-60), duration: 120)
      events = events.filter { !$0.occurrences(overlapping: window, local: zone).isEmpty || $0.start == start }
    }
    return try pick(events, in: action, noun: "event", id: \.id, title: \.title)
  }

  func reminder(for action: ValidatedAction) throws -> Reminder {
    let all = try reminders.list()
    let open = all.filter { !$0.isCompleted }
    let pool = action.text("id") == nil && !open.isEmpty ? open : all
    return try pick(pool, in: action, noun: "reminder", id: \.id, title: \.title)
  }

  func note(for action: ValidatedAction) throws -> Note {
    try pick(try notes.list(), in: action, noun: "note", id: \.id, title: \.title)
  }

  func habit(for action: ValidatedAction) throws -> Habit {
    try pick(try habits.list(), in: action, noun: "habit", id: \.id, title: \.name)
  }

  // MARK: Changes

  /// The item a change or deletion acts on, as it is now.
  func target(of action: ValidatedAction) throws -> StoredItem {
    switch action.kind {
    case .calendar: .event(try event(for: action))
    case .reminder: .reminder(try reminder(for: action))
    case .note: .note(try note(for: action))
    default: throw ActionFailure("\(action.kind.rawValue) \(action.action ?? "") changes nothing")
    }
  }

  /// The new state of `item` after the change `action` asks for.
  func changed(_ item: StoredItem, by action: ValidatedAction) throws -> StoredItem {
    switch (item, action.action) {
    case (.event(var event), "update"):
      if let title = action.text("newTitle") { event.title = title }
      if let location = action.text("location") { event.location = location }
      if let start = action.dateTime("newStart") {
        let length = event.duration
        event.start = start
        event.end = start.adding(seconds: length)
      }
      if let end = action.dateTime("newEnd") { event.end = end }
      try event.validate()
      return .event(event)
    case (.event(var event), "reschedule"):
      let length = action.minutes("minutes").map { $0 * 60 } ?? max(event.duration, 15 * 60)
      let others = try calendar.events().filter { $0.id != event.id }
      let window = DateInterval(start: context.clock(), duration: 31 * 86_400)
      let busy = FreeTime.busy(others.flatMap { $0.occurrences(overlapping: window, local: zone) })
      guard
        let slot = FreeTime.nextSlot(
          lasting: Double(length), after: context.clock(), busy: busy, hours: try calendar.workingHours(), zone: zone)
      else { throw ActionFailure("no free slot of \(length / 60) minutes in the next 30 days") }
      event.start = LocalDateTime(slot.start, in: zone)
      event.end = event.start.adding(seconds: length)
      event.zone = .floating
      return .event(event)
    case (.reminder(let reminder), "complete"):
      return .reminder(reminder.completing(at: context.now()))
    case (.note(var note), "append"):
      let text = action.text("text") ?? ""
      note.body = note.body.isEmpty ? text : note.body.trimmingCharacters(in: .newlines) + "\n\n" + text
      return .note(note)
    case (.note(var note), "update"):
      note.body = action.text("body") ?? note.body
      return .note(note)
    default:
      throw ActionFailure("\(action.kind.rawValue) \(action.action ?? "") cannot change a \(item.kind.noun)")
    }
  }

  /// A planned change as the item's service would store it: checked and stamped with the time.
  func prepared(_ item: StoredItem) throws -> StoredItem { try item.prepared(in: context) }

  // MARK: Creations

  /// Plans a creation: the item as it is to be stored (checked and stamped, not yet written: the action
  /// service writes it with its audit record) and the card's line.
  func create(_ action: ValidatedAction) throws -> (item: StoredItem, summary: String) {
    switch (action.kind, action.action) {
    case (.calendar, "create"):
      let start = action.dateTime("start")!
      let end = action.dateTime("end").flatMap { $0 > start ? $0 : nil } ?? start.adding(seconds: 3600)
      let event = try calendar.prepared(
        new: CalendarEvent(title: action.text("title")!, start: start, end: end, location: action.text("location")))
      var summary = "Added “\(event.title)” on \(Self.when(event))"
      let conflicts = try calendar.conflicts(of: event)
      if !conflicts.isEmpty {
        summary +=
          "; it overlaps " + Set(conflicts.map { "“\($0.other.event.title)”" }).sorted().joined(separator: ", ")
      }
      return (.event(event), summary)
    case (.reminder, "create"):
      let due: ReminderDue? = action.dateTime("due").map {
        action.isDateOnly("due") ? ReminderDue(date: $0.date) : ReminderDue(time: $0)
      }
      let reminder = try reminders.prepared(
        new: Reminder(
          title: action.text("title")!, due: due,
          priority: action.text("priority").flatMap(ReminderPriority.init(rawValue:)) ?? .none,
          list: action.text("list") ?? Reminder.defaultList))
      return (.reminder(reminder), "Reminder “\(reminder.title)”\(due.map { ", due \($0)" } ?? "")")
    case (.note, "create"):
      let note = try notes.prepared(
        new: Note(title: action.text("title")!, body: action.text("body") ?? "", tags: action.tags("tags")))
      return (.note(note), "Note “\(note.title)”")
    case (.habit, "create"):
      let schedule = try action.text("schedule").map { text in
        guard let schedule = Habit.Schedule(parsing: text) else {
          throw ActionFailure("schedule \(text) is not daily, days such as MO,WE,FR, or 3/week")
        }
        return schedule
      }
      let habit = try habits.prepared(new: Habit(name: action.text("name")!, schedule: schedule ?? .daily))
      return (.habit(habit), "Habit “\(habit.name)” (\(habit.schedule))")
    case (.habit, "log"):
      let habit = try habit(for: action)
      let log = HabitLog(habitID: habit.id, at: context.clock())
      let streak = try habits.stats(habit, adding: log, now: context.clock())
      return (.habitLog(log), "Checked in “\(habit.name)” — streak \(streak.currentStreak) \(streak.streakUnit)")
    default:
      throw ActionFailure("\(action.kind.rawValue) \(action.action ?? "") creates nothing")
    }
  }

  // MARK: Descriptions

  static func when(_ event: CalendarEvent) -> String {
    let day = "\(event.start.date.weekday.abbreviation) \(event.start.date)"
    if event.isAllDay { return "\(day), all day" }
    return "\(day) \(event.start.clock)–\(event.end.clock)"
  }

  /// The card's line for a pending change or deletion.
  static func preview(_ action: ValidatedAction, before: StoredItem, after: StoredItem?) -> String {
    switch (before, after) {
    case (.event(let old), .event(let new)?):
      if old.start != new.start || old.end != new.end {
        return "Move “\(old.title)” from \(when(old)) to \(when(new))"
      }
      return "Change “\(old.title)”" + (old.title != new.title ? " to “\(new.title)”" : "")
    case (.event(let old), nil):
      return "Delete “\(old.title)” (\(when(old))\(old.recurrence == nil ? "" : ", every occurrence"))"
    case (.reminder(let old), .reminder(let new)?):
      // A repeating reminder stays open, due again.
      guard new.completedAt == nil, let due = new.due else { return "Mark “\(old.title)” done" }
      return "Mark “\(old.title)” done; it comes back \(due)"
    case (.reminder(let old), nil): return "Delete the reminder “\(old.title)”"
    case (.note(let old), .note?):
      return action.action == "append" ? "Add to the note “\(old.title)”" : "Rewrite the note “\(old.title)”"
    case (.note(let old), nil): return "Delete the note “\(old.title)”"
    default: return "\(action.kind.rawValue) \(action.action ?? "")"
    }
  }
}
