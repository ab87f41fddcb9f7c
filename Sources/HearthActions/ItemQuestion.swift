import Foundation
public import HearthCore

/// A question about one of the user's things, named by what it is called or holds: "where's the dentist
/// appointment again", "how urgent is the electricity bill reminder", "whats the wifi password", "remind me where
/// I met Anna". A question asks to be told: it never creates, changes or deletes anything, and it is answered by
/// showing the record it names, whichever field it asks about (the record's look-up shows them all).
public enum ItemQuestion {
  /// Words that open a question.
  static let questionWords: Set<String> = [
    "what", "what's", "whats", "when", "when's", "whens", "where", "where's", "wheres", "which", "who", "who's",
    "whos", "whose", "how", "how's", "hows", "why",
  ]
  /// Words that open a yes-or-no question when a person or a thing follows ("is the", "do i", "have i").
  static let questionAuxiliaries: Set<String> = [
    "is", "are", "was", "were", "do", "does", "did", "have", "has", "had", "am", "should",
  ]
  static let askedAbout: Set<String> = [
    "i", "my", "there", "the", "a", "an", "it", "we", "our", "anything", "any", "that", "this",
  ]
  /// Words said before a request that change nothing about it.
  static let openers: Set<String> = [
    "hey", "hi", "hello", "so", "ok", "okay", "um", "uh", "and", "also", "quick", "question", "hearth", "btw", "oh",
    "sorry", "actually", "just", "again",
  ]

  /// Whether `request` asks to be told something rather than for a change: it opens with a question word
  /// ("which room is …", not "what about …" or "when you have a minute, …"), "remind me" and a question word,
  /// "any idea", or a yes-or-no question ("is the boiler service booked?").
  public static func isQuestion(_ request: String) -> Bool {
    if asksToBeTold(request) { return true }
    let words = Array(self.words(request).drop(while: openers.contains))
    guard let first = words.first else { return false }
    let second = words.dropFirst().first ?? ""
    if questionWords.contains(first) {
      // "What about lunch at 1?", "How about Friday?": a suggestion; "When you can, add …": a request.
      guard !["about", "you", "u", "if"].contains(second) else { return false }
      // "How do I run a good meeting?", "What should I cook for lunch?", "Why …": advice, asked of the model.
      let third = words.dropFirst(2).first ?? ""
      let advice =
        first == "why"
        || (first == "how" && (second == "to" || ["do", "can", "should", "would", "could"].contains(second)))
        || (["what", "what's", "whats"].contains(first)
          && ["should", "can", "could", "would", "a", "good"].contains(second))
      return !advice || (first == "how" && third == "my")
    }
    if first == "any", second == "idea" { return true }
    guard questionAuxiliaries.contains(first) else { return false }
    // "Is it possible to add …", "is there a way to move …": a request asked politely.
    let rest = words.dropFirst(2).prefix(3)
    if rest.contains("possible") || (rest.contains("way") && words.contains("to")) { return false }
    // "Did my reading", "had my run": a check-in said short, not a question; "did I …", "is my …" ask.
    if ["do", "does", "did", "have", "has", "had"].contains(first) {
      return ["i", "we", "there", "it", "anything", "any"].contains(second)
    }
    return askedAbout.contains(second)
  }

  /// "Remind me where I met Anna", "remind me what the meeting is about": to be told now, not reminded later.
  public static func asksToBeTold(_ request: String) -> Bool {
    let words = Array(self.words(request).drop(while: openers.contains))
    guard words.count >= 3, words[0] == "remind", words[1] == "me" else { return false }
    return questionWords.contains(words[2]) || ["if", "whether"].contains(words[2])
  }

  /// A request that ``asksToBeTold(_:)`` with "remind me" said as "tell me": "remind me what I've got on the 1st"
  /// → "tell me what I've got on the 1st". Any other request is returned as it is.
  public static func toldNow(_ request: String) -> String {
    guard asksToBeTold(request), let range = request.range(of: "remind me", options: [.caseInsensitive]) else {
      return request
    }
    return request.replacingCharacters(in: range, with: "tell me")
  }

  /// The look-up that shows the one item `request` names, or `nil` when it names none, or two of different
  /// kinds equally well. `items` gives the user's items of a kind, with what they hold as their details (an
  /// event's place and notes, a note's text, a contact's organisation and notes).
  public static func lookUp(_ request: String, items: (ActionKind) -> [KnownItem]) -> String? {
    // "hair cut" names "Haircut": the request's neighbouring words are tried joined too.
    let spoken = words(request)
    let joined = zip(spoken, spoken.dropFirst()).map { $0 + $1 }.joined(separator: " ")
    let asked = request + " " + joined
    var scored: [(kind: ActionKind, item: KnownItem, score: Double)] = []
    for kind in [ActionKind.calendar, .reminder, .note, .contactsSearch, .habit] {
      let hinted = hints[kind, default: []].contains { spoken.contains($0) } ? 0.5 : 0
      for item in items(kind) {
        let score = ItemMatcher.score(item, request: asked)
        // A word of the item's own name, or two of what it holds: less is a coincidence.
        if score >= 1 { scored.append((kind, item, score + hinted)) }
      }
    }
    scored.sort { $0.score > $1.score }
    guard let best = scored.first else { return nil }
    if let next = scored.dropFirst().first, next.score == best.score,
      next.kind != best.kind || best.kind != .contactsSearch
    {
      return nil
    }
    let fields: [(String, String)]
    switch best.kind {
    case .calendar:
      // The day it happens next (or last did): the look-up shows its time, place, calendar and notes.
      let day = best.item.next.map { "\($0.date)" }
      fields = [("action", "query")] + (day.map { [("from", $0), ("to", $0)] } ?? []) + [("text", best.item.name)]
    case .reminder:
      // "What's in my Home list": that list; else every open reminder, the one named among them.
      let filter = RequestHints.reminderFilter(in: request)
      fields = DataQuestion.reminderFields(
        list: RequestHints.namedList(in: request), due: filter.due, priority: filter.priority)
    case .note: fields = [("action", "search"), ("query", best.item.name)]
    case .habit: fields = [("action", "stats"), ("name", best.item.name)]
    case .contactsSearch:
      // Several people tied by what they hold ("who do I know at Northwind Labs"): the words they share.
      let tied = scored.filter { $0.score == best.score && $0.kind == .contactsSearch }
      let held = best.item.details.reduce(Set<String>()) { $0.union(ItemMatcher.stems($1)) }
      // The request's own words for what they share, in its order ("northwind labs").
      let query =
        tied.count > 1
        ? spoken.filter { held.contains(ItemMatcher.stem($0)) && ItemMatcher.stems($0).count == 1 }.joined(
          separator: " ")
        : best.item.name
      fields = [("query", query.isEmpty ? best.item.name : query)]
    case .webSearch, .memory, .toolCall: return nil
    }
    return "[\(best.kind.rawValue):" + JSONValue.object(fields.map { ($0.0, .string($0.1)) }).jsonText + "]"
  }

  /// The person a question asks about spending time with: "do I have anything with Anna coming up?", "any plans
  /// with Marco soon" ask about the calendar, not for Anna's contact card. The part of a contact's name the
  /// request uses, as the contact writes it; `nil` when it names no one after "with" or asks nothing of plans.
  public static func companion(in request: String, contacts: [String]) -> String? {
    let spoken = words(request).map { $0.hasSuffix("'s") ? String($0.dropLast(2)) : $0 }
    let plans: Set<String> = [
      "anything", "something", "plans", "plan", "planned", "seeing", "see", "meet", "meeting", "meetings", "coming",
      "soon", "next", "booked", "catching", "catch",
    ]
    // Asked: a question, or "any plans with …"; "book lunch with Anna next week" asks for an event.
    let opensAsking = isQuestion(request) || ["any", "anything", "got", "plans"].contains(spoken.first ?? "")
    guard opensAsking, spoken.contains(where: plans.contains) else { return nil }
    for (index, word) in spoken.enumerated() where word == "with" && index + 1 < spoken.count {
      let after = spoken[index + 1]
      for contact in contacts {
        if let part = contact.split(separator: " ").map(String.init).first(where: {
          $0.count >= 3 && $0.lowercased() == after
        }) {
          return part
        }
      }
    }
    return nil
  }

  /// Words that say which kind of thing a question is about.
  static let hints: [ActionKind: [String]] = [
    .calendar: [
      "calendar", "appointment", "meeting", "event", "diary", "schedule", "flight", "fly", "flying", "depart",
      "booked", "see", "seeing", "land",
      "lands", "start", "starts", "finish", "finishes", "end", "ends",
    ],
    .reminder: ["reminder", "reminders", "list", "due", "overdue", "urgent", "priority", "to-do", "todo", "renew"],
    .note: ["note", "notes", "password", "code", "wrote", "ref", "reference"],
    .contactsSearch: [
      "number", "phone", "mobile", "cell", "email", "e-mail", "address", "birthday", "company", "met", "know", "work",
      "works", "job", "surname", "organisation", "organization", "employer", "firm", "live", "lives",
    ],
    .habit: ["habit", "streak"],
  ]

  /// The lower-case words of `text`, apostrophes and hyphens kept.
  public static func words(_ text: String) -> [String] {
    text.lowercased().replacingOccurrences(of: "’", with: "'")
      .split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "-" })
      .map(String.init)
  }
}
