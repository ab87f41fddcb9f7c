public import HearthCore

/// One field of an action's payload.
public struct ActionField: Sendable, Hashable {
  /// What a field holds, and so how it is checked and constrained.
  public enum FieldType: Sendable, Hashable {
    /// A short line of text (at most `limit` characters).
    case text(limit: Int)
    /// A local date-time, `2026-11-24T10:00`.
    case dateTime
    /// A local date, `2026-11-24`.
    case date
    /// A date or a date-time.
    case dateOrDateTime
    /// A whole number of minutes, 1…1440.
    case minutes
    /// One of a few words.
    case choice([String])
    /// A list of short words.
    case tags
  }

  public var name: String
  public var type: FieldType
  public var required: Bool

  public init(_ name: String, _ type: FieldType, required: Bool = false) {
    self.name = name
    self.type = type
    self.required = required
  }
}

/// What running an action does to the user's data.
public enum ActionEffect: String, Sendable, Hashable, Codable {
  /// Adds something: runs at once and can be undone.
  case creates
  /// Changes something that exists: waits for the user's confirmation.
  case changes
  /// Removes something: waits for the user's confirmation.
  case deletes
  /// Reads only: its results go to a second pass that writes the answer.
  case asks
}

/// One action of one kind: its name, its fields, its effect and a compact example for the prompt.
public struct ActionSpec: Sendable, Hashable {
  public var kind: ActionKind
  /// The value of the payload's `action` field; `nil` for kinds that do one thing (`CONTACTS_SEARCH`).
  public var action: String?
  public var fields: [ActionField]
  public var effect: ActionEffect
  /// A request a user might make, and the block that answers it.
  public var example: (request: String, payload: String)

  public static func == (lhs: ActionSpec, rhs: ActionSpec) -> Bool {
    lhs.kind == rhs.kind && lhs.action == rhs.action
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(action)
  }

  /// The fields that name an existing item: `id`, then `title` (or `name` for habits).
  public var targetFields: [String] { fields.map(\.name).filter { ["id", "title", "name", "about"].contains($0) } }

  /// Whether the action works on an item that must already exist.
  public var needsTarget: Bool {
    effect == .changes || effect == .deletes || (kind == .habit && action == "log")
  }

  /// Every action Hearth understands.
  public static let all: [ActionSpec] = calendar + reminders + notes + habits + searches + memory

  /// The specs of one kind.
  public static func specs(of kind: ActionKind) -> [ActionSpec] { all.filter { $0.kind == kind } }

  private static let title = ActionField("title", .text(limit: 120), required: true)
  private static let target: [ActionField] = [
    ActionField("id", .text(limit: 80)), ActionField("title", .text(limit: 120)),
  ]

  static let calendar: [ActionSpec] = [
    ActionSpec(
      kind: .calendar, action: "create",
      fields: [
        title, ActionField("start", .dateTime, required: true), ActionField("end", .dateTime),
        ActionField("location", .text(limit: 120)),
      ], effect: .creates,
      example: (
        "Lunch with Ana tomorrow at 12:30 for an hour",
        #"{"action":"create","title":"Lunch with Ana","start":"{{tomorrow}}T12:30","end":"{{tomorrow}}T13:30"}"#
      )),
    ActionSpec(
      kind: .calendar, action: "update",
      fields: target + [
        ActionField("start", .dateTime), ActionField("newTitle", .text(limit: 120)), ActionField("newStart", .dateTime),
        ActionField("newEnd", .dateTime), ActionField("location", .text(limit: 120)),
      ], effect: .changes,
      example: (
        "Move the dentist to Friday at 15:00", #"{"action":"update","title":"Dentist","newStart":"{{friday}}T15:00"}"#
      )),
    ActionSpec(
      kind: .calendar, action: "delete", fields: target + [ActionField("start", .dateTime)], effect: .deletes,
      example: ("Cancel the team lunch", #"{"action":"delete","title":"Team lunch"}"#)),
    ActionSpec(
      kind: .calendar, action: "query",
      fields: [
        ActionField("from", .dateOrDateTime), ActionField("to", .dateOrDateTime), ActionField("text", .text(limit: 80)),
      ],
      effect: .asks,
      example: ("What do I have on Friday?", #"{"action":"query","from":"{{friday}}","to":"{{friday}}"}"#)),
    ActionSpec(
      kind: .calendar, action: "free",
      fields: [
        ActionField("from", .dateOrDateTime), ActionField("to", .dateOrDateTime), ActionField("minutes", .minutes),
      ],
      effect: .asks,
      example: (
        "When am I free for an hour tomorrow?",
        #"{"action":"free","from":"{{tomorrow}}","to":"{{tomorrow}}","minutes":60}"#
      )),
    ActionSpec(
      kind: .calendar, action: "reschedule",
      fields: target + [ActionField("start", .dateTime), ActionField("minutes", .minutes)],
      effect: .changes,
      example: ("Push the review to my next free slot", #"{"action":"reschedule","title":"Review"}"#)),
  ]

  static let reminders: [ActionSpec] = [
    ActionSpec(
      kind: .reminder, action: "create",
      fields: [
        title, ActionField("due", .dateOrDateTime), ActionField("priority", .choice(["low", "medium", "high"])),
        ActionField("list", .text(limit: 60)),
      ], effect: .creates,
      example: ("Remind me to call mum tomorrow", #"{"action":"create","title":"Call mum","due":"{{tomorrow}}"}"#)),
    ActionSpec(
      kind: .reminder, action: "complete", fields: target, effect: .changes,
      example: ("I bought the milk", #"{"action":"complete","title":"Buy milk"}"#)),
    ActionSpec(
      kind: .reminder, action: "delete", fields: target, effect: .deletes,
      example: ("Forget the passport reminder", #"{"action":"delete","title":"Renew passport"}"#)),
    ActionSpec(
      kind: .reminder, action: "list",
      fields: [
        ActionField("list", .text(limit: 60)), ActionField("due", .choice(["overdue", "today", "tomorrow", "week"])),
        ActionField("priority", .choice(["low", "medium", "high"])),
      ], effect: .asks,
      example: ("What is on my to-do list?", #"{"action":"list"}"#)),
  ]

  static let notes: [ActionSpec] = [
    ActionSpec(
      kind: .note, action: "create",
      fields: [title, ActionField("body", .text(limit: 4000)), ActionField("tags", .tags)], effect: .creates,
      example: (
        "Note that the wifi password is tulip42", #"{"action":"create","title":"Wifi password","body":"tulip42"}"#
      )),
    ActionSpec(
      kind: .note, action: "append", fields: target + [ActionField("text", .text(limit: 4000), required: true)],
      effect: .changes,
      example: ("Add eggs to my shopping note", #"{"action":"append","title":"Shopping","text":"eggs"}"#)),
    ActionSpec(
      kind: .note, action: "update", fields: target + [ActionField("body", .text(limit: 4000), required: true)],
      effect: .changes,
      example: (
        "Replace my packing note with: passport, charger",
        #"{"action":"update","title":"Packing","body":"passport, charger"}"#
      )),
    ActionSpec(
      kind: .note, action: "delete", fields: target, effect: .deletes,
      example: ("Delete the note about the old flat", #"{"action":"delete","title":"Old flat"}"#)),
    ActionSpec(
      kind: .note, action: "search", fields: [ActionField("query", .text(limit: 80), required: true)], effect: .asks,
      example: ("What did I write about Lisbon?", #"{"action":"search","query":"Lisbon"}"#)),
  ]

  static let habits: [ActionSpec] = [
    ActionSpec(
      kind: .habit, action: "create",
      fields: [ActionField("name", .text(limit: 80), required: true), ActionField("schedule", .text(limit: 30))],
      effect: .creates,
      example: ("I want to run on Mondays and Thursdays", #"{"action":"create","name":"Run","schedule":"MO,TH"}"#)),
    ActionSpec(
      kind: .habit, action: "log",
      fields: [ActionField("id", .text(limit: 80)), ActionField("name", .text(limit: 80))],
      effect: .creates, example: ("I went for a run", #"{"action":"log","name":"Run"}"#)),
    ActionSpec(
      kind: .habit, action: "stats",
      fields: [ActionField("id", .text(limit: 80)), ActionField("name", .text(limit: 80))],
      effect: .asks, example: ("How is my reading streak?", #"{"action":"stats","name":"Read"}"#)),
  ]

  static let searches: [ActionSpec] = [
    ActionSpec(
      kind: .contactsSearch, action: nil, fields: [ActionField("query", .text(limit: 80), required: true)],
      effect: .asks,
      example: ("What is Anna's number?", #"{"query":"Anna"}"#)),
    ActionSpec(
      kind: .webSearch, action: nil, fields: [ActionField("query", .text(limit: 120), required: true)], effect: .asks,
      example: ("Search the web for the opening hours of the Louvre", #"{"query":"Louvre opening hours"}"#)),
  ]

  /// Facts about the user. A fact is named by its id or by words of it (`about`); its text is the user's own.
  static let memory: [ActionSpec] = [
    ActionSpec(
      kind: .memory, action: "remember",
      fields: [ActionField("text", .text(limit: 300), required: true), ActionField("until", .date)],
      effect: .creates,
      example: ("Remember that I'm allergic to nuts", #"{"action":"remember","text":"I'm allergic to nuts"}"#)),
    ActionSpec(
      kind: .memory, action: "update",
      fields: [
        ActionField("id", .text(limit: 80)), ActionField("about", .text(limit: 120)),
        ActionField("text", .text(limit: 300)), ActionField("until", .date),
      ],
      effect: .changes,
      example: (
        "Change my brother's name to Tomás",
        #"{"action":"update","about":"brother's name","text":"My brother's name is Tomás"}"#
      )),
    ActionSpec(
      kind: .memory, action: "forget",
      fields: [ActionField("id", .text(limit: 80)), ActionField("about", .text(limit: 120))], effect: .deletes,
      example: ("Forget that I'm allergic to nuts", #"{"action":"forget","about":"allergic to nuts"}"#)),
    ActionSpec(
      kind: .memory, action: "recall", fields: [ActionField("about", .text(limit: 120), required: true)],
      effect: .asks, example: ("What am I allergic to?", #"{"action":"recall","about":"allergic"}"#)),
  ]
}
