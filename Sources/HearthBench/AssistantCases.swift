public import HearthCore

/// An everyday request to the assistant, asked on a seeded profile (``AssistantProfile``) on a fixed day, and
/// what a right answer does: the action it takes with its fields, the facts its answer states, or nothing.
public struct AssistantCase: Sendable {
  /// What sort of request it is, for the table.
  public enum Category: String, Sendable, CaseIterable, Codable {
    case schedule = "schedule questions"
    case lookups = "other questions"
    case creations = "creations"
    case changes = "moves & cancellations"
    case checkIns = "check-ins"
    case plain = "nothing asked"
  }

  /// What a right answer does.
  public enum Expected: Sendable {
    /// Writes one block of this kind and action whose fields match: a value, `a|b` for either, `~word` for a
    /// text that contains the word (all without regard to case).
    case action(ActionKind, String?, fields: [String: String])
    /// Asks the data with a block of this kind and action; the answer states every fact and none of `absent`.
    case answer(ActionKind, String?, facts: [String], absent: [String] = [])
    /// Writes no block; the answer says each of `saying`.
    case nothing(saying: [String] = [])
  }

  public var request: String
  public var category: Category
  public var expected: Expected
  /// The day it is asked on (09:00 on the user's clock).
  public var today: LocalDate
  /// One of the requests a report of the assistant's misreadings named.
  public var isReported: Bool

  public init(
    _ request: String, _ category: Category, _ expected: Expected, today: LocalDate = AssistantProfile.thursday,
    reported: Bool = false
  ) {
    self.request = request
    self.category = category
    self.expected = expected
    self.today = today
    self.isReported = reported
  }

  /// 84 requests the rules were written and tuned on.
  public static let tuned: [AssistantCase] = schedule + lookups + creations + changes + checkIns + plain

  static let schedule: [AssistantCase] = [
    .init(
      "What is on my calendar this week?", .schedule,
      .answer(
        .calendar, "query", facts: ["Lunch with Priya", "Yoga class", "Dinner with Marco"], absent: ["Team meeting"]),
      reported: true),
    .init(
      "When is my dentist appointment?", .schedule,
      .answer(.calendar, "query", facts: ["Dentist", "2026-12-01", "10:00"]), reported: true),
    .init(
      "Do I have anything on Saturday?", .schedule,
      .answer(.calendar, "query", facts: ["Yoga class", "Dinner with Marco"]), reported: true),
    .init("What do I have tomorrow?", .schedule, .answer(.calendar, "query", facts: ["Lunch with Priya"])),
    .init(
      "What's on next week?", .schedule,
      .answer(.calendar, "query", facts: ["Team meeting", "Dentist", "Mum's birthday"], absent: ["Yoga class"])),
    .init(
      "Am I busy this weekend?", .schedule, .answer(.calendar, "query", facts: ["Yoga class", "Dinner with Marco"])),
    .init("What do I have on Monday?", .schedule, .answer(.calendar, "query", facts: ["Team meeting", "09:00"])),
    .init(
      "When is lunch with Priya?", .schedule,
      .answer(.calendar, "query", facts: ["Lunch with Priya", "2026-11-27", "12:30"])),
    .init(
      "When is the meeting with Sam?", .schedule, .answer(.calendar, "query", facts: ["Team meeting", "2026-11-30"])),
    .init("Where is my dentist appointment?", .schedule, .answer(.calendar, "query", facts: ["Smile Clinic"])),
    .init("What do I have on December 3?", .schedule, .answer(.calendar, "query", facts: ["Mum's birthday"])),
    .init(
      "Anything planned for tomorrow evening?", .schedule,
      .answer(.calendar, "query", facts: ["Nothing is planned"], absent: ["Lunch with Priya"])),
    .init(
      "What's on Saturday evening?", .schedule,
      .answer(.calendar, "query", facts: ["Dinner with Marco"], absent: ["Yoga class"])),
    .init(
      "When is my flight to Lisbon?", .schedule,
      .answer(.calendar, "query", facts: ["Flight to Lisbon", "2026-12-09", "07:15"])),
    .init("What do I have on the 9th?", .schedule, .answer(.calendar, "query", facts: ["Flight to Lisbon"])),
    .init("Do I have anything today?", .schedule, .answer(.calendar, "query", facts: ["Haircut", "15:00"])),
    .init("Am I free tomorrow afternoon?", .schedule, .answer(.calendar, "free", facts: ["Fri 2026-11-27"])),
    .init(
      "What is on my schedule next Friday?", .schedule, .answer(.calendar, "query", facts: ["Nothing is planned"])),
    .init("When is the yoga class?", .schedule, .answer(.calendar, "query", facts: ["Yoga class", "2026-11-28"])),
    .init(
      "What's happening in three days?", .schedule, .answer(.calendar, "query", facts: ["Nothing is planned"])),
  ]

  static let lookups: [AssistantCase] = [
    .init("What's Marco's number?", .lookups, .answer(.contactsSearch, nil, facts: ["+39 333 123 4567"])),
    .init("What is Anna's phone number?", .lookups, .answer(.contactsSearch, nil, facts: ["+33 6 12 34 56 78"])),
    .init("What's Priya's email?", .lookups, .answer(.contactsSearch, nil, facts: ["priya@example.org"])),
    .init("When is Priya's birthday?", .lookups, .answer(.contactsSearch, nil, facts: ["1990-12-02"])),
    .init(
      "What's on my to-do list?", .lookups,
      .answer(.reminder, "list", facts: ["Buy milk", "Renew passport", "Call the plumber"])),
    .init("What are my reminders?", .lookups, .answer(.reminder, "list", facts: ["Buy milk"])),
    .init("How is my running streak?", .lookups, .answer(.habit, "stats", facts: ["Run"])),
    .init("What did I write about Lisbon?", .lookups, .answer(.note, "search", facts: ["Alfama"])),
    .init("What's the wifi password?", .lookups, .answer(.note, "search", facts: ["tulip42"])),
    .init("What's Marco's email address?", .lookups, .answer(.contactsSearch, nil, facts: ["marco@example.com"])),
    .init("Do I have any reminders due today?", .lookups, .answer(.reminder, "list", facts: ["Buy milk"])),
    .init("How am I doing with my reading habit?", .lookups, .answer(.habit, "stats", facts: ["Read"])),
  ]

  static let creations: [AssistantCase] = [
    .init(
      "Schedule a call with Marco on Saturday at 4pm", .creations,
      .action(.calendar, "create", fields: ["title": "Call with Marco", "start": "2026-11-28T16:00"]), reported: true),
    .init(
      "Add a dentist appointment on Friday at 3pm", .creations,
      .action(.calendar, "create", fields: ["title": "Dentist appointment|Dentist", "start": "2026-11-27T15:00"]),
      reported: true),
    .init(
      "Add a meeting with Sam tomorrow at 10 for an hour", .creations,
      .action(
        .calendar, "create",
        fields: ["title": "Meeting with Sam", "start": "2026-11-27T10:00", "end": "2026-11-27T11:00"])),
    .init(
      "Put lunch with Ana on Wednesday at 12:30", .creations,
      .action(.calendar, "create", fields: ["title": "Lunch with Ana", "start": "2026-12-02T12:30"])),
    .init(
      "Book a haircut next Friday at 11am", .creations,
      .action(.calendar, "create", fields: ["title": "Haircut", "start": "2026-12-04T11:00"])),
    .init(
      "Plan a team review tomorrow from 3 to 4:30", .creations,
      .action(
        .calendar, "create", fields: ["title": "Team review", "start": "2026-11-27T15:00", "end": "2026-11-27T16:30"])),
    .init(
      "Add gym on Monday at 7 in the morning", .creations,
      .action(.calendar, "create", fields: ["title": "Gym", "start": "2026-11-30T07:00"])),
    .init(
      "Create an event called Book club on December 10 at 19:00", .creations,
      .action(.calendar, "create", fields: ["title": "Book club", "start": "2026-12-10T19:00"])),
    .init(
      "Schedule a two-hour workshop on the 8th at 9", .creations,
      .action(
        .calendar, "create", fields: ["title": "Workshop", "start": "2026-12-08T09:00", "end": "2026-12-08T11:00"])),
    .init(
      "Dinner with Anna tomorrow at 7", .creations,
      .action(.calendar, "create", fields: ["title": "Dinner with Anna", "start": "2026-11-27T19:00"])),
    .init(
      "Add a doctor's appointment on 4/12 at 2pm", .creations,
      .action(.calendar, "create", fields: ["title": "~doctor", "start": "2026-12-04T14:00"])),
    .init(
      "Remind me to call mum tomorrow", .creations,
      .action(.reminder, "create", fields: ["title": "Call mum", "due": "2026-11-27"])),
    .init(
      "Remind me to pay rent on the 1st", .creations,
      .action(.reminder, "create", fields: ["title": "Pay rent", "due": "2026-12-01"])),
    .init(
      "Remind me tomorrow at 9 to call the bank", .creations,
      .action(.reminder, "create", fields: ["title": "Call the bank", "due": "2026-11-27T09:00"])),
    .init(
      "Add a reminder to water the plants on Sunday", .creations,
      .action(.reminder, "create", fields: ["title": "Water the plants", "due": "2026-11-29"])),
    .init(
      "Remind me to buy a gift for mum next week", .creations,
      .action(.reminder, "create", fields: ["title": "Buy a gift for mum", "due": "2026-11-30"])),
    .init("Note that the gate code is 4512", .creations, .action(.note, "create", fields: ["body": "~4512"])),
    .init(
      "Write down that Sam likes green tea", .creations, .action(.note, "create", fields: ["body": "~green tea"])),
    .init(
      "I want to start meditating every day", .creations,
      .action(.habit, "create", fields: ["name": "~meditat", "schedule": "daily"])),
    .init(
      "Track a new habit: stretching on Mondays and Fridays", .creations,
      .action(.habit, "create", fields: ["name": "~stretch", "schedule": "MO,FR"])),
  ]

  static let changes: [AssistantCase] = [
    .init(
      "Move my dentist appointment to 4pm", .changes,
      .action(.calendar, "update", fields: ["title": "Dentist", "newStart": "2026-12-01T16:00"]), reported: true),
    .init(
      "Move the dentist to Friday", .changes,
      .action(.calendar, "update", fields: ["title": "Dentist", "newStart": "2026-11-27T10:00"])),
    .init(
      "Reschedule lunch with Priya to 1pm", .changes,
      .action(.calendar, "update", fields: ["title": "Lunch with Priya", "newStart": "2026-11-27T13:00"])),
    .init(
      "Move the team meeting to Tuesday at 11", .changes,
      .action(.calendar, "update", fields: ["title": "Team meeting", "newStart": "2026-12-01T11:00"])),
    .init(
      "Push the yoga class to Sunday at 10", .changes,
      .action(.calendar, "update", fields: ["title": "Yoga class", "newStart": "2026-11-29T10:00"])),
    .init("Cancel dinner with Marco", .changes, .action(.calendar, "delete", fields: ["title": "Dinner with Marco"])),
    .init("Cancel my dentist appointment", .changes, .action(.calendar, "delete", fields: ["title": "Dentist"])),
    .init("Delete the yoga class", .changes, .action(.calendar, "delete", fields: ["title": "Yoga class"])),
    .init(
      "Remove the flight to Lisbon from my calendar", .changes,
      .action(.calendar, "delete", fields: ["title": "Flight to Lisbon"])),
    .init("I bought the milk", .changes, .action(.reminder, "complete", fields: ["title": "Buy milk"])),
    .init("I renewed my passport", .changes, .action(.reminder, "complete", fields: ["title": "Renew passport"])),
    .init(
      "Delete the reminder about the plumber", .changes,
      .action(.reminder, "delete", fields: ["title": "Call the plumber"])),
    .init(
      "Add eggs to my shopping note", .changes,
      .action(.note, "append", fields: ["title": "Shopping", "text": "~eggs"])),
    .init(
      "Delete the note about the wifi password", .changes, .action(.note, "delete", fields: ["title": "Wifi password"])),
    .init(
      "Rename the team meeting to Weekly sync", .changes,
      .action(.calendar, "update", fields: ["title": "Team meeting", "newTitle": "Weekly sync"])),
    .init(
      "Move lunch with Priya to next Friday", .changes,
      .action(.calendar, "update", fields: ["title": "Lunch with Priya", "newStart": "2026-12-04T12:30"])),
  ]

  static let checkIns: [AssistantCase] = [
    .init("I went for a run", .checkIns, .action(.habit, "log", fields: ["name": "Run"])),
    .init("Check in my reading habit", .checkIns, .action(.habit, "log", fields: ["name": "Read"])),
    .init("Done with my run today", .checkIns, .action(.habit, "log", fields: ["name": "Run"])),
    .init("I did my reading", .checkIns, .action(.habit, "log", fields: ["name": "Read"])),
  ]

  static let plain: [AssistantCase] = [
    .init("What is the capital of France?", .plain, .nothing(saying: ["Paris"])),
    .init("How do I run a good meeting?", .plain, .nothing()),
    .init("Tell me a joke", .plain, .nothing()),
    .init("What should I cook for lunch?", .plain, .nothing()),
    .init("Add 2 and 3", .plain, .nothing()),
    .init("Translate 'good morning' into French", .plain, .nothing()),
    .init("What is a calendar year?", .plain, .nothing()),
    .init("Write a haiku about Saturday mornings", .plain, .nothing()),
    .init("Explain what an appointment reminder is", .plain, .nothing()),
    .init("How many days are in December?", .plain, .nothing()),
    .init("Who wrote Hamlet?", .plain, .nothing()),
    .init("What time is it in Tokyo?", .plain, .nothing()),
  ]
}

extension AssistantCase {
  /// 40 requests written after the rules were tuned, and never tuned on.
  public static let heldOut: [AssistantCase] = [
    // Schedule questions.
    .init("What have I got on Friday?", .schedule, .answer(.calendar, "query", facts: ["Lunch with Priya"])),
    .init(
      "Is there anything on my calendar for Sunday?", .schedule,
      .answer(.calendar, "query", facts: ["Nothing is planned"])),
    .init("What time is my haircut?", .schedule, .answer(.calendar, "query", facts: ["Haircut", "15:00"])),
    .init(
      "When's dinner with Marco?", .schedule, .answer(.calendar, "query", facts: ["Dinner with Marco", "19:30"])),
    .init(
      "Show me my schedule for tomorrow", .schedule, .answer(.calendar, "query", facts: ["Lunch with Priya"])),
    .init(
      "What do I have on Tuesday morning?", .schedule,
      .answer(.calendar, "query", facts: ["Dentist"], absent: ["Team meeting"])),
    .init(
      "What's on my calendar next month?", .schedule,
      .answer(.calendar, "query", facts: ["Dentist", "Flight to Lisbon"], absent: ["Yoga class"])),
    .init(
      "Do I have plans on Saturday night?", .schedule,
      .answer(.calendar, "query", facts: ["Dinner with Marco"], absent: ["Yoga class"])),
    .init(
      "Where is the team meeting?", .schedule, .answer(.calendar, "query", facts: ["Room 4"])),
    .init(
      "What do I have on 1 December?", .schedule, .answer(.calendar, "query", facts: ["Dentist"])),
    .init(
      "Am I free on Monday for two hours?", .schedule, .answer(.calendar, "free", facts: ["Mon 2026-11-30"])),
    .init(
      "What is on this weekend?", .schedule,
      .answer(.calendar, "query", facts: ["Yoga class", "Dinner with Marco"]),
      today: LocalDate(year: 2026, month: 11, day: 27)!),
    // Other questions.
    .init("Give me Anna's number", .lookups, .answer(.contactsSearch, nil, facts: ["+33 6 12 34 56 78"])),
    .init("What's Priya's phone number?", .lookups, .answer(.contactsSearch, nil, facts: ["+44 7700 900123"])),
    .init("Show my reminders", .lookups, .answer(.reminder, "list", facts: ["Renew passport"])),
    .init("What did I note about the shopping?", .lookups, .answer(.note, "search", facts: ["bread"])),
    .init("What's my reading streak?", .lookups, .answer(.habit, "stats", facts: ["Read"])),
    // Creations.
    .init(
      "Add coffee with Anna on Monday at 11", .creations,
      .action(.calendar, "create", fields: ["title": "Coffee with Anna", "start": "2026-11-30T11:00"])),
    .init(
      "Schedule a meeting with the landlord next Tuesday at 2pm", .creations,
      .action(.calendar, "create", fields: ["title": "Meeting with the landlord", "start": "2026-12-01T14:00"])),
    .init(
      "Put a 30 minute call with Sam on Friday at 9:30", .creations,
      .action(
        .calendar, "create",
        fields: ["title": "~call with sam", "start": "2026-11-27T09:30", "end": "2026-11-27T10:00"])),
    .init(
      "Book tennis on Sunday from 10 to 11:30", .creations,
      .action(
        .calendar, "create", fields: ["title": "Tennis", "start": "2026-11-29T10:00", "end": "2026-11-29T11:30"])),
    .init(
      "Add a team lunch on December 18 at noon", .creations,
      .action(.calendar, "create", fields: ["title": "Team lunch", "start": "2026-12-18T12:00"])),
    .init(
      "Remind me to send the invoice on Monday", .creations,
      .action(.reminder, "create", fields: ["title": "Send the invoice", "due": "2026-11-30"])),
    .init(
      "Remind me at 6pm to take out the bins", .creations,
      .action(.reminder, "create", fields: ["title": "Take out the bins", "due": "2026-11-26T18:00"])),
    .init(
      "Remind me to book a table for Saturday", .creations,
      .action(.reminder, "create", fields: ["title": "~book a table"])),
    .init("Note that the car is parked on level 3", .creations, .action(.note, "create", fields: ["body": "~level 3"])),
    .init(
      "I'd like to start journaling every evening", .creations,
      .action(.habit, "create", fields: ["name": "~journal"])),
    // Moves and cancellations.
    .init(
      "Move the yoga class to 11am", .changes,
      .action(.calendar, "update", fields: ["title": "Yoga class", "newStart": "2026-11-28T11:00"])),
    .init(
      "Can you move dinner with Marco to Sunday at 8pm?", .changes,
      .action(.calendar, "update", fields: ["title": "Dinner with Marco", "newStart": "2026-11-29T20:00"])),
    .init("Cancel lunch with Priya", .changes, .action(.calendar, "delete", fields: ["title": "Lunch with Priya"])),
    .init("Delete my haircut", .changes, .action(.calendar, "delete", fields: ["title": "Haircut"])),
    .init("I called the plumber", .changes, .action(.reminder, "complete", fields: ["title": "Call the plumber"])),
    .init("Forget the reminder to buy milk", .changes, .action(.reminder, "delete", fields: ["title": "Buy milk"])),
    // Check-ins.
    .init("I finished my run", .checkIns, .action(.habit, "log", fields: ["name": "Run"])),
    .init("I read for 20 minutes today", .checkIns, .action(.habit, "log", fields: ["name": "Read"])),
    // Nothing asked.
    .init("What is the boiling point of water?", .plain, .nothing()),
    .init("Give me three tips for sleeping better", .plain, .nothing()),
    .init("What day of the week comes after Friday?", .plain, .nothing()),
    .init("How long is a marathon?", .plain, .nothing()),
    .init("Why do people keep a calendar?", .plain, .nothing()),
  ]
}
