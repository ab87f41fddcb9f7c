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
  let facts: FactService
  /// Where web searches go; none keeps them off.
  let webSearch: LiveSetting<WebSearchState>

  var zone: TimeZone { context.timeZone }
  var today: LocalDate { LocalDate(context.clock(), in: zone) }

  // MARK: Targets

  /// The one item among `items` that `reference` names by id or by title (exact, then containing, then
  /// every word), refusing none and several.
  func pick<Item>(
    _ items: [Item], by reference: ItemReference, noun: String, id: (Item) -> String, title: (Item) -> String
  ) throws -> Item {
    if let wanted = reference.id {
      guard let item = items.first(where: { id($0) == wanted || id($0).hasPrefix(wanted) }) else {
        throw ActionFailure("no \(noun) with id \(wanted)")
      }
      return item
    }
    let name = (reference.title ?? "").lowercased()
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

  /// The event `reference` names; with `occurrence`, the one with an occurrence starting then.
  func event(_ reference: ItemReference, occurrence: LocalDateTime?) throws -> CalendarEvent {
    var events = try calendar.events()
    if let start = occurrence {
      let window = DateInterval(start: start.instant(in: zone).addingTimeInterval(-60), duration: 120)
      events = events.filter { !$0.occurrences(overlapping: window, local: zone).isEmpty || $0.start == start }
    }
    return try pick(events, by: reference, noun: "event", id: \.id, title: \.title)
  }

  func reminder(_ reference: ItemReference) throws -> Reminder {
    let all = try reminders.list()
    let open = all.filter { !$0.isCompleted }
    let pool = reference.id == nil && !open.isEmpty ? open : all
    return try pick(pool, by: reference, noun: "reminder", id: \.id, title: \.title)
  }

  func note(_ reference: ItemReference) throws -> Note {
    try pick(try notes.list(), by: reference, noun: "note", id: \.id, title: \.title)
  }

  func habit(_ reference: ItemReference) throws -> Habit {
    try pick(try habits.list(), by: reference, noun: "habit", id: \.id, title: \.name)
  }

  /// The kept fact `reference` names, by id or by its words ("brother's name", "allergic to nuts").
  func fact(_ reference: ItemReference) throws -> Fact {
    try pick(try facts.list(), by: reference, noun: "fact", id: \.id, title: \.text)
  }

  // MARK: Changes

  /// The item a change or deletion acts on, as it is now.
  func target(of action: Action) throws -> StoredItem {
    switch action {
    case .updateEvent(let reference, let occurrence, _, _, _, _), .deleteEvent(let reference, let occurrence),
      .rescheduleEvent(let reference, let occurrence, _):
      return .event(try event(reference, occurrence: occurrence))
    case .completeReminder(let reference), .deleteReminder(let reference): return .reminder(try reminder(reference))
    case .appendToNote(let reference, _), .rewriteNote(let reference, _), .deleteNote(let reference):
      return .note(try note(reference))
    case .updateFact(let reference, _, _), .forgetFact(let reference): return .fact(try fact(reference))
    case .createEvent, .queryEvents, .findFreeTime, .createReminder, .listReminders, .createNote, .searchNotes,
      .createHabit, .logHabit, .habitStats, .searchContacts, .searchWeb, .rememberFact, .recallFacts:
      throw ActionFailure("\(action.spec.kind.rawValue) \(action.spec.action ?? "") changes nothing")
    }
  }

  /// The new state of `item` after the change `action` asks for.
  func changed(_ item: StoredItem, by action: Action) throws -> StoredItem {
    switch (item, action) {
    case (.event(var event), .updateEvent(_, _, let newTitle, let newStart, let newEnd, let location)):
      if let newTitle { event.title = newTitle }
      if let location { event.location = location }
      if let newStart {
        let length = event.duration
        event.start = newStart
        event.end = newStart.adding(seconds: length)
      }
      if let newEnd { event.end = newEnd }
      try event.validate()
      return .event(event)
    case (.event(var event), .rescheduleEvent(_, _, let minutes)):
      let length = minutes.map { $0 * 60 } ?? max(event.duration, 15 * 60)
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
    case (.reminder(let reminder), .completeReminder):
      return .reminder(reminder.completing(at: context.now()))
    case (.note(var note), .appendToNote(_, let text)):
      note.body = note.body.isEmpty ? text : note.body.trimmingCharacters(in: .newlines) + "\n\n" + text
      return .note(note)
    case (.note(var note), .rewriteNote(_, let body)):
      note.body = body
      return .note(note)
    case (.fact(var fact), .updateFact(_, let text, let until)):
      guard text != nil || until != nil else { throw ActionFailure("a change of a fact needs its new text or day") }
      if let text { fact.text = text }
      if let until { fact.expires = until }
      try fact.validate()
      return .fact(fact)
    case (_, .updateFact), (_, .forgetFact), (_, .rememberFact), (_, .recallFacts), (_, .updateEvent),
      (_, .rescheduleEvent), (_, .completeReminder), (_, .appendToNote), (_, .rewriteNote),
      (_, .createEvent), (_, .deleteEvent), (_, .queryEvents), (_, .findFreeTime), (_, .createReminder),
      (_, .deleteReminder), (_, .listReminders), (_, .createNote), (_, .deleteNote), (_, .searchNotes),
      (_, .createHabit), (_, .logHabit), (_, .habitStats), (_, .searchContacts), (_, .searchWeb):
      throw ActionFailure(
        "\(action.spec.kind.rawValue) \(action.spec.action ?? "") cannot change a \(item.kind.noun)")
    }
  }

  /// A planned change as the item's service would store it: checked and stamped with the time.
  func prepared(_ item: StoredItem) throws -> StoredItem { try item.prepared(in: context) }

  // MARK: Creations

  /// Plans a creation: the item as it is to be stored (checked and stamped, not yet written: the action
  /// service writes it with its audit record) and the card's line.
  func create(_ action: Action) throws -> (item: StoredItem, summary: String) {
    switch action {
    case .createEvent(let title, let start, let end, let location):
      let end = end.flatMap { $0 > start ? $0 : nil } ?? start.adding(seconds: 3600)
      let event = try calendar.prepared(
        new: CalendarEvent(title: title, start: start, end: end, location: location))
      var summary = "Added “\(event.title)” on \(Self.when(event))"
      let conflicts = try calendar.conflicts(of: event)
      if !conflicts.isEmpty {
        summary +=
          "; it overlaps " + Set(conflicts.map { "“\($0.other.event.title)”" }).sorted().joined(separator: ", ")
      }
      return (.event(event), summary)
    case .createReminder(let title, let due, let priority, let list):
      let due: ReminderDue? = due.map { due in
        switch due {
        case .day(let date): ReminderDue(date: date)
        case .time(let time): ReminderDue(time: time)
        }
      }
      let reminder = try reminders.prepared(
        new: Reminder(
          title: title, due: due, priority: priority.flatMap(ReminderPriority.init(rawValue:)) ?? .none,
          list: list ?? Reminder.defaultList))
      return (.reminder(reminder), "Reminder “\(reminder.title)”\(due.map { ", due \($0)" } ?? "")")
    case .createNote(let title, let body, let tags):
      let note = try notes.prepared(new: Note(title: title, body: body ?? "", tags: tags))
      return (.note(note), "Note “\(note.title)”")
    case .createHabit(let name, let schedule):
      let schedule = try schedule.map { text in
        guard let schedule = Habit.Schedule(parsing: text) else {
          throw ActionFailure("schedule \(text) is not daily, days such as MO,WE,FR, or 3/week")
        }
        return schedule
      }
      let habit = try habits.prepared(new: Habit(name: name, schedule: schedule ?? .daily))
      return (.habit(habit), "Habit “\(habit.name)” (\(habit.schedule))")
    case .logHabit(let reference):
      let habit = try habit(reference)
      let log = HabitLog(habitID: habit.id, at: context.clock())
      let streak = try habits.stats(habit, adding: log, now: context.clock())
      return (.habitLog(log), "Checked in “\(habit.name)” — streak \(streak.currentStreak) \(streak.streakUnit)")
    case .rememberFact(let text, let until):
      if let until, until < today { throw ActionFailure("until \(until) is in the past") }
      let (fact, replacing) = try facts.planned(Fact(text: text, expires: until), subject: FactSubject.key)
      var summary = "Remembered “\(fact.text)”"
      if let until { summary += " until \(until.weekday.abbreviation) \(until)" }
      if let replacing { summary += ", in place of “\(replacing.text)”" }
      return (.fact(fact), summary)
    case .updateFact, .forgetFact, .recallFacts, .updateEvent, .deleteEvent, .queryEvents, .findFreeTime,
      .rescheduleEvent, .completeReminder, .deleteReminder,
      .listReminders, .appendToNote, .rewriteNote, .deleteNote, .searchNotes, .habitStats, .searchContacts, .searchWeb:
      throw ActionFailure("\(action.spec.kind.rawValue) \(action.spec.action ?? "") creates nothing")
    }
  }

  // MARK: Descriptions

  static func when(_ event: CalendarEvent) -> String {
    let day = "\(event.start.date.weekday.abbreviation) \(event.start.date)"
    if event.isAllDay { return "\(day), all day" }
    return "\(day) \(event.start.clock)–\(event.end.clock)"
  }

  /// The card's line for a pending change or deletion.
  static func preview(_ action: Action, before: StoredItem, after: StoredItem?) -> String {
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
      if case .appendToNote = action { return "Add to the note “\(old.title)”" }
      return "Rewrite the note “\(old.title)”"
    case (.note(let old), nil): return "Delete the note “\(old.title)”"
    case (.fact(let old), .fact(let new)?):
      if old.text == new.text {
        return "Change “\(old.text)” " + (new.expires.map { "to hold until \($0)" } ?? "to hold with no end")
      }
      return "Change “\(old.text)” to “\(new.text)”"
    case (.fact(let old), nil): return "Forget “\(old.text)”"
    default: return "\(action.spec.kind.rawValue) \(action.spec.action ?? "")"
    }
  }
}
