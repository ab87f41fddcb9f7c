public import HearthCore

/// The item a change names: by id (or its prefix), else by title — a habit's name — matched as the planner
/// matches titles.
public struct ItemReference: Sendable, Hashable {
  public var id: String?
  public var title: String?

  public init(id: String? = nil, title: String? = nil) {
    (self.id, self.title) = (id, title)
  }
}

/// A field that holds a date or a date-time: a date alone means its whole day where that matters (the end
/// of a range, a reminder due on a day).
public enum DayOrTime: Sendable, Hashable {
  case day(LocalDate)
  case time(LocalDateTime)

  /// The moment it stands for: a date reads as its midnight.
  public var start: LocalDateTime {
    switch self {
    case .day(let date): LocalDateTime(startOf: date)
    case .time(let time): time
    }
  }
}

/// What a valid action block asks for, one case per ``ActionSpec``: what the planner, the previews and the
/// drafts switch over, so a verb added to the specs must be added here and handled everywhere it matters
/// before the code compiles. Tool calls are not here: their payloads follow the tools' own schemas.
public enum Action: Sendable, Hashable {
  case createEvent(title: String, start: LocalDateTime, end: LocalDateTime?, location: String?)
  /// `occurrence`: the start of the occurrence meant, when several events share a title.
  case updateEvent(
    ItemReference, occurrence: LocalDateTime?, newTitle: String?, newStart: LocalDateTime?, newEnd: LocalDateTime?,
    location: String?)
  case deleteEvent(ItemReference, occurrence: LocalDateTime?)
  case queryEvents(from: DayOrTime?, to: DayOrTime?, text: String?)
  case findFreeTime(from: DayOrTime?, to: DayOrTime?, minutes: Int?)
  /// Moves the event to the next free slot of its length (or `minutes`).
  case rescheduleEvent(ItemReference, occurrence: LocalDateTime?, minutes: Int?)
  case createReminder(title: String, due: DayOrTime?, priority: String?, list: String?)
  case completeReminder(ItemReference)
  case deleteReminder(ItemReference)
  /// The open reminders: of one list, due by a time (`overdue`, `today`, `tomorrow`, `week`), of one priority.
  case listReminders(list: String?, due: String? = nil, priority: String? = nil)
  case createNote(title: String, body: String?, tags: [String])
  case appendToNote(ItemReference, text: String)
  case rewriteNote(ItemReference, body: String)
  case deleteNote(ItemReference)
  case searchNotes(query: String)
  case createHabit(name: String, schedule: String?)
  case logHabit(ItemReference)
  /// The habit named by id or by part of its name; neither names every habit.
  case habitStats(ItemReference)
  case searchContacts(query: String)
  case searchWeb(query: String)
  /// Keeps a fact the user told; `until`: its last day.
  case rememberFact(text: String, until: LocalDate?)
  case updateFact(ItemReference, text: String?, until: LocalDate?)
  case forgetFact(ItemReference)
  /// The kept facts that hold every word of `about`.
  case recallFacts(about: String)

  /// The spec this action is an instance of: each case names its own, so the two cannot drift apart.
  public var spec: ActionSpec {
    let (kind, verb): (ActionKind, String?) =
      switch self {
      case .createEvent: (.calendar, "create")
      case .updateEvent: (.calendar, "update")
      case .deleteEvent: (.calendar, "delete")
      case .queryEvents: (.calendar, "query")
      case .findFreeTime: (.calendar, "free")
      case .rescheduleEvent: (.calendar, "reschedule")
      case .createReminder: (.reminder, "create")
      case .completeReminder: (.reminder, "complete")
      case .deleteReminder: (.reminder, "delete")
      case .listReminders: (.reminder, "list")
      case .createNote: (.note, "create")
      case .appendToNote: (.note, "append")
      case .rewriteNote: (.note, "update")
      case .deleteNote: (.note, "delete")
      case .searchNotes: (.note, "search")
      case .createHabit: (.habit, "create")
      case .logHabit: (.habit, "log")
      case .habitStats: (.habit, "stats")
      case .searchContacts: (.contactsSearch, nil)
      case .searchWeb: (.webSearch, nil)
      case .rememberFact: (.memory, "remember")
      case .updateFact: (.memory, "update")
      case .forgetFact: (.memory, "forget")
      case .recallFacts: (.memory, "recall")
      }
    // Every case's pair is in the specs: `ActionTypingTests` holds the two lists to each other.
    return ActionSpec.all.first { $0.kind == kind && $0.action == verb } ?? ActionSpec.all[0]
  }

  /// The action a checked payload stands for.
  /// - Throws: ``ActionValidationError`` for a spec no case stands for, or a required field that is missing
  ///   (neither gets past ``ActionBlock/validated()``, which checks both first).
  init(spec: ActionSpec, values: ValidatedValues) throws(ActionValidationError) {
    let target = ItemReference(
      id: values.text("id"), title: values.text("title") ?? values.text("name") ?? values.text("about"))
    switch (spec.kind, spec.action) {
    case (.calendar, "create"):
      self = .createEvent(
        title: try values.required("title"), start: try values.requiredTime("start"), end: values.time("end"),
        location: values.text("location"))
    case (.calendar, "update"):
      self = .updateEvent(
        target, occurrence: values.time("start"), newTitle: values.text("newTitle"), newStart: values.time("newStart"),
        newEnd: values.time("newEnd"), location: values.text("location"))
    case (.calendar, "delete"): self = .deleteEvent(target, occurrence: values.time("start"))
    case (.calendar, "query"):
      self = .queryEvents(from: values.dayOrTime("from"), to: values.dayOrTime("to"), text: values.text("text"))
    case (.calendar, "free"):
      self = .findFreeTime(
        from: values.dayOrTime("from"), to: values.dayOrTime("to"), minutes: values.minutes("minutes"))
    case (.calendar, "reschedule"):
      self = .rescheduleEvent(target, occurrence: values.time("start"), minutes: values.minutes("minutes"))
    case (.reminder, "create"):
      self = .createReminder(
        title: try values.required("title"), due: values.dayOrTime("due"), priority: values.text("priority"),
        list: values.text("list"))
    case (.reminder, "complete"): self = .completeReminder(target)
    case (.reminder, "delete"): self = .deleteReminder(target)
    case (.reminder, "list"):
      self = .listReminders(list: values.text("list"), due: values.text("due"), priority: values.text("priority"))
    case (.note, "create"):
      self = .createNote(title: try values.required("title"), body: values.text("body"), tags: values.tags("tags"))
    case (.note, "append"): self = .appendToNote(target, text: try values.required("text"))
    case (.note, "update"): self = .rewriteNote(target, body: try values.required("body"))
    case (.note, "delete"): self = .deleteNote(target)
    case (.note, "search"): self = .searchNotes(query: try values.required("query"))
    case (.habit, "create"): self = .createHabit(name: try values.required("name"), schedule: values.text("schedule"))
    case (.habit, "log"): self = .logHabit(target)
    case (.habit, "stats"): self = .habitStats(target)
    case (.contactsSearch, nil): self = .searchContacts(query: try values.required("query"))
    case (.webSearch, nil): self = .searchWeb(query: try values.required("query"))
    case (.memory, "remember"): self = .rememberFact(text: try values.required("text"), until: values.day("until"))
    case (.memory, "update"):
      self = .updateFact(target, text: values.text("text"), until: values.day("until"))
    case (.memory, "forget"): self = .forgetFact(target)
    case (.memory, "recall"): self = .recallFacts(about: try values.required("about"))
    default:
      throw ActionValidationError(
        field: "action", "\(spec.kind.rawValue) \(spec.action ?? "") is not an action Hearth can run")
    }
  }
}

/// A payload's values by field name, as validation checked them.
struct ValidatedValues {
  var values: [String: ActionValue]

  func text(_ name: String) -> String? {
    if case .text(let value)? = values[name] { value } else { nil }
  }

  func required(_ name: String) throws(ActionValidationError) -> String {
    guard let value = text(name) else { throw ActionValidationError(field: name, "is required") }
    return value
  }

  /// A date-time field; a date alone reads as its midnight.
  func time(_ name: String) -> LocalDateTime? { dayOrTime(name)?.start }

  func requiredTime(_ name: String) throws(ActionValidationError) -> LocalDateTime {
    guard let value = time(name) else { throw ActionValidationError(field: name, "is required") }
    return value
  }

  func dayOrTime(_ name: String) -> DayOrTime? {
    switch values[name] {
    case .dateTime(let value)?: .time(value)
    case .date(let value)?: .day(value)
    default: nil
    }
  }

  /// A date field; a date-time given for it reads as its day.
  func day(_ name: String) -> LocalDate? {
    switch values[name] {
    case .date(let value)?: value
    case .dateTime(let value)?: value.date
    default: nil
    }
  }

  func minutes(_ name: String) -> Int? {
    if case .minutes(let value)? = values[name] { value } else { nil }
  }

  func tags(_ name: String) -> [String] {
    if case .tags(let value)? = values[name] { value } else { [] }
  }
}
