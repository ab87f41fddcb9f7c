import Foundation
import HearthActions
import HearthCore

extension ActionPlanner {
  /// Answers a question block: the found facts as short lines, for the card and the second pass.
  func answer(_ action: Action) async throws -> (summary: String, result: String) {
    switch action {
    case .queryEvents(let from, let to, let text):
      let range = self.range(from: from, to: to, defaultDays: 7)
      var found = try calendar.occurrences(in: range)
      // Nothing found says what was looked for: "nothing with Anna", not a bare "nothing".
      let nothing = text.map { "Nothing with “\($0)” is planned then." } ?? "Nothing is planned then."
      if let text = text?.lowercased() {
        found = found.filter {
          $0.event.title.lowercased().contains(text) || ($0.event.location ?? "").lowercased().contains(text)
        }
      }
      let lines = found.prefix(30).map { occurrence -> String in
        let local = occurrence.event.isAllDay ? occurrence.start : LocalDateTime(occurrence.startsAt, in: zone)
        let shown = CalendarEvent(
          title: occurrence.event.title, start: local,
          end: occurrence.event.isAllDay ? occurrence.end : LocalDateTime(occurrence.endsAt, in: zone),
          isAllDay: occurrence.event.isAllDay)
        let calendarName =
          occurrence.event.calendar == CalendarEvent.defaultCalendar ? "" : " (\(occurrence.event.calendar) calendar)"
        // An event asked about by name ("what is the team meeting about") shows what its notes say too.
        let notes =
          text == nil
          ? ""
          : occurrence.event.notes.map {
            " — notes: " + $0.split(whereSeparator: \.isNewline).joined(separator: " ").prefix(200)
          } ?? ""
        return "- \(Self.when(shown)): \(occurrence.event.title)"
          + (occurrence.event.location.map { " at \($0)" } ?? "") + calendarName + notes
      }
      return (
        "Looked up the calendar (\(found.count) found)",
        lines.isEmpty ? nothing : lines.joined(separator: "\n")
      )
    case .findFreeTime(let from, let to, let minutes):
      let minutes = minutes ?? 60
      let slots = try calendar.freeSlots(
        in: range(from: from, to: to, defaultDays: 7), minimum: Double(minutes) * 60)
      let lines = slots.prefix(12).map { slot -> String in
        let start = LocalDateTime(slot.start, in: zone)
        let end = LocalDateTime(slot.end, in: zone)
        return "- \(Self.when(CalendarEvent(title: "", start: start, end: end)))"
      }
      return (
        "Looked for free time of \(minutes) minutes",
        lines.isEmpty ? "No free slot that long." : lines.joined(separator: "\n")
      )
    case .listReminders(let list, let due, let priority):
      let today = self.today
      let overdue = { (reminder: Reminder) in reminder.due.map { $0.time.date < today } ?? false }
      // Due by the end of `last`, overdue ones included.
      let dueBy = { (last: LocalDate) in { (reminder: Reminder) in reminder.due.map { $0.time.date <= last } ?? false }
      }
      let keeps: (Reminder) -> Bool =
        switch due {
        case "overdue": overdue
        case "today": dueBy(today)
        case "tomorrow": { $0.due?.time.date == today.adding(days: 1) }
        case "week": dueBy(today.adding(days: 6))
        default: { _ in true }
        }
      let open = try reminders.list(list: list, includeCompleted: false).filter { reminder in
        keeps(reminder) && (priority.map { reminder.priority.rawValue == $0 } ?? true)
      }
      // Overdue first, each with what the user may ask of it: when it is due, its priority and its list.
      let ordered = open.filter(overdue) + open.filter { !overdue($0) }
      let lines = ordered.prefix(30).map { reminder -> String in
        var details: [String] = []
        if let due = reminder.due { details.append((overdue(reminder) ? "overdue, was due " : "due ") + "\(due)") }
        if reminder.priority != .none { details.append("\(reminder.priority.rawValue) priority") }
        if reminder.list != Reminder.defaultList { details.append("list \(reminder.list)") }
        return "- \(reminder.title)" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
      }
      return (
        "Looked up the reminders (\(open.count) open)",
        lines.isEmpty ? Self.noReminders(list: list, due: due, priority: priority) : lines.joined(separator: "\n")
      )
    case .searchNotes(let query):
      let hits = try notes.search(query, limit: 5)
      let lines = hits.map { "- \($0.note.title): \($0.note.body.prefix(300))" }
      return (
        "Searched the notes (\(hits.count) found)", lines.isEmpty ? "No note matches." : lines.joined(separator: "\n")
      )
    case .habitStats(let reference):
      let progress = try habits.overview(now: context.clock()).filter { item in
        if let id = reference.id { return item.habit.id == id || item.habit.id.hasPrefix(id) }
        return reference.title.map { item.habit.name.lowercased().contains($0.lowercased()) } ?? true
      }
      let lines = progress.map {
        "- \($0.habit.name): streak \($0.stats.currentStreak) \($0.stats.streakUnit), best \($0.stats.longestStreak), "
          + "\(Int(($0.stats.completionRate * 100).rounded()))% of the last \($0.stats.windowDays) days"
          + ($0.stats.doneToday ? ", done today" : "")
      }
      return ("Looked up habits", lines.isEmpty ? "No such habit." : lines.joined(separator: "\n"))
    case .searchContacts(let query):
      var found = try contacts.search(query, limit: 5)
      if found.isEmpty {
        // "Anna's phone number": any one name word finds the person.
        let ignored: Set<String> = ["phone", "number", "email", "mail", "address", "birthday", "contact", "the", "and"]
        for word in query.lowercased().replacingOccurrences(of: "'s", with: "").split(whereSeparator: { !$0.isLetter })
        where word.count >= 3 && !ignored.contains(String(word)) {
          found += try contacts.search(String(word), limit: 5).filter { hit in !found.contains { $0.id == hit.id } }
        }
      }
      let lines = found.map { contact -> String in
        var parts = [contact.fullName]
        parts += contact.phones.map { "\($0.label ?? "phone") \($0.value)" }
        parts += contact.emails.map { "\($0.label ?? "e-mail") \($0.value)" }
        if let birthday = contact.birthday { parts.append("birthday \(birthday)") }
        if let organization = contact.organization { parts.append("organisation \(organization)") }
        if let notes = contact.notes { parts.append("notes: \(notes)") }
        return "- " + parts.joined(separator: ", ")
      }
      return (
        "Searched contacts (\(found.count) found)",
        lines.isEmpty ? "No contact matches." : lines.joined(separator: "\n")
      )
    case .searchWeb(let query):
      guard let webSearch = webSearch.current.provider else {
        throw ActionFailure("web search is off (give a SearXNG server's address in Settings, or HEARTH_SEARXNG_URL)")
      }
      let results = try await webSearch.search(query, limit: 5)
      // Results are data: they are shown and answered from, never read for action blocks.
      let lines = results.map { "- \($0.title) (\($0.url)): \($0.snippet)" }
      return (
        "Searched the web for “\(query)” (\(results.count) found)",
        lines.isEmpty ? "Nothing found." : lines.joined(separator: "\n")
      )
    case .recallFacts(let about):
      let facts = try self.facts.holding()
      let found = FactQuestion.matching(facts.map(\.text), about: about)
      return (
        "Looked up what you told me (\(found.count) found)",
        found.isEmpty
          ? "Nothing you told me says that. Tell me, and I'll remember it."
          : found.map { "- You told me: \($0)" }.joined(separator: "\n")
      )
    case .createEvent, .updateEvent, .deleteEvent, .rescheduleEvent, .createReminder, .completeReminder,
      .rememberFact, .updateFact, .forgetFact,
      .deleteReminder, .createNote, .appendToNote, .rewriteNote, .deleteNote, .createHabit, .logHabit:
      throw ActionFailure("\(action.spec.kind.rawValue) \(action.spec.action ?? "") asks nothing")
    }
  }

  /// `from`…`to` on the user's clock; a date alone as `to` includes its day; `defaultDays` from today.
  func range(from: DayOrTime?, to: DayOrTime?, defaultDays: Int) -> DateInterval {
    let start = from?.start ?? LocalDateTime(startOf: today)
    var end: LocalDateTime
    switch to {
    case .day(let date): end = LocalDateTime(startOf: date.adding(days: 1))
    case .time(let time): end = time
    case nil: end = LocalDateTime(startOf: start.date.adding(days: defaultDays))
    }
    if end <= start { end = LocalDateTime(startOf: start.date.adding(days: 1)) }
    return DateInterval(start: start.instant(in: zone), end: end.instant(in: zone))
  }
}

extension ActionPlanner {
  /// What a reminders look-up that found none says, naming what it looked for.
  static func noReminders(list: String?, due: String?, priority: String?) -> String {
    var what = "No open"
    if let priority { what += " \(priority) priority" }
    what += " reminders"
    if let list { what += " in the list \(list)" }
    switch due {
    case "overdue": what += " are overdue"
    case "today": what += " are due today"
    case "tomorrow": what += " are due tomorrow"
    case "week": what += " are due this week"
    default: break
    }
    return what + "."
  }
}
