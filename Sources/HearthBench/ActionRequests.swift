public import HearthCore

/// A request to the assistant and the block that answers it correctly, for measuring how reliably a model
/// acts. Written before any tuning; "today" is Monday 2026-11-23.
public struct ActionRequest: Sendable {
  public var text: String
  /// `nil`: no block should be written.
  public var kind: ActionKind?
  public var action: String?
  /// Fields that must equal these values exactly.
  public var exact: [String: String]
  /// Fields whose text must contain these words (lower-cased).
  public var containing: [String: String]

  init(
    _ text: String, _ kind: ActionKind?, _ action: String? = nil, exact: [String: String] = [:],
    containing: [String: String] = [:]
  ) {
    self.text = text
    self.kind = kind
    self.action = action
    self.exact = exact
    self.containing = containing
  }

  /// The day the requests speak from.
  public static let today = LocalDate(year: 2026, month: 11, day: 23)!

  /// 44 requests: every kind, create / change / delete / ask, relative dates, and two that ask for nothing.
  public static let all: [ActionRequest] = [
    .init(
      "Add a meeting with Sam tomorrow at 10 for an hour", .calendar, "create",
      exact: ["start": "2026-11-24T10:00", "end": "2026-11-24T11:00"], containing: ["title": "sam"]),
    .init(
      "Schedule a dentist appointment on Friday at 3pm", .calendar, "create", exact: ["start": "2026-11-27T15:00"],
      containing: ["title": "dentist"]),
    .init(
      "Put lunch with Ana on Wednesday at 12:30", .calendar, "create", exact: ["start": "2026-11-25T12:30"],
      containing: ["title": "ana"]),
    .init(
      "Book a call with the bank tomorrow at 9", .calendar, "create", exact: ["start": "2026-11-24T09:00"],
      containing: ["title": "bank"]),
    .init(
      "Create an event called Piano lesson on Thursday at 17:00", .calendar, "create",
      exact: ["start": "2026-11-26T17:00"], containing: ["title": "piano"]),
    .init(
      "Add gym on Saturday at 8 in the morning", .calendar, "create", exact: ["start": "2026-11-28T08:00"],
      containing: ["title": "gym"]),
    .init(
      "I have a haircut on Tuesday at 14:00, add it", .calendar, "create", exact: ["start": "2026-11-24T14:00"],
      containing: ["title": "haircut"]),
    .init(
      "Plan a team review tomorrow from 15:00 to 16:30", .calendar, "create",
      exact: ["start": "2026-11-24T15:00", "end": "2026-11-24T16:30"], containing: ["title": "review"]),
    .init(
      "Move the dentist to Friday at 15:00", .calendar, "update", exact: ["newStart": "2026-11-27T15:00"],
      containing: ["title": "dentist"]),
    .init(
      "Reschedule the team lunch to Friday at 13:00", .calendar, "update", exact: ["newStart": "2026-11-27T13:00"],
      containing: ["title": "lunch"]),
    .init(
      "Change the yoga class to Wednesday at 19:00", .calendar, "update", exact: ["newStart": "2026-11-25T19:00"],
      containing: ["title": "yoga"]),
    .init(
      "Rename the dentist appointment to Orthodontist", .calendar, "update",
      containing: ["title": "dentist", "newTitle": "orthodontist"]),
    .init("Cancel the team lunch", .calendar, "delete", containing: ["title": "lunch"]),
    .init("Delete my yoga class", .calendar, "delete", containing: ["title": "yoga"]),
    .init("Remove the dentist appointment from my calendar", .calendar, "delete", containing: ["title": "dentist"]),
    .init("What do I have tomorrow?", .calendar, "query", exact: ["from": "2026-11-24"]),
    .init("What's on my calendar on Friday?", .calendar, "query", exact: ["from": "2026-11-27"]),
    .init("Show my events for today", .calendar, "query", exact: ["from": "2026-11-23"]),
    .init("When is my dentist appointment?", .calendar, "query", containing: ["text": "dentist"]),
    .init("When am I free tomorrow for an hour?", .calendar, "free", exact: ["from": "2026-11-24", "minutes": "60"]),
    .init("Find me 30 free minutes on Thursday", .calendar, "free", exact: ["from": "2026-11-26", "minutes": "30"]),
    .init(
      "Remind me to call mum tomorrow", .reminder, "create", exact: ["due": "2026-11-24"], containing: ["title": "mum"]),
    .init(
      "Remind me to pay the rent on Friday", .reminder, "create", exact: ["due": "2026-11-27"],
      containing: ["title": "rent"]),
    .init("Add a reminder to buy bread", .reminder, "create", containing: ["title": "bread"]),
    .init(
      "Remind me to water the plants tomorrow at 8", .reminder, "create", exact: ["due": "2026-11-24T08:00"],
      containing: ["title": "plants"]),
    .init("I bought the milk", .reminder, "complete", containing: ["title": "milk"]),
    .init("Delete the reminder about the passport", .reminder, "delete", containing: ["title": "passport"]),
    .init("What is on my to-do list?", .reminder, "list"),
    .init("Note that the wifi password is tulip42", .note, "create", containing: ["title": "wifi", "body": "tulip42"]),
    .init("Make a note: Anna likes green tea", .note, "create", containing: ["body": "green tea"]),
    .init("Add eggs to my shopping note", .note, "append", containing: ["title": "shopping", "text": "eggs"]),
    .init("What did I write about Lisbon?", .note, "search", containing: ["query": "lisbon"]),
    .init("Search my notes for the garage code", .note, "search", containing: ["query": "garage"]),
    .init("Delete the note about the old flat", .note, "delete", containing: ["title": "flat"]),
    .init(
      "I want to start running every Monday and Thursday", .habit, "create", exact: ["schedule": "MO,TH"],
      containing: ["name": "run"]),
    .init("I went for a run", .habit, "log", containing: ["name": "run"]),
    .init("Track a new habit: read every day", .habit, "create", containing: ["name": "read"]),
    .init("How is my running streak?", .habit, "stats", containing: ["name": "run"]),
    .init("What is Anna's phone number?", .contactsSearch, containing: ["query": "anna"]),
    .init("Find Bao's email address", .contactsSearch, containing: ["query": "bao"]),
    .init("Do I have a contact at Acme?", .contactsSearch, containing: ["query": "acme"]),
    .init("When is Anna's birthday?", .contactsSearch, containing: ["query": "anna"]),
    .init("What is the capital of France?", nil),
    .init("Tell me a short joke", nil),
  ]

  /// 16 more, written after the first step was tuned on `all` and never tuned on: how well it generalises.
  public static let heldOut: [ActionRequest] = [
    .init(
      "Set up a meeting with Priya on Thursday at 11", .calendar, "create", exact: ["start": "2026-11-26T11:00"],
      containing: ["title": "priya"]),
    .init(
      "Add a doctor appointment tomorrow at 4pm", .calendar, "create", exact: ["start": "2026-11-24T16:00"],
      containing: ["title": "doctor"]),
    .init(
      "Schedule a 30 minute call with Leo on Friday at 10:00", .calendar, "create",
      exact: ["start": "2026-11-27T10:00", "end": "2026-11-27T10:30"], containing: ["title": "leo"]),
    .init(
      "Push the yoga class to Sunday at 10", .calendar, "update", exact: ["newStart": "2026-11-29T10:00"],
      containing: ["title": "yoga"]),
    .init("Please cancel my dentist appointment", .calendar, "delete", containing: ["title": "dentist"]),
    .init("Am I free on Wednesday for two hours?", .calendar, "free", exact: ["from": "2026-11-25", "minutes": "120"]),
    .init("What meetings do I have on Thursday?", .calendar, "query", exact: ["from": "2026-11-26"]),
    .init(
      "Remind me to book the car service on Saturday", .reminder, "create", exact: ["due": "2026-11-28"],
      containing: ["title": "car"]),
    .init(
      "Can you remind me to send the invoice tomorrow at 9?", .reminder, "create", exact: ["due": "2026-11-24T09:00"],
      containing: ["title": "invoice"]),
    .init("Show me my reminders", .reminder, "list"),
    .init("Write down a note: the bike lock code is 4411", .note, "create", containing: ["body": "4411"]),
    .init("Find my notes about the old flat", .note, "search", containing: ["query": "flat"]),
    .init(
      "I want a new habit: meditate every day", .habit, "create", exact: ["schedule": "daily"],
      containing: ["name": "meditate"]),
    .init("What's Anna's email?", .contactsSearch, containing: ["query": "anna"]),
    .init("How tall is the Eiffel Tower?", nil),
    .init("Add 2 and 3 for me", nil),
  ]

  /// How a written answer measures against this request.
  public func score(_ answer: String) -> (parsed: Bool, rightKind: Bool, correct: Bool) {
    let blocks = ActionBlockParser.parse(answer).blocks
    guard let kind else { return (blocks.isEmpty, blocks.isEmpty, blocks.isEmpty) }
    guard let block = blocks.first else { return (false, false, false) }
    let payload = block.payload
    let rightKind = block.kind == kind && (action == nil || payload["action"]?.stringValue == action)
    guard rightKind else { return (true, false, false) }
    func text(_ field: String) -> String? {
      payload[field]?.stringValue ?? payload[field]?.numberValue.map { String(Int($0)) }
    }
    let exactOK = exact.allSatisfy { text($0.key) == $0.value }
    let containsOK = containing.allSatisfy { field, words in
      // A target may be named by title or name.
      let value = (text(field) ?? (field == "title" ? text("name") : nil) ?? "").lowercased()
      return value.contains(words)
    }
    return (true, true, exactOK && containsOK)
  }
}
