import Foundation
public import HearthCore

/// What a user's message asks Hearth to keep about them, or to forget, read by code from its words:
/// "Remember that I'm allergic to nuts", "My brother's name is Tomas", "I'm in Lisbon until Friday",
/// "Forget that I live in Porto". The statement kept is the user's own, without the words that asked for it.
public enum FactStatement: Sendable, Hashable {
  case remember(text: String, until: LocalDate?)
  case forget(about: String)

  /// The message read as a fact to keep or forget; `nil` when it is neither. `explicitOnly` reads only the
  /// messages that say so ("remember that …", "forget …"), as a drafter does before any other reader; a
  /// plain statement about the user ("My sister is called Ingrid") is read only after the others found
  /// nothing in it.
  public static func read(_ message: String, today: LocalDate, explicitOnly: Bool = false) -> FactStatement? {
    var text = message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "’", with: "'")
    text = strip(text, openings: politeOpenings)
    let lowered = text.lowercased()
    if let about = forgotten(lowered, original: text) { return .forget(about: about) }
    if var said = strip(text, openings: rememberCues, required: true) {
      // "Can you remember that my flat is on the 4th floor?" asks politely; what to keep is the statement.
      if said.hasSuffix("?") { said.removeLast() }
      return kept(said, today: today)
    }
    guard !explicitOnly, !text.contains("?"), isAboutTheUser(lowered, original: text) else { return nil }
    return kept(text, today: today)
  }

  /// The block that carries it out.
  public var block: String {
    switch self {
    case .remember(let text, let until):
      var payload: [(String, JSONValue)] = [("action", .string("remember")), ("text", .string(text))]
      if let until { payload.append(("until", .string(until.description))) }
      return "[\(ActionKind.memory.rawValue):\(JSONValue.object(payload).jsonText)]"
    case .forget(let about):
      return
        "[\(ActionKind.memory.rawValue):\(JSONValue.object([("action", .string("forget")), ("about", .string(about))]).jsonText)]"
    }
  }

  // MARK: Reading

  static let politeOpenings = [
    "please ", "hey hearth, ", "hey hearth ", "hearth, ", "ok, ", "okay, ", "oh, ", "also, ", "and ", "actually, ",
    "actually ", "by the way, ", "by the way ", "btw, ", "btw ", "fyi, ", "fyi: ", "fyi ", "just so you know, ",
    "just so you know ", "for the record, ", "for the record: ", "can you ", "could you ", "would you ",
  ]

  /// Words that ask Hearth to keep what follows.
  static let rememberCues = [
    "remember that ", "remember: ", "remember, ", "don't forget that ", "do not forget that ", "keep in mind that ",
    "bear in mind that ", "note that i ", "note that i'm ", "note that my ", "make a mental note that ",
    "remember i ", "remember i'm ", "remember my ",
    "save the fact that ", "store the fact that ", "memorise that ", "memorize that ", "learn that ",
  ]

  /// `text` without the first of `openings` it starts with (case-insensitively), repeatedly; with `required`,
  /// `nil` unless one was there. An opening that ends inside the statement ("remember my") keeps that part.
  static func strip(_ text: String, openings: [String], required: Bool) -> String? {
    let lowered = text.lowercased()
    for opening in openings where lowered.hasPrefix(opening) {
      // "remember my …" and "note that i …" keep their last word: it is the statement's own.
      let words = opening.split(separator: " ")
      let ownWord = ["i", "i'm", "my"].contains(words.last.map(String.init) ?? "")
      let kept = ownWord ? words.dropLast().joined(separator: " ").count + 1 : opening.count
      let rest = String(text.dropFirst(kept)).trimmingCharacters(in: .whitespaces)
      return rest.isEmpty ? nil : rest
    }
    return required ? nil : text
  }

  static func strip(_ text: String, openings: [String]) -> String {
    var text = text
    while let shorter = strip(text, openings: openings, required: true), shorter != text { text = shorter }
    return text
  }

  /// "forget that I live in Porto", "forget my brother's name", "forget what I said about the allergy":
  /// the words naming the fact; `nil` for "don't forget …" (a reminder) and "forget it" (a follow-up).
  static func forgotten(_ lowered: String, original: String) -> String? {
    let openings = [
      "forget what i said about ", "forget what i told you about ", "forget about ", "forget that ", "forget ",
      "stop remembering that ", "stop remembering ", "you can forget that ", "you can forget ",
      "delete the fact that ", "delete the fact ",
    ]
    guard let opening = openings.first(where: { lowered.hasPrefix($0) }) else { return nil }
    var about = String(original.dropFirst(opening.count)).trimmingCharacters(in: .whitespaces)
    about = about.trimmingCharacters(in: CharacterSet(charactersIn: ".!"))
    let vague: Set<String> = ["it", "that", "this", "everything", "all", "all that", "about it", "the rest"]
    guard about.count >= 3, !vague.contains(about.lowercased()) else { return nil }
    return about
  }

  /// The statement to keep, with its last day when it says one ("until Friday", "till the 12th").
  static func kept(_ said: String, today: LocalDate) -> FactStatement? {
    var text = said.trimmingCharacters(in: .whitespacesAndNewlines)
    // "Remember to buy milk" is a to-do, not something about the user; neither is a question.
    let lowered = text.lowercased()
    guard !lowered.hasPrefix("to "), !text.hasSuffix("?"), text.count <= Fact.maximumLength else { return nil }
    var until: LocalDate?
    for marker in [" until ", " till ", " untill ", " through "] {
      guard let range = lowered.range(of: marker) else { continue }
      let after = String(lowered[range.upperBound...])
      if let day = RequestHints(after, today: today).dates.first, day >= today { until = day }
      break
    }
    text = text.trimmingCharacters(in: CharacterSet(charactersIn: " ,;"))
    guard let first = text.first else { return nil }
    text = first.uppercased() + text.dropFirst()
    if let last = text.last, !".!".contains(last) { text += "." }
    return .remember(text: text, until: until)
  }

  /// Whether a plain statement tells something lasting about the user: "My sister is called Ingrid", "I'm
  /// allergic to nuts", "I don't eat meat", "I live in Porto", "I'm in Lisbon until Friday". Statements of a
  /// day's plan ("my meeting is at 3") are left to the other readers, which come first.
  static func isAboutTheUser(_ lowered: String, original: String) -> Bool {
    let text = " " + lowered + " "
    // "I'm in Lisbon until Friday" tells where the user is; "I'm in a meeting" only how they are.
    for opening in [" i'm in ", " i am in ", " i'm staying in ", " i am staying in "] where text.hasPrefix(opening) {
      let place = original.dropFirst(opening.count - 1).first
      return place?.isUppercase == true
    }
    let opensAsSelf = [
      " i'm allergic", " i am allergic", " i'm vegetarian", " i am vegetarian", " i'm vegan", " i am vegan",
      " i'm lactose", " i am lactose", " i'm gluten", " i don't eat ", " i do not eat ", " i never eat ",
      " i don't drink ", " i do not drink ", " i can't eat ", " i cannot eat ", " i eat ", " i drink ",
      " i live in ", " i live at ",
      " i work at ", " i work for ", " i work as ", " i was born ", " i prefer ", " i speak ", " i drive a ",
      " i have a dog", " i have a cat", " i have two ", " i have three ", " i'm married", " i am married",
    ]
    if opensAsSelf.contains(where: { text.hasPrefix($0) }) { return true }
    guard text.hasPrefix(" my ") else { return false }
    // "My brother's name is Tomas", "my favourite colour is green", "my wife is called Ana".
    let relations = [
      "name", "called", "wife", "husband", "partner", "boyfriend", "girlfriend", "brother", "sister", "mother",
      "mum", "mom", "father", "dad", "son", "daughter", "kids", "children", "dog", "cat", "favourite", "favorite",
      "birthday", "anniversary", "address", "blood type", "allergy", "allergies", "doctor", "dentist", "boss",
      "manager", "colleague", "friend", "neighbour", "neighbor", "job", "employer", "flat", "home", "car",
      "diet", "shoe size", "size",
    ]
    let verbs = [" is ", " are ", " was ", " is called ", " are called "]
    guard let verb = verbs.compactMap({ text.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) else {
      return false
    }
    let subject = text[..<verb.lowerBound]
    return relations.contains { subject.contains($0) }
  }
}

/// What a fact is about, so a later statement on the same thing takes its place: "My brother's name is
/// Tomás" replaces "My brother's name is Tomas", "I eat meat again" replaces "I don't eat meat", "I'm in
/// Paris" replaces "I'm in Lisbon until Friday".
public enum FactSubject {
  /// The key two facts about the same thing share.
  public static func key(_ statement: String) -> String {
    var text = " " + statement.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    text = text.replacingOccurrences(of: "[.!,;:]", with: " ", options: .regularExpression)
    let expansions = [
      (" i'm ", " i am "), (" don't ", " "), (" do not ", " "), (" doesn't ", " "), (" does not ", " "),
      (" not ", " "), (" never ", " "), (" no longer ", " "), (" can't ", " "), (" cannot ", " "),
      (" isn't ", " is "), (" aren't ", " are "), (" again ", " "), (" anymore ", " "), (" any more ", " "),
      (" now ", " "), (" actually ", " "),
    ]
    for (from, to) in expansions {
      while text.contains(from) { text = text.replacingOccurrences(of: from, with: to) }
    }
    let words = text.split(separator: " ").map(String.init)
    // "my brother's name is …": what comes before the verb is the subject.
    if words.first == "my", let verb = words.firstIndex(where: { ["is", "are", "was"].contains($0) }) {
      return words[..<verb].joined(separator: " ")
    }
    // "I live in …", "I work at …", "I am in …": one place or one job at a time.
    let oneAtATime = [["i", "live"], ["i", "work"], ["i", "am", "in"], ["i", "am", "staying"], ["i", "am", "at"]]
    if let prefix = oneAtATime.first(where: { words.starts(with: $0) }) { return prefix.joined(separator: " ") }
    return words.joined(separator: " ")
  }
}
