public import Foundation
public import HearthCore
public import HearthEngine

/// The profile every ``AssistantCase`` is asked on: a week of events around Thursday 2026-11-26, reminders,
/// notes, habits and contacts.
public enum AssistantProfile {
  /// The day most cases are asked on.
  public static let thursday = LocalDate(year: 2026, month: 11, day: 26)!

  /// An engine configuration for a profile under `home` whose clock stands at 09:00 UTC on `day`, as every
  /// evaluation on this profile asks.
  public static func configuration(
    home: URL, day: LocalDate = thursday, environment: [String: String] = [:]
  ) -> EngineConfiguration {
    var configuration = EngineConfiguration(paths: HearthPaths(home: home), environment: environment)
    configuration.timeZone = TimeZone(identifier: "UTC")!
    let morning = LocalDateTime(startOf: day).adding(seconds: 9 * 3600).instant(in: configuration.timeZone)
    configuration.clock = { morning }
    return configuration
  }

  /// Fills an empty profile.
  public static func seed(_ engine: Engine) throws {
    func at(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }
    func event(
      _ title: String, _ start: String, _ end: String, location: String? = nil, notes: String? = nil
    )
      throws
    {
      _ = try engine.calendar.create(
        CalendarEvent(title: title, start: at(start), end: at(end), location: location, notes: notes))
    }
    try event("Haircut", "2026-11-26T15:00", "2026-11-26T15:45")
    try event("Lunch with Priya", "2026-11-27T12:30", "2026-11-27T13:30", location: "Cafe Nero")
    try event("Yoga class", "2026-11-28T10:00", "2026-11-28T11:00")
    try event("Dinner with Marco", "2026-11-28T19:30", "2026-11-28T21:30")
    _ = try engine.calendar.create(
      CalendarEvent(
        title: "Team meeting", start: at("2026-11-30T09:00"), end: at("2026-11-30T10:00"), location: "Room 4",
        notes: "Weekly sync with Sam", calendar: "Work"))
    try event("Dentist", "2026-12-01T10:00", "2026-12-01T11:00", location: "Smile Clinic")
    try event("Flight to Lisbon", "2026-12-09T07:15", "2026-12-09T09:45")
    _ = try engine.calendar.create(
      CalendarEvent(
        title: "Mum's birthday", start: at("2026-12-03T00:00"), end: at("2026-12-04T00:00"), isAllDay: true))
    _ = try engine.reminders.create(Reminder(title: "Buy milk", due: ReminderDue(date: thursday)))
    _ = try engine.reminders.create(
      Reminder(title: "Renew passport", due: ReminderDue(date: LocalDate(year: 2026, month: 12, day: 5)!)))
    _ = try engine.reminders.create(Reminder(title: "Call the plumber", list: "Home"))
    _ = try engine.reminders.create(
      Reminder(
        title: "Pay the electricity bill", due: ReminderDue(date: LocalDate(year: 2026, month: 11, day: 23)!),
        priority: .high, list: "Home"))
    _ = try engine.notes.create(Note(title: "Shopping", body: "bread, butter"))
    _ = try engine.notes.create(Note(title: "Lisbon trip", body: "Hotel near Alfama, booking reference 7731"))
    _ = try engine.notes.create(Note(title: "Wifi password", body: "The wifi password is tulip42"))
    _ = try engine.habits.create(Habit(name: "Run", schedule: .days([.monday, .thursday])))
    _ = try engine.habits.create(Habit(name: "Read", schedule: .daily))
    _ = try engine.contacts.create(
      Contact(
        fullName: "Anna Martin", phones: [LabeledValue("+33 6 12 34 56 78", label: "cell")],
        organization: "Atelier Lumen", notes: "Met at the pottery course in Lyon"))
    _ = try engine.contacts.create(
      Contact(
        fullName: "Marco Rossi", phones: [LabeledValue("+39 333 123 4567", label: "cell")],
        emails: [LabeledValue("marco@example.com", label: "home")], organization: "Rossi & Figli"))
    _ = try engine.contacts.create(
      Contact(
        fullName: "Priya Shah", phones: [LabeledValue("+44 7700 900123", label: "cell")],
        emails: [LabeledValue("priya@example.org", label: "work")], birthday: Birthday(year: 1990, month: 12, day: 2),
        organization: "Northwind Labs"))
  }

  /// Every record of a seeded profile as a line, its name first then `|` and its fields: what any answer about the
  /// profile may state.
  public static func records(_ engine: Engine) throws -> [String] {
    var lines: [String] = []
    for event in try engine.calendar.events() {
      let fields = [
        event.start.description, event.end.description, event.location, event.notes, event.calendar,
        event.isAllDay ? "all day" : nil,
      ]
      lines.append(event.title + "|" + fields.compactMap { $0 }.joined(separator: " | "))
    }
    for reminder in try engine.reminders.list() {
      let fields = [reminder.due?.description, reminder.priority.rawValue, reminder.list, reminder.notes]
      lines.append(reminder.title + "|" + fields.compactMap { $0 }.joined(separator: " | "))
    }
    for note in try engine.notes.list() { lines.append(note.title + "|" + note.body) }
    for habit in try engine.habits.list() { lines.append(habit.name + "|") }
    for contact in try engine.contacts.list() {
      let fields =
        contact.phones.map(\.value) + contact.emails.map(\.value)
        + [contact.birthday?.description, contact.organization, contact.notes].compactMap { $0 }
      lines.append(contact.fullName + "|" + fields.joined(separator: " | "))
    }
    return lines
  }
}
