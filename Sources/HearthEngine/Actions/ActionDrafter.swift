import Foundation
import HearthActions
public import HearthCore

/// Writes an action block for a request so that even a tiny model acts reliably: a first step without the
/// model picks the kind and action and reads the dates from the request's words; the model then writes
/// only the block's free text, under a grammar that pins everything else.
public struct ActionDrafter: Sendable {
  let model: any ChatModel
  /// The names of the items of a kind that exist (event titles, reminder titles, note titles, habit names):
  /// an action on an existing item may only name one of them.
  let existing: @Sendable (ActionKind) -> [String]

  public init(model: any ChatModel, existing: @escaping @Sendable (ActionKind) -> [String] = { _ in [] }) {
    self.model = model
    self.existing = existing
  }

  /// The block for `request`, or `nil` when it asks for no action. The kind, the action and every date,
  /// time and length come from the words of the request (``RequestHints``); the model writes only the
  /// free text (a title, a query, a note's body) under a grammar that pins the rest.
  public func draft(_ request: String, today: LocalDate) async throws -> String? {
    var hints = RequestHints(request, today: today)
    if hints.kind == nil { hints = namingAnItem(request, hints: hints) }
    guard let kind = hints.kind,
      let spec = ActionSpec.specs(of: kind).first(where: { $0.action == hints.action })
        ?? ActionSpec.specs(of: kind).first
    else { return nil }
    // An event is made only for a request that says when: "how do I run a good meeting?" is a question.
    if spec.kind == .calendar, spec.action == "create", hints.dates.isEmpty, hints.dateTimes.isEmpty { return nil }
    let (fixed, omit) = Self.pinned(spec, hints: hints, request: request)
    var lines = [
      ActionInstructions.calendarDays(today: today),
      "Write the action for the user's message as one block, naming things with the user's own words. Example:",
      "\(spec.example.request) → [\(kind.rawValue):\(ActionInstructions.fill(spec.example.payload, today: today))]",
    ]
    var fixedFields = fixed
    var choices: [String: [String]] = [:]
    let target = spec.fields.contains { $0.name == "name" } ? "name" : "title"
    if spec.needsTarget || spec.action == "stats" {
      // The existing item whose name shares the most words with the request; the model chooses only
      // when the words do not decide.
      let names = Array(Set(existing(kind))).sorted()
      let ranked = names.map { ($0, Self.overlap($0, request)) }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
      if let best = ranked.first, ranked.count == 1 || ranked[1].1 < best.1 {
        fixedFields[target] = Self.json(best.0)
      } else if !names.isEmpty {
        choices[target] = (ranked.isEmpty ? names : ranked.map(\.0)).map(Self.json)
        lines.append("The \(ActionBlock.noun(kind))s: " + names.joined(separator: "; ") + ".")
      }
    }
    // Free text is made of the request's own words.
    let phrased: Set<String> = ["title", "name", "newTitle", "query", "text", "body"]
    let grammar = ActionGrammar.grammar(
      for: spec, fixed: fixedFields, omit: omit, choices: choices, phrased: phrased.subtracting(fixedFields.keys),
      words: Self.words(of: request))
    return try await generate(system: lines.joined(separator: "\n"), user: request, grammar: grammar, tokens: 120)
  }

  /// "Cancel the team lunch": a verb that changes things next to the name of an item that exists.
  func namingAnItem(_ request: String, hints: RequestHints) -> RequestHints {
    let lowered = " " + request.lowercased() + " "
    let verbs = ["cancel", "delete", "remove", "move ", "reschedule", "change", "rename", "postpone"]
    guard verbs.contains(where: { lowered.contains($0) }) else { return hints }
    for kind in [ActionKind.calendar, .reminder, .note]
    where existing(kind).contains(where: { Self.overlap($0, request) > 0 }) {
      var hints = hints
      hints.kind = kind
      hints.action = RequestHints.action(lowered, kind: kind)
      return hints
    }
    return hints
  }

  static func json(_ text: String) -> String {
    (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }

  /// Words too common to name anything.
  static let stopWords: Set<String> = [
    "the", "and", "for", "with", "from", "my", "about", "this", "that", "please", "into", "onto", "your", "our",
  ]

  /// How many words (of three letters or more, not stop words) two texts share, ignoring case and a plural
  /// "s"; ties go to the name whose words the request covers best.
  static func overlap(_ name: String, _ request: String) -> Double {
    func stems(_ text: String) -> Set<String> {
      Set(
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.filter {
          $0.count >= 3 && !stopWords.contains(String($0))
        }
        .map { word in word.hasSuffix("s") && word.count > 3 ? String(word.dropLast()) : String(word) })
    }
    let words = stems(name)
    let shared = words.intersection(stems(request)).count
    return shared == 0 ? 0 : Double(shared) + Double(shared) / Double(max(words.count, 1)) / 10
  }

  /// The request's words as written and capitalised, for phrases.
  static func words(of request: String) -> [String] {
    var seen = Set<String>()
    let pieces = request.split { $0.isWhitespace || ",.!?;:\"()".contains($0) }.map(String.init)
    return (pieces + pieces.map { $0.prefix(1).uppercased() + $0.dropFirst() }).filter {
      !$0.isEmpty && !$0.contains("\\") && seen.insert($0).inserted
    }
  }

  /// The fields the request settles (as JSON text) and those left out (ids, which a model cannot know;
  /// optional details the request does not mention).
  static func pinned(
    _ spec: ActionSpec, hints: RequestHints, request: String
  ) -> (fixed: [String: String], omit: Set<String>) {
    func json(_ text: String) -> String { "\"\(text)\"" }
    var fixed: [String: String] = [:]
    var omit: Set<String> = ["id", "location", "priority", "list", "tags"]
    let day = hints.dates.first
    let start = hints.dateTimes.first
    switch (spec.kind, spec.action) {
    case (.calendar, "create"):
      if let start {
        fixed["start"] = json(start.shortDescription)
        let end = hints.dateTimes.dropFirst().first ?? start.adding(seconds: (hints.minutes ?? 60) * 60)
        fixed["end"] = json(end.shortDescription)
      } else if let day {
        fixed["start"] = json(LocalDateTime(startOf: day).adding(seconds: 9 * 3600).shortDescription)
        fixed["end"] = json(LocalDateTime(startOf: day).adding(seconds: 10 * 3600).shortDescription)
      }
    case (.calendar, "update"):
      omit.formUnion(["start"])
      if let start { fixed["newStart"] = json(start.shortDescription) } else { omit.insert("newStart") }
      if let minutes = hints.minutes, let start {
        fixed["newEnd"] = json(start.adding(seconds: minutes * 60).shortDescription)
      } else {
        omit.insert("newEnd")
      }
      if !["rename", "call it", "title"].contains(where: { request.lowercased().contains($0) }) {
        omit.insert("newTitle")
      }
    case (.calendar, "delete"):
      if let start { fixed["start"] = json(start.shortDescription) } else { omit.insert("start") }
    case (.calendar, "query"), (.calendar, "free"):
      if let day {
        fixed["from"] = json(day.description)
        fixed["to"] = json(day.description)
        omit.insert("text")
      } else {
        omit.formUnion(["from", "to"])
      }
      if spec.action == "free" { fixed["minutes"] = String(hints.minutes ?? 60) }
    case (.reminder, "create"):
      if let start {
        fixed["due"] = json(start.shortDescription)
      } else if let day {
        fixed["due"] = json(day.description)
      } else {
        omit.insert("due")
      }
    case (.habit, "create"):
      let weekdays = RequestHints.weekdayNames.filter { request.lowercased().contains($0.key) }.map(\.value).sorted()
      if !weekdays.isEmpty {
        fixed["schedule"] = json(weekdays.map(\.rawValue).joined(separator: ","))
      } else if request.lowercased().contains("every day") || request.lowercased().contains("daily") {
        fixed["schedule"] = json("daily")
      } else {
        omit.insert("schedule")
      }
    default:
      break
    }
    return (fixed, omit)
  }

  private func generate(system: String, user: String, grammar: String, tokens: Int) async throws -> String {
    let options = GenerationOptions(maxNewTokens: tokens, sampling: .greedy, grammar: grammar)
    var text = ""
    for try await event in model.generate(messages: [.system(system), .user(user)], options: options) {
      if case .token(let piece) = event { text += piece }
    }
    await model.settle()
    return text
  }
}

/// The names an action may use for existing items of a kind: event titles from a week ago to three months
/// ahead, open reminders, notes and habits.
struct ExistingNames: Sendable {
  let calendar: CalendarService
  let reminders: ReminderService
  let notes: NoteService
  let habits: HabitService

  @Sendable func names(_ kind: ActionKind) -> [String] {
    switch kind {
    case .calendar:
      let range = DateInterval(start: Date().addingTimeInterval(-7 * 86_400), duration: 100 * 86_400)
      let recent = (try? calendar.occurrences(in: range).map(\.event.title)) ?? []
      return Array(Set(recent + ((try? calendar.events().suffix(200).map(\.title)) ?? []))).sorted()
    case .reminder: return (try? reminders.list(includeCompleted: false).map(\.title)) ?? []
    case .note: return (try? notes.list().prefix(300).map(\.title)) ?? []
    case .habit: return (try? habits.list().map(\.name)) ?? []
    case .contactsSearch, .webSearch: return []
    }
  }
}

extension Engine {
  /// The names an action may use for existing items of a kind.
  @Sendable public func existingNames(_ kind: ActionKind) -> [String] {
    ExistingNames(calendar: calendar, reminders: reminders, notes: notes, habits: habits).names(kind)
  }
}
