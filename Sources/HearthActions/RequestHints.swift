import Foundation
public import HearthCore

/// What a request says plainly, read without a model: which kind and action its words point to, and the
/// dates, times and lengths it names, already turned into ISO 8601 from "tomorrow at 10", "on Friday at
/// 3pm", "from 15:00 to 16:30", "for an hour". A small model then only has to copy them.
public struct RequestHints: Sendable, Hashable {
  public var kind: ActionKind?
  public var action: String?
  /// Days named, in order.
  public var dates: [LocalDate]
  /// Date-times named (a day with a time), in order.
  public var dateTimes: [LocalDateTime]
  /// A length named ("for an hour", "30 minutes"), in minutes.
  public var minutes: Int?

  public init(_ request: String, today: LocalDate) {
    let text = " " + request.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != ":" && $0 != "-" && $0 != "'" })
      .map(String.init)
    (dates, dateTimes, minutes) = Self.when(words, today: today)
    kind = Self.kind(text, namesATime: !dates.isEmpty || !dateTimes.isEmpty)
    action = Self.action(text, kind: kind)
  }

  private static func has(_ text: String, _ any: [String]) -> Bool { any.contains { text.contains($0) } }

  /// The kind the words point to. A word that also appears in ordinary talk ("add", "lunch", "cancel")
  /// counts for the calendar only next to a day or a time, so "add 2 and 3" stays a question.
  static func kind(_ text: String, namesATime: Bool) -> ActionKind? {
    if has(text, ["search the web", "on the web", "on the internet", "web search", "google "]) { return .webSearch }
    if has(text, ["remind", "to-do", "todo", "reminder"]) || text.hasPrefix(" i bought") { return .reminder }
    if has(text, [" note ", " note:", " note.", "notes", "write down", "did i write", "i wrote"]) { return .note }
    if has(text, ["habit", "streak", "went for a run", "start running", "check in"]) { return .habit }
    if has(text, ["phone", "e-mail", "email", "birthday", "contact", "'s number", "'s address"]) {
      return .contactsSearch
    }
    if has(text, ["meeting", "appointment", "calendar", "schedule", "event", "reschedule", "free for", "am i free"]) {
      return .calendar
    }
    if namesATime,
      has(
        text,
        [
          "lunch", "dinner", "call with", "book ", "class", "gym", "haircut", "add ", "plan ", "put ", "move ",
          "cancel",
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
      if has(text, ["cancel", "delete", "remove"]) { return "delete" }
      if has(text, ["move", "reschedule", "change", "rename", "push", "postpone"]) { return "update" }
      if has(text, ["what ", "when ", "show", "do i have", "what's", "list"]) { return "query" }
      return "create"
    case .reminder:
      if has(text, ["delete", "remove", "forget"]) { return "delete" }
      if has(text, ["what ", "list", "show"]) { return "list" }
      if has(text, ["bought", "done", "finished", "did ", "completed"]) { return "complete" }
      return "create"
    case .note:
      if has(text, ["delete", "remove"]) { return "delete" }
      if has(text, ["what did", "search", "find", "look"]) { return "search" }
      if has(text, ["add ", "append"]) && has(text, ["to my", "to the"]) { return "append" }
      return "create"
    case .habit:
      if has(text, ["streak", "how is", "how am", "stats"]) { return "stats" }
      if has(text, ["went", "did ", "done", "check in", "ran "]) && !has(text, ["start", "new habit", "track"]) {
        return "log"
      }
      return "create"
    case .contactsSearch, .webSearch, nil:
      return nil
    }
  }

  /// Weekday names as people write them.
  public static let weekdayNames: [String: Weekday] = [
    "monday": .monday, "tuesday": .tuesday, "wednesday": .wednesday, "thursday": .thursday, "friday": .friday,
    "saturday": .saturday, "sunday": .sunday,
  ]

  /// Days, times and a length, in the order the words give them.
  static func when(_ words: [String], today: LocalDate) -> ([LocalDate], [LocalDateTime], Int?) {
    var day: LocalDate?
    var times: [(hour: Int, minute: Int)] = []
    var minutes: Int?
    var dates: [LocalDate] = []
    for (index, word) in words.enumerated() {
      let next = index + 1 < words.count ? words[index + 1] : ""
      var found: LocalDate?
      switch word {
      case "today", "tonight": found = today
      case "tomorrow": found = today.adding(days: 1)
      default:
        if let weekday = weekdayNames[word] {
          let ahead = (weekday.index - today.weekday.index + 7) % 7
          found = today.adding(days: ahead == 0 ? 7 : ahead)
        } else if let date = LocalDate(parsing: word) {
          found = date
        }
      }
      if let found {
        day = day ?? found
        dates.append(found)
        continue
      }
      if let time = clock(word, next: next, after: index > 0 ? words[index - 1] : "") { times.append(time) }
      if word == "half", next == "an" {
        minutes = 30
        continue
      }
      let halfHour = word == "hour" && index >= 2 && words[index - 2] == "half"
      // "30 free minutes": the unit may come a word later.
      let unit = next.hasPrefix("min") || next.hasPrefix("hour") || index + 2 >= words.count ? next : words[index + 2]
      if !halfHour, let amount = duration(word, next: unit, previous: index > 0 ? words[index - 1] : "") {
        minutes = amount
      }
    }
    guard let day = day ?? (times.isEmpty ? nil : today) else { return (dates, [], minutes) }
    let dateTimes = times.compactMap { LocalDateTime(date: day, hour: $0.hour, minute: $0.minute) }
    return (dates.isEmpty ? [day] : dates, dateTimes, minutes)
  }

  /// `14:00`, `3pm`, `10` after "at", `8` followed by "in the morning".
  static func clock(_ word: String, next: String, after previous: String) -> (hour: Int, minute: Int)? {
    var text = word
    var afternoon = false
    var morning = false
    if text.hasSuffix("pm") || text.hasSuffix("am") {
      afternoon = text.hasSuffix("pm")
      morning = !afternoon
      text = String(text.dropLast(2))
    } else if next == "pm" || next == "am" {
      afternoon = next == "pm"
      morning = !afternoon
    }
    let parts = text.split(separator: ":")
    guard (1...2).contains(parts.count), let hour = Int(parts[0]), (0...23).contains(hour) else { return nil }
    let minute = parts.count == 2 ? Int(parts[1]) : 0
    guard let minute, (0...59).contains(minute) else { return nil }
    // A bare number is a time only after "at", "from", "to", "until" or with am/pm.
    guard parts.count == 2 || afternoon || morning || ["at", "from", "to", "until", "till"].contains(previous) else {
      return nil
    }
    if afternoon, hour < 12 { return (hour + 12, minute) }
    if morning, hour == 12 { return (0, minute) }
    return (hour, minute)
  }

  /// "an hour", "2 hours", "30 minutes", "half an hour".
  static func duration(_ word: String, next: String, previous: String) -> Int? {
    if word == "hour", ["an", "one", "1"].contains(previous) { return 60 }
    guard let amount = Int(word), amount > 0 else { return nil }
    if next.hasPrefix("hour") { return amount * 60 }
    if next.hasPrefix("min") { return amount }
    return nil
  }
}
