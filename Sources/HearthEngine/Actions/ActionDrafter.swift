import Foundation
public import HearthActions
public import HearthCore

/// Writes an action block for a request so that even a tiny model acts reliably: a first step without the
/// model picks the kind and action and reads the dates from the request's words; the model then writes
/// only the block's free text, under a grammar that pins everything else.
public struct ActionDrafter: Sendable {
  let model: any ChatModel
  /// The items of a kind that exist (events, reminders, notes, habits): an action on an existing item may
  /// only name one of them, and a question about one is answered about it.
  let existing: @Sendable (ActionKind) -> [KnownItem]
  /// Whether `3/12` is the 3rd of December (most of the world) or March 12.
  let dayFirst: Bool

  public init(
    model: any ChatModel, existing: @escaping @Sendable (ActionKind) -> [KnownItem] = { _ in [] },
    dayFirst: Bool = true
  ) {
    self.model = model
    self.existing = existing
    self.dayFirst = dayFirst
  }

  /// The block for `request`, or `nil` when it asks for no action. The kind, the action, every date,
  /// time and length, the item acted on and a new item's title come from the words of the request
  /// (``RequestHints``, ``ItemMatcher``); the model writes only what is left (a note's body, a search's
  /// words) under a grammar that pins the rest, and is not asked at all when nothing is left.
  ///
  /// `reading` is the request's meaning (``IntentReader``): it decides only where the words and the names of
  /// the user's items find nothing, and every field still comes from the words. A request that reads as two
  /// different changes about equally well gets ``ClarifyingQuestion`` instead of a block: nothing is changed on
  /// a guess.
  public func draft(
    _ request: String, today: LocalDate, reading: IntentMatcher.Reading? = nil
  ) async throws -> String? {
    var hints = RequestHints(request, today: today, dayFirst: dayFirst)
    // Each kind's items are read from the store once per request, however many steps look at them.
    var fetched: [ActionKind: [KnownItem]] = [:]
    func known(_ kind: ActionKind) -> [KnownItem] {
      if let items = fetched[kind] { return items }
      let items = existing(kind)
      fetched[kind] = items
      return items
    }
    if hints.kind == nil { hints = namingAnItem(request, hints: hints, known: known) }
    // "Boiler service next Tuesday at 11 for 2 hours", "Coffee with Anna Thursday 10:30": a thing, a day and a
    // time, said as a line in a diary, is an event to add.
    // Not when it names one of the user's things: "dentist friday at 10" may move the dentist, or ask about it.
    let namesAnItem = {
      [ActionKind.calendar, .reminder, .note, .habit].contains { kind in
        known(kind).contains { ItemMatcher.score($0, request: request) >= 1 }
      }
    }
    // Nor when its meaning is plainly no action ("traffic to the airport tomorrow at 6am").
    var plain = false
    if case .clear(let intent, _)? = reading { plain = intent == .plain }
    if hints.kind == nil, !plain, Self.readsAsADiaryLine(request, hints: hints), !namesAnItem() {
      hints.kind = .calendar
      hints.action = "create"
    }
    // A question about a document asks the memory, whatever it resembles: the turn cites the passages.
    if hints.kind == nil, let reading, !Self.asksAboutAFile(request) {
      switch reading {
      case .clear(let intent, _):
        hints.kind = intent.kind
        hints.action = intent.action
      case .close(let first, let second):
        // Only a request about the user's own things is asked about: "what is a calendar year?" is not.
        if hints.time.namesDay || Self.addressesTheUser(hints.words) {
          return ClarifyingQuestion.text(first, second)
        }
      case .unclear:
        break
      }
    }
    guard let kind = hints.kind,
      let spec = ActionSpec.specs(of: kind).first(where: { $0.action == hints.action })
        ?? ActionSpec.specs(of: kind).first
    else { return nil }
    // An event is made only for a request that says when: "how do I run a good meeting?" is a question.
    if spec.kind == .calendar, spec.action == "create", hints.dates.isEmpty, hints.dateTimes.isEmpty { return nil }
    let looksUp = spec.needsTarget || kind == .contactsSearch || ["stats", "query", "search"].contains(spec.action)
    let items = looksUp ? known(kind) : []
    let (best, ranked) = ItemMatcher.rank(items, for: request)
    // A question or a change that names no time, no item of the user's, and neither speaks of the user nor
    // tells the assistant anything is talk about the words: "What is a calendar year?"
    if spec.effect != .creates, ![.contactsSearch, .webSearch].contains(kind), !hints.time.namesDay, best == nil,
      !Self.addressesTheUser(hints.words)
    {
      return nil
    }
    var (fixed, omit) = Self.pinned(spec, hints: hints, request: request, target: best, today: today)
    var lines = [
      ActionInstructions.calendarDays(today: today),
      "Write the action for the user's message as one block, naming things with the user's own words. Example:",
      "\(spec.example.request) → [\(kind.rawValue):\(ActionInstructions.fill(spec.example.payload, today: today))]",
    ]
    var choices: [String: [String]] = [:]
    let target = spec.fields.contains { $0.name == "name" } ? "name" : "title"
    if spec.needsTarget || spec.action == "stats" {
      // The existing item the request fits best; the model chooses only when the words do not decide.
      let names = Array(Set(items.map(\.name))).sorted()
      if let best {
        fixed[target] = Self.json(best.name)
      } else if !names.isEmpty {
        choices[target] = (ranked.isEmpty ? names : ranked.map(\.name)).map(Self.json)
        lines.append("The \(ActionBlock.noun(kind))s: " + names.joined(separator: "; ") + ".")
      }
    }
    if let block = Self.written(spec, fixed: fixed, omit: omit) { return block }
    // Free text is made of the request's own words.
    let phrased: Set<String> = ["title", "name", "newTitle", "query", "text", "body"]
    let grammar = ActionGrammar.grammar(
      for: spec, fixed: fixed, omit: omit, choices: choices, phrased: phrased.subtracting(fixed.keys),
      words: Self.words(of: request))
    let text = try await generate(system: lines.joined(separator: "\n"), user: request, grammar: grammar, tokens: 120)
    // A model that wrote no whole block (it stopped at once) leaves the answer to the turn.
    return ActionBlockParser.parse(text).blocks.isEmpty ? nil : text
  }

  /// The block itself when the request settles every field it needs; `nil` when something is left to write.
  static func written(_ spec: ActionSpec, fixed: [String: String], omit: Set<String>) -> String? {
    let targets = spec.needsTarget ? spec.targetFields : []
    if spec.needsTarget, !targets.contains(where: { fixed[$0] != nil }) { return nil }
    var parts = spec.action.map { [#""action":"\#($0)""#] } ?? []
    for field in spec.fields where !omit.contains(field.name) {
      if let value = fixed[field.name] {
        parts.append("\(json(field.name)):\(value)")
      } else if !targets.contains(field.name) {
        return nil
      }
    }
    return "[\(spec.kind.rawValue):{" + parts.joined(separator: ",") + "}]"
  }

  /// "Cancel the team lunch", "When is my dentist appointment?", "I renewed my passport", "What's the wifi
  /// password?": a verb that changes things, a statement of something done, or a question, next to the name
  /// of an item that exists.
  func namingAnItem(
    _ request: String, hints: RequestHints, known: (ActionKind) -> [KnownItem]
  ) -> RequestHints {
    let lowered = " " + request.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    let words = hints.words.map { $0.lowercased() }
    func fits(_ kind: ActionKind) -> Bool { known(kind).contains { ItemMatcher.score($0, request: request) >= 1 } }
    func reading(_ kind: ActionKind, as action: String?) -> RequestHints {
      var hints = hints
      hints.kind = kind
      hints.action = action
      return hints
    }
    let verbs =
      [
        "cancel", "delete", "remove", "move ", "reschedule", "change", "rename", "postpone", "push ", "delay ",
        "call off", " has moved", " moved to ", " is now ", " got moved", " been moved", " its now ",
        " it's now ",
      ]
      + (RequestHints.opensWithACreation(lowered) || hints.time.namesDay ? [] : RequestHints.endChanges)
    // "Bring the review forward", "shift the dentist to Tuesday": "bring … to" is more often a thing carried.
    let shifts =
      (["bring ", "shift "].contains(where: lowered.contains)
        && [" forward", " back", " earlier", " later"].contains(where: lowered.contains))
      || (lowered.contains(" shift ") && lowered.contains(" to "))
    let restatedPlace = !RequestHints.opensWithACreation(lowered) && RequestHints.restatedPlace(in: request) != nil
    if verbs.contains(where: { lowered.contains($0) }) || shifts || restatedPlace
      || RequestHints.opensWithDiscard(lowered)
    {
      for kind in [ActionKind.calendar, .reminder, .note] where fits(kind) {
        return reading(kind, as: RequestHints.action(lowered, kind: kind))
      }
    }
    let doneWords: Set<String> = ["did", "done", "finished", "bought", "paid", "got", "went", "ran", "read", "sent"]
    // "Monday run done ✅", "tick off reading": a check-in said as a note to oneself, not as a question.
    let ticked =
      [" tick off ", " ticked off ", " check off ", " checked off ", " mark it done", " mark as done", "✅", "✔", "☑"]
      .contains(where: lowered.contains)
      || (["done", "completed"].contains(words.last ?? "") && !request.contains("?")
        && !["tell", "let", "notify", "remind", "ping", "alert", "when", "is", "are", "will"].contains(
          words.first ?? ""))
    let saysDone =
      (words.first == "i" && words.dropFirst().prefix(2).contains { doneWords.contains($0) || $0.hasSuffix("ed") })
      || lowered.contains("done with") || lowered.contains(" finished ") || ticked
    if saysDone {
      if fits(.habit) { return reading(.habit, as: "log") }
      if fits(.reminder) { return reading(.reminder, as: "complete") }
    }
    let asks =
      request.hasSuffix("?")
      || ["what", "when", "where", "which", "what's", "when's", "where's"]
        .contains(words.first ?? "")
    if asks {
      let aboutAnEvent = ["when is", "when's", "what time is", "where is", "where's", "is my", "is the"]
      if aboutAnEvent.contains(where: { lowered.contains($0) }), fits(.calendar) {
        return reading(.calendar, as: "query")
      }
      // "What does the pantry document say about the shopping note?" asks the memory, not the notes.
      if !Self.asksAboutAFile(request), fits(.note) { return reading(.note, as: "search") }
    }
    return hints
  }

  /// Whether `request` names a day and a clock time around a few words of its own, with no question, no
  /// statement about the user ("I ran at 7 on Monday") and no change of something else.
  public static func readsAsADiaryLine(_ request: String, hints: RequestHints) -> Bool {
    // A day said in words ("next Tuesday", "the 9th"): "from 1 to 20" is a span of hours, not a diary's day.
    guard !hints.time.days.isEmpty, !hints.time.clocks.isEmpty, !request.contains("?") else { return false }
    let words = hints.words.map { $0.lowercased() }
    let first = words.first ?? ""
    let opensOtherwise: Set<String> = [
      "i", "i'm", "im", "we", "it", "it's", "that", "this", "he", "she", "they", "you", "my", "our", "is", "are",
      "was", "were", "did", "do", "does", "can", "could", "what", "when", "where", "who", "why", "how", "which",
      // Asks for something else ("write a poem for the party on Saturday at 8").
      "write", "help", "tell", "translate", "explain", "summarise", "summarize", "draft", "find", "show", "give",
      "check", "list", "search", "look", "send", "email", "text", "let", "please", "would", "should", "will",
      // Answers what was said ("tomorrow at 9 works for me").
      "ok", "okay", "yes", "no", "sure", "thanks", "perfect", "great", "fine", "sounds", "works",
    ]
    let lowered = " \(request.lowercased().replacingOccurrences(of: "’", with: "'")) "
    // "Don't let me forget to …", "need to …": a duty, which the request's meaning may make a reminder.
    let duty = ["forget", "remember", "need to", "have to", "must ", "should ", "don't let me", "dont let me"]
    let replies = [" works ", " work for ", " sounds ", " suits ", " is fine", " is good"]
    guard !opensOtherwise.contains(first), !duty.contains(where: lowered.contains),
      !replies.contains(where: lowered.contains),
      RequestHints.action(lowered, kind: .calendar) == "create"
    else { return false }
    // Something beyond the time is named: the event's own words.
    return words.indices.contains { !hints.time.timeWords.contains($0) && $0 < words.count && words[$0].count > 2 }
  }

  /// Whether a request speaks of a document the user gave the memory ("the pantry document", "the PDF").
  static func asksAboutAFile(_ request: String) -> Bool {
    let words = request.lowercased().split { !$0.isLetter }
    // By the word's start: "files" and "uploaded" count, "profile" does not.
    return words.contains { word in ["document", "file", "pdf", "page", "upload"].contains { word.hasPrefix($0) } }
  }

  /// Whether a request speaks of the user's own things ("my", "I") or tells the assistant to do something:
  /// "What is a calendar year?" does neither, and asks nothing of the calendar.
  static func addressesTheUser(_ words: [String]) -> Bool {
    let personal: Set<String> = ["i", "me", "my", "mine", "we", "our", "us", "i'm", "i've", "i'd", "i'll", "im"]
    let imperative: Set<String> = [
      "add", "schedule", "put", "book", "create", "plan", "move", "cancel", "delete", "remove", "note", "write",
      "remind", "track", "log", "check", "rename", "reschedule", "push", "set", "find", "show", "list", "search",
      "postpone", "mark", "change", "look",
    ]
    let lowered = words.map { $0.lowercased() }
    return lowered.contains(where: personal.contains) || imperative.contains(lowered.first ?? "")
  }

  static func json(_ text: String) -> String {
    (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }

  /// The request's words as written and capitalised, for phrases.
  static func words(of request: String) -> [String] {
    var seen = Set<String>()
    let pieces = request.split { $0.isWhitespace || ",.!?;:\"()".contains($0) }.map(String.init)
    return (pieces + pieces.map { $0.prefix(1).uppercased() + $0.dropFirst() }).filter {
      !$0.isEmpty && !$0.contains("\\") && seen.insert($0).inserted
    }
  }

  private func generate(system: String, user: String, grammar: String, tokens: Int) async throws -> String {
    let options = GenerationOptions(maxNewTokens: tokens, sampling: .greedy, grammar: grammar)
    return try await model.wholeAnswer(to: [.system(system), .user(user)], options: options)
  }
}
