public import HearthActions
public import HearthCore

/// One tool Hearth offers over MCP: an action of the user's data (the same ``ActionSpec`` the assistant's
/// own blocks follow) or a search of its memory.
public struct HearthTool: Sendable, Hashable {
  /// What calling the tool does.
  public enum Work: Sendable, Hashable {
    /// Runs one action of this kind and name, under Hearth's consent rules.
    case action(ActionSpec)
    /// Searches memory (notes, documents, past conversations) and cites what it found.
    case memorySearch
  }

  /// The tool's name, `calendar_create`.
  public var name: String
  public var description: String
  /// The JSON schema of its arguments.
  public var inputSchema: JSONValue
  public var work: Work

  /// Whether the tool only reads: it never changes anything, so clients may call it without asking.
  public var readsOnly: Bool {
    switch work {
    case .action(let spec): spec.effect == .asks
    case .memorySearch: true
    }
  }

  /// Whether calling it may remove or overwrite something (after the user's confirmation in Hearth).
  public var isDestructive: Bool {
    if case .action(let spec) = work { return spec.effect == .deletes || spec.effect == .changes }
    return false
  }

  /// Every tool: each action of every kind except web searches (another assistant has its own), and memory.
  public static let all: [HearthTool] =
    ActionSpec.all.filter { $0.kind != .webSearch }.map(HearthTool.init(spec:)) + [memorySearch]

  /// The tool with this name.
  public static func named(_ name: String) -> HearthTool? { all.first { $0.name == name } }

  init(spec: ActionSpec) {
    let prefix =
      switch spec.kind {
      case .calendar: "calendar"
      case .reminder: "reminders"
      case .note: "notes"
      case .habit: "habits"
      case .contactsSearch: "contacts"
      case .webSearch: "web"
      case .toolCall: "tool"
      case .memory: "facts"
      }
    name = "\(prefix)_\(spec.action ?? "search")"
    description = Self.descriptions[name] ?? "Runs the \(spec.kind.rawValue) action \(spec.action ?? "")."
    inputSchema = Self.arguments(of: spec)
    work = .action(spec)
  }

  private init(name: String, description: String, inputSchema: JSONValue, work: Work) {
    self.name = name
    self.description = description
    self.inputSchema = inputSchema
    self.work = work
  }

  private static let memorySearch = HearthTool(
    name: "memory_search",
    description:
      "Searches what Hearth remembers (the user's notes, added documents and past conversations) by meaning and "
      + "by words. Returns the best passages, each with a numbered citation of its source.",
    inputSchema: .object([
      ("type", .string("object")),
      (
        "properties",
        .object([
          ("query", .object([("type", .string("string")), ("minLength", .number(1)), ("maxLength", .number(500))])),
          ("limit", .object([("type", .string("integer")), ("minimum", .number(1)), ("maximum", .number(20))])),
        ])
      ),
      ("required", .array([.string("query")])), ("additionalProperties", .bool(false)),
    ]),
    work: .memorySearch)

  /// The action's payload schema without its `action` field, which the tool's name already says.
  private static func arguments(of spec: ActionSpec) -> JSONValue {
    guard case .object(var fields, var keys) = spec.jsonSchema else { return spec.jsonSchema }
    if case .object(var properties, let order) = fields["properties"] {
      properties["action"] = nil
      fields["properties"] = .object(properties, keys: order.filter { $0 != "action" })
    }
    if case .array(let required) = fields["required"] {
      let rest = required.filter { $0 != .string("action") }
      fields["required"] = rest.isEmpty ? nil : .array(rest)
      if rest.isEmpty { keys.removeAll { $0 == "required" } }
    }
    return .object(fields, keys: keys)
  }

  private static let descriptions: [String: String] = [
    "calendar_create":
      "Adds an event to the user's calendar (local times, 2026-11-24T10:00). Waits for the user's confirmation in "
      + "Hearth unless they allowed creations.",
    "calendar_update":
      "Changes an event, found by id or title (and start when several share it): new title, start, end or "
      + "location. Always waits for the user's confirmation in Hearth.",
    "calendar_delete": "Deletes an event, found by id or title. Always waits for the user's confirmation in Hearth.",
    "calendar_query": "Lists the events between two dates (or date-times), optionally only those whose title or "
      + "location contains a text. Answers at once.",
    "calendar_free": "Finds free time of at least the given minutes (default 60) between two dates. Answers at once.",
    "calendar_reschedule":
      "Moves an event to a new start, or to the next free slot when none is given. Waits for the user's confirmation.",
    "reminders_create":
      "Adds a reminder with an optional due date, priority and list. Waits for the user's confirmation unless they "
      + "allowed creations.",
    "reminders_complete": "Marks a reminder done, found by id or title. Waits for the user's confirmation.",
    "reminders_delete": "Deletes a reminder, found by id or title. Waits for the user's confirmation.",
    "reminders_list": "Lists the open reminders, of one list when given. Answers at once.",
    "notes_create": "Writes a new note. Waits for the user's confirmation unless they allowed creations.",
    "notes_append": "Adds text to the end of a note. Waits for the user's confirmation.",
    "notes_update": "Replaces a note's body. Waits for the user's confirmation.",
    "notes_delete": "Deletes a note. Waits for the user's confirmation.",
    "notes_search": "Finds notes by words in their title, body or tags. Answers at once.",
    "habits_create":
      "Starts tracking a habit, with an optional schedule of weekdays (MO,WE,FR). Waits for the user's confirmation "
      + "unless they allowed creations.",
    "habits_log": "Checks in a habit for today. Waits for the user's confirmation unless they allowed creations.",
    "habits_stats": "Streaks and completion of one habit or all. Answers at once.",
    "contacts_search": "Finds contacts by name, e-mail or phone, with their details. Answers at once.",
    "facts_remember":
      "Keeps a fact about the user, in their words, optionally until a day; one about the same thing as a fact "
      + "kept takes its place. Waits for the user's confirmation unless creations are allowed.",
    "facts_update": "Changes a kept fact's words or last day, named by id or its words. Waits for confirmation.",
    "facts_forget": "Forgets a kept fact, named by id or its words. Waits for the user's confirmation.",
  ]
}
