import HearthCore

/// The question Hearth asks when a request reads as two different changes about equally well ("the dentist on
/// Friday" could be an event or a reminder): it names both, changes nothing, and lets the user say which.
/// Guessing would make a change the user did not ask for; asking costs one short reply.
public enum ClarifyingQuestion {
  /// The question for a request that is as close to `first` as to `second`.
  public static func text(_ first: RequestIntent, _ second: RequestIntent) -> String {
    "Should I \(phrase(first)) or \(phrase(second))? Say which and I'll prepare it; nothing has been changed yet."
  }

  /// What Hearth would do for `intent`, as the end of "Should I …".
  public static func phrase(_ intent: RequestIntent) -> String {
    switch (intent.kind, intent.action) {
    case (.calendar?, "create"): "add it to your calendar as an event"
    case (.calendar?, "update"): "move or change an event"
    case (.calendar?, "delete"): "cancel an event"
    case (.calendar?, "free"): "look for a free time in your calendar"
    case (.calendar?, _): "show what is in your calendar"
    case (.reminder?, "create"): "set it as a reminder"
    case (.reminder?, "complete"): "mark a reminder done"
    case (.reminder?, "delete"): "delete a reminder"
    case (.reminder?, "update"): "change a reminder"
    case (.reminder?, _): "show your reminders"
    case (.note?, "create"): "write it down as a new note"
    case (.note?, "append"): "add it to one of your notes"
    case (.note?, "delete"): "delete a note"
    case (.note?, "update"): "change a note"
    case (.note?, _): "look through your notes"
    case (.habit?, "create"): "start tracking it as a habit"
    case (.habit?, "log"): "log it for one of your habits"
    case (.habit?, "delete"): "stop tracking a habit"
    case (.habit?, _): "show how a habit is going"
    case (.contactsSearch?, _): "look it up in your contacts"
    case (.webSearch?, _): "search the web for it"
    case (.toolCall?, _): "use one of your tools"
    case (.memory?, "forget"): "forget it"
    case (.memory?, _): "remember it about you"
    case (nil, _): "just answer the question"
    }
  }

  /// The two intents Hearth asked between, when `answer` is one of its questions as written.
  public static func intents(asked answer: String) -> (RequestIntent, RequestIntent)? {
    guard answer.hasPrefix("Should I ") else { return nil }
    let intents = IntentExamples.all.map(\.intent)
    for first in intents {
      for second in intents where second != first && text(first, second) == answer { return (first, second) }
    }
    return nil
  }

  /// The intent a reply to the question between `first` and `second` chooses: "the first", "the second",
  /// or the one whose words it uses ("a reminder", "put it in the calendar", "move it"); `nil` when it names
  /// neither or both, and the reply is read as a request of its own.
  public static func choice(
    _ reply: String, between first: RequestIntent, _ second: RequestIntent
  ) -> RequestIntent? {
    let words = Set(reply.lowercased().split { !$0.isLetter && !$0.isNumber }.map { stem(String($0)) })
    let ordinal = (
      !words.isDisjoint(with: ["first", "former", "1"]), !words.isDisjoint(with: ["second", "latter", "2"])
    )
    if ordinal.0 != ordinal.1 { return ordinal.0 ? first : second }
    let (one, other) = (words.intersection(cues(first)).count, words.intersection(cues(second)).count)
    guard one != other else { return nil }
    return one > other ? first : second
  }

  /// The words that point at `intent` in a reply: its kind's nouns and the words of its phrase.
  static func cues(_ intent: RequestIntent) -> Set<String> {
    let nouns: [String] =
      switch intent.kind {
      case .calendar?: ["event", "calendar", "appointment", "meeting", "diary", "schedule"]
      case .reminder?: ["reminder", "todo", "task", "remind"]
      case .note?: ["note", "write"]
      case .habit?: ["habit", "track"]
      case .contactsSearch?: ["contact", "address", "phone"]
      case .webSearch?: ["web", "internet", "online", "search", "google"]
      case .toolCall?: ["tool"]
      case .memory?: ["remember", "fact", "memory", "forget"]
      case nil: ["answer", "question", "nothing", "neither"]
      }
    let filler: Set<String> = [
      "it", "as", "an", "a", "to", "your", "in", "of", "one", "for", "the", "is", "what", "how", "or", "just",
    ]
    let phrased = phrase(intent).split(separator: " ").map { stem(String($0)) }.filter { !filler.contains($0) }
    return Set(nouns.map(stem) + phrased)
  }

  /// A word without a plural "s": "reminders" cues as "reminder" does.
  static func stem(_ word: String) -> String {
    word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : word
  }
}
