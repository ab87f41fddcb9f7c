import Foundation
public import HearthCore

/// A request that asks about the user's own data in words no reader took for an action: which view of the data
/// answers it (the days it names, the reminders, a contact, the notes, the habits), written as the look-up block
/// that shows it. The answer is then made of records, never of the model's own idea of the user's week.
public struct DataQuestion: Sendable, Hashable {
  /// The view that answers the request.
  public enum View: Sendable, Hashable {
    case calendar(from: LocalDate, to: LocalDate)
    /// The reminders, of one list when the request names it ("what's in my Home list"), due by a time or of a
    /// priority when it asks for those ("what's overdue", "anything urgent").
    case reminders(list: String? = nil, due: String? = nil, priority: String? = nil)
    case contact(query: String)
    case notes(query: String)
    case habits(name: String?)
  }

  public var view: View

  /// The names the reader may recognise in a request: the user's contacts and habits.
  public struct Names: Sendable, Hashable {
    public var contacts: [String]
    public var habits: [String]

    public init(contacts: [String] = [], habits: [String] = []) {
      self.contacts = contacts
      self.habits = habits
    }
  }

  /// The view for `request` said on `today`, or `nil` when it does not ask about the user's data: a request that
  /// asks nothing ("Write a haiku"), asks for advice ("How do I plan my week better?") or names none of the
  /// user's things.
  public init?(_ request: String, today: LocalDate, names: Names = .init(), dayFirst: Bool = true) {
    let text = " " + Self.plain(request) + " "
    let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "-" }).map(String.init)
    func has(_ any: [String]) -> Bool { any.contains { text.contains($0) } }
    let wordSet = Set(words)
    func hasWord(_ any: [String]) -> Bool { any.contains(where: wordSet.contains) }
    // A contact is named by a part of their name: as written (capitalised, not merely opening the request) or
    // with a possessive in any case ("priya's"), so "Will it rain?" does not name Will Smith.
    let contact = Self.namedContact(in: request, names: names)
    // Asked about the user's own things: "my", a person they know, or words only their data answers.
    let list = RequestHints.namedList(in: request)
    let time = SpokenTime(words: SpokenTime.words(of: request), today: today, dayFirst: dayFirst)
    // "How's next week looking calendar wise": the calendar, with a time, is the user's own.
    // ("What's the train schedule on Friday?" is no one's calendar: "schedule" alone is not the user's.)
    let calendarWithATime = hasWord(["calendar", "diary", "agenda"]) && time.namesDay
    let theirs =
      Self.speaksOfThemselves(words) || contact != nil || list != nil || calendarWithATime
      || has([" the calendar", " the schedule", " the agenda", "overdue", "to-do list", "todo list", "to do list"])
    guard Self.asks(text, words: words), theirs else { return nil }
    let wroteDown = wordSet.contains("write") && wordSet.contains("down") || has([" did i write", "i wrote"])
    // "Remind me what I've got on the 1st" asks to be told now: no reminder is meant.
    let reminderWords =
      ["to-do", " todo", " to do ", " task", "overdue", " due ", " chores", "errands"]
      + (ItemQuestion.asksToBeTold(request) ? [] : [" remind"])
    if has(reminderWords) || list != nil {
      let filter = RequestHints.reminderFilter(in: request)
      view = .reminders(list: list, due: filter.due, priority: filter.priority)
    } else if has([" habit", "streak", "check-in", "check in"]) {
      let habit = names.habits.first { words.contains(Self.plain($0)) }
      view = .habits(name: habit)
    } else if hasWord(["note", "notes", "wrote", "jotted"]) || wroteDown {
      view = .notes(query: Self.topic(words))
    } else if let contact,
      hasWord([
        "phone", "number", "e-mail", "email", "mail", "address", "birthday", "born", "organisation", "organization",
        "company", "work", "works", "job", "employer", "contact", "reach", "call", "details", "info", "firm",
      ])
    {
      view = .contact(query: contact)
    } else {
      let calendarWords = hasWord([
        "calendar", "schedule", "diary", "agenda", "busy", "free", "plans", "planned", "appointment", "appointments",
        "meeting", "meetings", "event", "events", "happening", "booked",
      ])
      // A day named is a look at the calendar only when the words ask what is on it: "What should I cook today?"
      // names a day and asks nothing of it.
      let asksWhatIsOn = has([
        "what's on", "what is on", "whats on", "anything on", "do i have", "have i got", "what have i", "look like",
        "looks like", " look?", " look ", "how does", "up to", "going on", "my day", "my week", "my weekend",
        "my month", "am i doing", "what am i", "what i've got", "what ive got", "what i have on",
      ])
      // "A quick rundown of Friday and Saturday": a summary of days, said with the days right after it ("a
      // summary of the news today" is about the news).
      let summaryOfDays =
        text.range(
          of:
            #"\b(rundown|run-down|overview|recap|summary) (of|for) (my |the )?(today|tomorrow|tonight|this|next|coming|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b"#,
          options: .regularExpression) != nil
      // "What's my first thing on Monday", "how's my Tuesday": the user's own day, named, and asked of.
      let theirDay =
        time.namesDay
        && has(["my first", "my last", "my next", "first thing", "last thing", "next thing", "how's my", "how is my"])
      guard
        calendarWords || (time.namesDay && (asksWhatIsOn || summaryOfDays)) || theirDay
          || has(["my week", "my weekend"])
      else {
        // "Tell me about Priya": the person, as the contacts have them.
        guard let contact else { return nil }
        view = .contact(query: contact)
        return
      }
      let (from, to) = time.namedDates ?? (today, today.adding(days: 6))
      view = .calendar(from: from, to: to)
    }
  }

  /// The view itself, for a caller that has chosen it.
  public init(view: View) { self.view = view }

  /// The contact a request names: a part of their name as written (capitalised, not merely opening the request)
  /// or with a possessive in any case ("priya's"), so "Will it rain?" does not name Will Smith.
  public static func namedContact(in request: String, names: Names) -> String? {
    let written = request.replacingOccurrences(of: "’", with: "'").split(whereSeparator: {
      !$0.isLetter && !$0.isNumber && $0 != "'"
    }).map(String.init)
    let lowered = written.map(plain)
    return names.contacts.first { name in
      name.split(separator: " ").map(String.init).contains { part in
        guard part.count >= 3 else { return false }
        let possessive = lowered.contains(plain(part) + "'s")
        let capitalised = written.dropFirst().contains(part) || written.first == part + "'s"
        return possessive || capitalised
      }
    }
  }

  /// The fields of a reminders look-up of one list, due by a time and of a priority, each when given.
  public static func reminderFields(list: String?, due: String?, priority: String?) -> [(String, String)] {
    [("action", "list")] + (list.map { [("list", $0)] } ?? []) + (due.map { [("due", $0)] } ?? [])
      + (priority.map { [("priority", $0)] } ?? [])
  }

  /// The look-up block that shows the view.
  public var block: String {
    let (kind, fields): (ActionKind, [(String, String)]) =
      switch view {
      case .calendar(let from, let to): (.calendar, [("action", "query"), ("from", "\(from)"), ("to", "\(to)")])
      case .reminders(let list, let due, let priority):
        (.reminder, Self.reminderFields(list: list, due: due, priority: priority))
      case .contact(let query): (.contactsSearch, [("query", query)])
      case .notes(let query): (.note, [("action", "search"), ("query", query)])
      case .habits(let name): (.habit, [("action", "stats")] + (name.map { [("name", $0)] } ?? []))
      }
    return "[\(kind.rawValue):" + JSONValue.object(fields.map { ($0.0, .string($0.1)) }).jsonText + "]"
  }

  /// Whether the words ask something of the user's own things: a question or a request to see, about "my" or "I".
  static func asks(_ text: String, words: [String]) -> Bool {
    // Advice about the user's life is not a look-up: "How do I plan my week better?"
    let advice = [" how do i ", " how can i ", " how should i ", " how to ", " why "]
    if advice.contains(where: text.hasPrefix) || [" tips ", " ideas for ", " advice "].contains(where: text.contains) {
      return false
    }
    let openers: Set<String> = [
      "what", "what's", "whats", "when", "when's", "whens", "where", "where's", "who", "who's", "which", "do", "does",
      "did", "am", "is", "are", "have", "has", "any", "anything", "show", "list", "tell", "give", "check", "find",
      "look", "read", "how", "how's", "hows", "got", "remind", "can", "could", "whos", "wheres",
    ]
    let first = words.first ?? ""
    return text.trimmingCharacters(in: .whitespaces).hasSuffix("?") || openers.contains(first)
  }

  /// "my", "I", "me": the request speaks of the user.
  static func speaksOfThemselves(_ words: [String]) -> Bool {
    let personal: Set<String> = ["i", "me", "my", "mine", "i'm", "im", "i've", "ive", "myself", "i'd"]
    return words.contains(where: personal.contains)
  }

  /// The words of a question about notes that say what it is about.
  static func topic(_ words: [String]) -> String {
    let ignored: Set<String> = [
      "what", "what's", "whats", "did", "do", "i", "my", "me", "note", "notes", "about", "the", "a", "an", "on",
      "in", "say", "says", "wrote", "write", "written", "down", "jotted", "have", "any", "is", "was", "there",
      "show", "find", "read", "of", "for", "regarding", "tell", "remind", "anything", "something", "stuff",
    ]
    let kept = words.filter { !ignored.contains($0) }
    return kept.isEmpty ? words.joined(separator: " ") : kept.joined(separator: " ")
  }

  /// Lower case with straight quotes and no trailing question marks' noise.
  static func plain(_ text: String) -> String {
    text.lowercased().replacingOccurrences(of: "’", with: "'")
  }
}
