import Foundation
public import HearthCore

/// What a request says plainly, read without a model: which kind and action its words point to, and the
/// dates, times and lengths it names, already turned into ISO 8601 from "tomorrow at 10", "on Friday at
/// 3pm", "from 15:00 to 16:30", "for an hour". A small model then only has to copy them.
public struct RequestHints: Sendable, Hashable {
  public var kind: ActionKind?
  public var action: String?
  /// Days named, in order; today when only a time is named.
  public var dates: [LocalDate]
  /// Date-times named (a day with a time), in order.
  public var dateTimes: [LocalDateTime]
  /// A length named ("for an hour", "30 minutes"), in minutes.
  public var minutes: Int?
  /// Everything the request says about time, read by code.
  public var time: SpokenTime
  /// The request's words (as written), in the order ``time``'s word indices count them.
  public var words: [String]
  /// The request as written.
  public var request: String

  /// Reads `request` as said on `today`; `dayFirst` reads `3/12` as the 3rd of December.
  public init(_ request: String, today: LocalDate, dayFirst: Bool = true) {
    let text = " " + request.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    self.request = request
    words = SpokenTime.words(of: request)
    time = SpokenTime(words: words, today: today, dayFirst: dayFirst)
    dateTimes = time.dateTimes(today: today)
    dates = time.days.isEmpty ? (time.span.map { [$0.start.date] } ?? (dateTimes.isEmpty ? [] : [today])) : time.days
    minutes = time.minutes
    kind = Self.kind(text, namesATime: time.namesDay || !time.clocks.isEmpty || time.part != nil)
    action = Self.action(text, kind: kind)
  }

  /// Words that open a question about the user's own schedule.
  static let scheduleQuestions = [
    "what do i have", "do i have", "am i free", "am i busy", "what's on", "what is on", "anything on",
    "anything planned", "what's planned", "what is planned", "what's happening", "my schedule", "my agenda",
    "my day look", "my week look", "what's next", "what is next", "any plans", "what are my plans",
  ]

  private static func has(_ text: String, _ any: [String]) -> Bool { any.contains { text.contains($0) } }

  /// The kind the words point to. A word that also appears in ordinary talk ("add", "lunch", "cancel")
  /// counts for the calendar only next to a day or a time, so "add 2 and 3" stays a question.
  static func kind(_ text: String, namesATime: Bool) -> ActionKind? {
    if has(text, ["search the web", "on the web", "on the internet", "web search", "google "]) { return .webSearch }
    if has(text, ["remind", "to-do", "todo", "reminder"]) || text.hasPrefix(" i bought") { return .reminder }
    // "Low priority: sort out the loft", "urgent - call the bank": a to-do said by how much it matters.
    if [" low priority", " high priority", " urgent:", " urgent -", " not urgent"].contains(where: text.hasPrefix) {
      return .reminder
    }
    if has(text, [" note ", " note:", " note.", " note,", "notes", "write down", "did i write", "i wrote", " jot "]) {
      return .note
    }
    // "Add descaling the kettle to my Home list": a to-do put on one of the user's lists.
    if addsToAList(text) { return .reminder }
    if has(text, ["habit", "streak", "went for a run", "start running", "check in"]) { return .habit }
    // "I want to start meditating every day": a wish to do something regularly.
    if has(text, ["every day", "daily", "each day", "every morning", "every evening", "times a week", "every week"]),
      has(text, ["start", "begin", "want to", "try to", "going to", "track"])
    {
      return .habit
    }
    // "Add birthday party for Lea on Saturday at 3pm": an event to add, at a time, whoever it is for.
    let adds = [" add ", " schedule ", " put ", " book ", " plan ", " create "].contains { text.hasPrefix($0) }
    if adds, namesATime { return .calendar }
    // "What date is mum's birthday on my calendar?": the calendar, named, decides over a contact's field.
    if has(text, [" my calendar", " the calendar"]) { return .calendar }
    if has(text, ["phone", "e-mail", "email", "birthday", "contact", "'s number", "'s address"]) {
      return .contactsSearch
    }
    if has(text, ["meeting", "appointment", "calendar", "schedule", "event", "reschedule", "free for", "am i free"]) {
      return .calendar
    }
    if namesATime, has(text, scheduleQuestions) { return .calendar }
    if namesATime,
      has(
        text,
        [
          "lunch", "dinner", "call with", "book ", "class", "gym", "haircut", "add ", "plan ", "put ", "move ",
          "cancel", "coffee", "drinks", "brunch", "breakfast", "tennis", "football", "recital", "concert", " play ",
          "party", "interview", "match", "viewing", "catch up", "catch-up", "planning", "session", " meet ",
          "what do i have", "free", "busy",
        ])
    {
      return .calendar
    }
    return nil
  }

  /// The action the words point to, for a kind.
  public static func action(_ text: String, kind: ActionKind?) -> String? {
    switch kind {
    case .calendar:
      if has(text, ["free", "available"]) { return "free" }
      if has(text, ["cancel", "delete", "remove", "call off"]) || opensWithDiscard(text) { return "delete" }
      // "Bring the review forward" moves it; "what should I bring to dinner?" does not.
      let shifts =
        has(text, ["bring ", "shift "]) && has(text, [" forward", " back", " earlier", " later", " to "])
        && !has(text, ["what ", "which ", "should i bring"])
      // "The dinner with Marco is now at 8pm": a new time stated is a move.
      let restated =
        (has(
          text,
          [
            " is now ", " has moved", " moved to ", " now starts", " now begins", " got moved", " been moved",
            " its now ", " it's now ", " going to be in ", " will be in ",
          ])
          || (text.contains(" is at ") && text.contains(" now "))) && !text.contains("?")
        && !opensAQuestion(text) && !opensWithACreation(text)
      // "Make dinner end at 10.30pm" moves the end; "team offsite Friday 9am, finishes at 5pm" is a new event.
      let endMoved = has(text, endChanges) && !opensWithACreation(text) && !namesADay(text)
      if has(text, ["move", "reschedule", "change", "rename", "push", "postpone", "delay "]) || shifts || restated
        || endMoved
      {
        return "update"
      }
      if has(text, ["what ", "when ", "when's", "show", "what's", "list", "where ", "anything", "any "])
        || has(text, scheduleQuestions)
      {
        return "query"
      }
      return "create"
    case .reminder:
      if has(text, ["delete", "remove", "forget"]) || opensWithDiscard(text) { return "delete" }
      if addsToAList(text) { return "create" }
      let asks =
        has(text, ["what ", "list", "show", "do i have", "any ", "anything", "which ", "overdue", "what's due"])
        || opensAQuestion(text)
      if asks, !has(text, ["remind me to", "remind me about", "reminder to", "reminder for"]) { return "list" }
      if has(text, ["bought", "done", "finished", "did ", "completed"]) { return "complete" }
      return "create"
    case .note:
      if has(text, ["delete", "remove"]) || opensWithDiscard(text) { return "delete" }
      // "What does my note about the boiler say?", "pull up my Lisbon notes": asked to be shown, not dictated.
      if has(text, ["what did", "search", "find", "look", "pull up", "bring up", "show me", "read me", " open "])
        || opensAQuestion(text)
      {
        return "search"
      }
      // "Replace what's in my wifi note with: …": the text made new; "make a note to replace the battery with a
      // 9V" is a new note.
      if text.range(
        of: #"^ (please )?(replace|overwrite) (what'?s in |what is in )?(my|the) .*note.* with"#,
        options: .regularExpression) != nil
      {
        return "update"
      }
      if text.range(of: #"note, add that "#, options: .regularExpression) != nil { return "append" }
      // "Stick oat milk on my shopping note": words added to a note that exists.
      if has(text, ["append"])
        || text.range(
          of: #"^ (please )?(add|stick|put|pop) (.+ )?(to|on|onto) (my|the) [^,.]*note\b"#,
          options: .regularExpression) != nil
      {
        return "append"
      }
      return "create"
    case .habit:
      if has(text, ["streak", "how is", "how am", "stats"]) { return "stats" }
      if has(text, ["went", "did ", "done", "check in", "ran "]) && !has(text, ["start", "new habit", "track"]) {
        return "log"
      }
      return "create"
    case .memory:
      if has(text, ["forget", "delete", "remove"]) { return "forget" }
      if has(text, ["change", "update", "correct"]) { return "update" }
      if text.contains("?") { return "recall" }
      return "remember"
    case .contactsSearch, .webSearch, .toolCall, nil:
      return nil
    }
  }

  /// The new place a request states for an event without a time: "lunch with Priya is at Pret now, not Cafe
  /// Nero" → "Pret", "the dentist appointment has moved to the Riverside clinic" → "Riverside clinic".
  public static func restatedPlace(in request: String) -> String? {
    // ", can you update it", ", please change it": the request after the news says nothing of the place.
    let asked =
      #"(?:,? (?:(?:can|could|would|will) (?:you|u) |please |pls )?(?:update|change|fix|amend) (?:it|that|the \w+)\b.*)?"#
    let patterns = [
      #"(?i)\b(?:has )?moved to (.+?)(?:,? now)?(?:,? (?:not|instead of) .*)?"# + asked + #"[.!?]*$"#,
      #"(?i)\bis (?:now )?at (.+?)(?:,? now)?(?:,? (?:not|instead of) .*)?"# + asked + #"[.!?]*$"#,
      #"(?i)(?:\bis|'s) going to be (?:in|at) (.+?)(?:,? now)?(?:,? (?:not|instead of) .*)?"# + asked + #"[.!?]*$"#,
      #"(?i)\bwill be (?:in|at) (.+?)(?:,? now)?(?:,? (?:not|instead of) .*)?"# + asked + #"[.!?]*$"#,
      // "We're meeting at Pret instead of Cafe Nero for the Priya lunch".
      #"(?i)^(?:we're|we are|we['’]re|i'm|i am) (?:now )?meeting (?:at|in) (.+?),? (?:instead of|not at|not in) "#,
    ]
    for pattern in patterns {
      guard let regex = try? NSRegularExpression(pattern: pattern),
        let match = regex.firstMatch(in: request, range: NSRange(request.startIndex..., in: request)),
        let range = Range(match.range(at: 1), in: request)
      else { continue }
      let place = request[range].trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
      let words = place.split(separator: " ")
      guard !place.isEmpty, words.count <= 6, !place.contains(where: \.isNumber) else { continue }
      // "Moved to later", "has moved to the afternoon", "moved to next week": a time, not a place.
      let said = SpokenTime.words(of: place.lowercased())
      let times: Set<String> = [
        "later", "earlier", "sooner", "morning", "afternoon", "evening", "night", "tonight", "today", "tomorrow",
        "week", "weekend", "month", "noon", "midday", "lunchtime", "date", "time", "day",
      ]
      guard
        !said.contains(where: { times.contains($0) || SpokenTime.weekdays[$0] != nil || SpokenTime.months[$0] != nil })
      else { continue }
      return place.prefix(1).uppercased() + place.dropFirst()
    }
    return nil
  }

  /// Which reminders a question asks about: those due by a time ("what's overdue", "due today", "this week")
  /// and of a priority ("which are high priority", "anything urgent").
  public static func reminderFilter(in request: String) -> (due: String?, priority: String?) {
    let text = " " + request.lowercased().replacingOccurrences(of: "-", with: " ") + " "
    let due: String? =
      text.contains("overdue") || text.contains(" late ") || text.contains(" missed ")
      ? "overdue"
      : text.contains(" today") || text.contains("tonight")
        ? "today"
        : text.contains(" tomorrow")
          ? "tomorrow"
          : text.contains(" this week") || text.contains(" the week") || text.contains(" next few days") ? "week" : nil
    let priority: String? =
      text.contains("high priority") || text.contains(" urgent") || text.contains(" important")
      ? "high"
      : text.contains("low priority") ? "low" : text.contains("medium priority") ? "medium" : nil
    return (due, priority)
  }

  /// Ways of saying when an event is to end: "make dinner end at 10.30pm", "the meeting should finish at 4".
  public static let endChanges = [
    " end at ", " ends at ", " finish at ", " finishes at ", " finish by ", " run until ", " run till ",
    " last until ", " go on until ", " end by ",
  ]

  /// Whether the request opens with a discard ("scrap dinner with Marco", "please get rid of my shopping note"):
  /// "remind me to take out the trash" and "bin day is Thursday" do not.
  public static func opensWithDiscard(_ text: String) -> Bool {
    var rest = Substring(text)
    for polite in [" please", " pls", " can you", " could you", " just", " ok", " hey"] where rest.hasPrefix(polite) {
      rest = rest.dropFirst(polite.count)
    }
    return [" scrap ", " get rid of ", " bin the ", " bin my ", " ditch ", " trash the ", " trash my ", " erase "]
      .contains { rest.hasPrefix($0) }
  }

  /// Whether the request opens by asking for something new ("add …", "put …", "schedule …", "remind me …").
  public static func opensWithACreation(_ text: String) -> Bool {
    [" add ", " put ", " schedule ", " book ", " create ", " plan ", " make a ", " set up ", " remind ", " new "]
      .contains { text.hasPrefix($0) }
  }

  /// Whether the words name a day (a weekday, "tomorrow", a month's day).
  static func namesADay(_ text: String) -> Bool {
    let words = SpokenTime.words(of: text)
    return words.contains { SpokenTime.weekdays[$0] != nil && $0.count > 3 }
      || ["today", "tomorrow", "tonight"].contains(where: words.contains)
      || words.contains { SpokenTime.months[$0] != nil && $0.count > 3 }
  }

  /// "Add descaling the kettle to my Home list", "put eggs on the shopping list": a to-do for a list.
  public static func addsToAList(_ text: String) -> Bool {
    [" add ", " put ", " stick ", " pop "].contains { text.hasPrefix($0) }
      && text.range(of: #" (to|on|onto) (my|the) [a-z'-]+ list"#, options: .regularExpression) != nil
  }

  /// The list a request names ("my Home list" → "Home"), not "my to-do list" or "the list".
  public static func namedList(in request: String) -> String? {
    let words = SpokenTime.words(of: request)
    let notNames: Set<String> = [
      "my", "the", "on", "in", "a", "this", "that", "your", "our", "to-do", "todo", "to", "do", "reminder",
      "reminders", "task", "whole", "full", "shopping's",
    ]
    // "on my Home list": the word before "list" that follows one of the little words, and is none of them.
    for index in words.indices.dropFirst(2) where words[index].lowercased() == "list" {
      let name = words[index - 1]
      guard ["my", "the", "on", "in"].contains(words[index - 2].lowercased()), !notNames.contains(name.lowercased())
      else { continue }
      return name.prefix(1).uppercased() + name.dropFirst()
    }
    return nil
  }

  /// Words a question about what the user has opens with.
  static let questionOpenings: Set<String> = [
    "what", "what's", "whats", "which", "where", "when", "how", "do", "does", "did", "is", "are", "show", "tell",
  ]

  /// Whether the request opens as a question ("what does…", "is there…", "show me…").
  static func opensAQuestion(_ text: String) -> Bool {
    let first = text.split(whereSeparator: { !$0.isLetter && $0 != "'" }).first.map(String.init) ?? ""
    return questionOpenings.contains(first)
  }

  /// Weekday names as people write them in full.
  public static let weekdayNames = Dictionary(uniqueKeysWithValues: Weekday.allCases.map { ($0.name.lowercased(), $0) })
}
