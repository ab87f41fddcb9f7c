import Foundation
public import HearthCore
import HearthStore

/// One day at a glance, taken from the user's data alone: the day's events, the free time between them within
/// working hours, reminders due that day and overdue ones, the habits to do, and birthdays in the week ahead.
/// Nothing in it is written by a model.
public struct Briefing: Sendable, Hashable, Codable {
  public struct Event: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// Wall-clock start and end in the profile's time zone (an all-day event's dates at midnight).
    public var start: LocalDateTime
    public var end: LocalDateTime
    public var isAllDay: Bool
    public var location: String?
  }

  public struct FreeSlot: Sendable, Hashable, Codable {
    public var start: LocalDateTime
    public var end: LocalDateTime
    public var minutes: Int
  }

  public struct Task: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var due: ReminderDue?
    public var priority: ReminderPriority
    public var list: String
  }

  public struct HabitToDo: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var schedule: String
    /// Whether it was checked in on the day already.
    public var done: Bool
  }

  public struct Birthday: Sendable, Hashable, Codable {
    public var contactID: String
    public var name: String
    /// The day of the birthday within the week ahead.
    public var date: LocalDate
    /// In how many days from the briefing's day (0: that day).
    public var inDays: Int
    /// The age reached, when the year of birth is known.
    public var turns: Int?
  }

  public var date: LocalDate
  public var timeZone: String
  public var events: [Event]
  /// Free time within working hours (what is left of it, for today).
  public var freeTime: [FreeSlot]
  /// Open reminders due on the day.
  public var due: [Task]
  /// Open reminders due before the day.
  public var overdue: [Task]
  /// Habits scheduled on the day (or still short of their times this week), done or not.
  public var habits: [HabitToDo]
  /// Birthdays from the day to six days after it.
  public var birthdays: [Birthday]
  /// Three or four things to ask about the day, made from the items above (never by a model): what is on
  /// tomorrow, preparing for the next event, checking in a habit, what is overdue.
  public var suggestions: [String]

  /// Whether there is nothing at all to say.
  public var isEmpty: Bool {
    events.isEmpty && due.isEmpty && overdue.isEmpty && habits.isEmpty && birthdays.isEmpty
  }
}

extension Engine {
  /// The briefing for `date` (today, in the profile's time zone, when `nil`).
  public func briefing(for date: LocalDate? = nil) throws -> Briefing {
    let zone = calendar.timeZone
    let day = date ?? LocalDate(configuration.clock(), in: zone)
    let start = LocalDateTime(startOf: day).instant(in: zone)
    let end = LocalDateTime(startOf: day.adding(days: 1)).instant(in: zone)
    let window = DateInterval(start: start, end: end)

    let events = try calendar.occurrences(in: window).map { occurrence in
      let event = occurrence.event
      return Briefing.Event(
        id: event.id, title: event.title,
        start: event.isAllDay ? occurrence.start : LocalDateTime(occurrence.startsAt, in: zone),
        end: event.isAllDay ? occurrence.end : LocalDateTime(occurrence.endsAt, in: zone), isAllDay: event.isAllDay,
        location: event.location)
    }
    // Today's free time is what is left of it.
    let now = configuration.clock()
    let freeWindow = window.contains(now) ? DateInterval(start: now, end: end) : window
    let free = try calendar.freeSlots(in: freeWindow).map { slot in
      Briefing.FreeSlot(
        start: LocalDateTime(slot.start, in: zone), end: LocalDateTime(slot.end, in: zone),
        minutes: Int((slot.duration / 60).rounded()))
    }

    let task = { (reminder: Reminder) in
      Briefing.Task(
        id: reminder.id, title: reminder.title, due: reminder.due, priority: reminder.priority, list: reminder.list)
    }
    let open = try reminders.list(includeCompleted: false).compactMap { reminder in
      reminder.due.map { (reminder, LocalDate($0.instant(local: zone), in: zone)) }
    }
    let due = open.filter { $0.1 == day }.map { task($0.0) }
    let overdue = open.filter { $0.1 < day }.map { task($0.0) }

    var habitsToDo: [Briefing.HabitToDo] = []
    for habit in try habits.list() {
      let stats = habit.stats(logs: try database.habitLogs(habit.id), today: day, zone: zone, windowDays: 7)
      let scheduled: Bool
      switch habit.schedule {
      case .daily, .days: scheduled = habit.schedule.isScheduled(on: day)
      case .timesPerWeek(let times):
        let weekStart = day.adding(days: -(Weekday.allCases.firstIndex(of: day.weekday) ?? 0))
        let doneThisWeek = stats.doneDays.filter { $0 >= weekStart && $0 < day }.count
        scheduled = doneThisWeek < times
      }
      guard scheduled else { continue }
      habitsToDo.append(
        Briefing.HabitToDo(id: habit.id, name: habit.name, schedule: habit.schedule.description, done: stats.doneToday))
    }

    var birthdays: [Briefing.Birthday] = []
    for contact in try contacts.list() {
      guard let birthday = contact.birthday else { continue }
      for offset in 0..<7 {
        let candidate = day.adding(days: offset)
        guard candidate.month == birthday.month, candidate.day == birthday.day else { continue }
        birthdays.append(
          Briefing.Birthday(
            contactID: contact.id, name: contact.fullName, date: candidate, inDays: offset,
            turns: birthday.year.map { candidate.year - $0 }))
      }
    }
    birthdays.sort { ($0.inDays, $0.name) < ($1.inDays, $1.name) }

    let upcoming = events.first { !$0.isAllDay && $0.start.instant(in: zone) > now }
    let tomorrow = try calendar.occurrences(in: DateInterval(start: end, duration: 86_400))
    let suggestions = [
      tomorrow.isEmpty ? nil : "What's on tomorrow?",
      (upcoming ?? (window.contains(now) ? nil : events.first { !$0.isAllDay })).map { "Prepare for \($0.title)" },
      habitsToDo.first { !$0.done }.map { "Check in: \($0.name)" },
      overdue.isEmpty ? (due.isEmpty ? nil : "What do I need to do today?") : "What's overdue?",
      events.isEmpty && tomorrow.isEmpty ? "When am I free this week?" : nil,
    ].compactMap { $0 }
    return Briefing(
      date: day, timeZone: zone.identifier, events: events, freeTime: free, due: due, overdue: overdue,
      habits: habitsToDo, birthdays: birthdays, suggestions: Array(suggestions.prefix(4)))
  }
}
