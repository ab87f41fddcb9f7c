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
    // "fyi, I've got a peanut allergy", "just so you know: my GP is Dr Amal": told so that Hearth knows it.
    if let told = informed(text) { return explicitOnly || !told.isEmpty ? kept(told, today: today) : nil }
    text = strip(text, openings: politeOpenings)
    let lowered = text.lowercased()
    if let about = forgotten(lowered, original: text) { return .forget(about: about) }
    if var said = strip(text, openings: rememberCues, required: true) {
      // "Can you remember that my flat is on the 4th floor?" asks politely; what to keep is the statement.
      if said.hasSuffix("?") { said.removeLast() }
      return kept(said, today: today)
    }
    guard !explicitOnly, !text.contains("?"), tellsAboutTheUser(text) else { return nil }
    return kept(text, today: today)
  }

  /// Whether the statement, or one of its clauses ("switched practices, my new GP is Dr. Mbeki"), tells
  /// something lasting about the user.
  static func tellsAboutTheUser(_ text: String) -> Bool {
    let clauses = [text] + text.components(separatedBy: CharacterSet(charactersIn: ",;–—")).dropFirst()
    return clauses.contains { clause in
      var clause = clause.trimmingCharacters(in: .whitespaces)
      for implied in impliedOwnStatements where clause.lowercased().hasPrefix(implied) { clause = "I " + clause }
      return isAboutTheUser(clause.lowercased(), original: clause)
    }
  }

  /// How people tell a change of their life without saying "I": "just moved to Ghent", "started a new job at …".
  static let impliedOwnStatements = [
    "just moved to ", "moved to ", "recently moved to ", "just started a new job", "started a new job",
    "got a new job", "just started working", "started working",
  ]

  /// The statement after an opening that tells it for Hearth to know ("fyi", "btw", "just so you know", "for
  /// the record"), when it is about the user themselves and asks nothing.
  static func informed(_ text: String) -> String? {
    let lowered = text.lowercased()
    let cues = [
      "fyi", "btw", "by the way", "just so you know", "for the record", "for your information", "heads up",
      "note:", "so you know", "update:", "correction:", "quick update", "small update",
    ]
    guard let cue = cues.first(where: { lowered.hasPrefix($0) }) else { return nil }
    let rest = String(text.dropFirst(cue.count)).trimmingCharacters(in: CharacterSet(charactersIn: " ,:;-—."))
    let opening = " " + rest.lowercased()
    let own = [
      " i ", " i'm ", " i've ", " i'd ", " my ", " we ", " we're ", " we've ", " our ", " im ", " ive ",
      // "update: went fully vegetarian", "correction: moved to Ghent": the user's own change, said short.
      " went ", " moved ", " started ", " got ", " switched ", " changed ", " became ", " just ",
    ]
    guard own.contains(where: { opening.hasPrefix($0) }), !rest.contains("?") else { return nil }
    return rest
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
    // One statement: "… nuts. Also remind me to call mum" holds a request the other readers must see.
    guard isOneStatement(text) else { return nil }
    // "I have to pick up the kids", "I won't be home for dinner": a plan or a duty, the reminders' and the
    // calendar's, not something that lasts about the user.
    let planned = [
      " need to ", " have to ", " has to ", " had to ", " won't ", " will ", " going to ", " gonna ", " must ",
      " should ", " i'll ", " we'll ", " tomorrow", " tonight", " later", " today",
    ]
    guard !planned.contains(where: (" " + lowered + " ").contains) else { return nil }
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

  /// Whether `text` is one sentence: no line break, and no sentence end followed by more words ("Dr. Amal" and
  /// "e.g. tea" are one).
  static func isOneStatement(_ text: String) -> Bool {
    guard !text.trimmingCharacters(in: .whitespacesAndNewlines).contains(where: \.isNewline) else { return false }
    let abbreviations: Set<String> = [
      "dr", "mr", "mrs", "ms", "st", "jr", "sr", "prof", "e.g", "i.e", "etc", "vs", "no",
    ]
    let words = text.split(separator: " ")
    for (index, word) in words.enumerated() where index < words.count - 1 {
      guard let last = word.last, ".!?".contains(last) else { continue }
      let bare = word.dropLast().lowercased()
      if last == ".", abbreviations.contains(bare) || bare.count == 1 { continue }
      return false
    }
    return true
  }

  /// Whether a plain statement tells something lasting about the user: "My sister is called Ingrid", "I'm
  /// allergic to nuts", "I don't eat meat", "We live in Porto", "I've got two kids", "I'm in Lisbon until
  /// Friday". Passing states ("I'm tired", "I'm in a meeting"), requests and talk about the conversation ("I
  /// like that idea") are not; statements of a day's plan ("my meeting is at 3") are left to the other readers.
  static func isAboutTheUser(_ lowered: String, original: String) -> Bool {
    var text = firstPerson(" " + lowered + " ")
    var original = firstPersonOriginal(original)
    // "I just started a new job", "our son Emeric just started school": the adverb tells when, not what.
    for adverb in [" just ", " recently ", " finally ", " actually ", " also ", " now ", " originally ", " really "] {
      while let range = text.range(of: adverb) {
        text.replaceSubrange(range, with: " ")
        if let written = original.range(of: adverb.dropFirst(), options: .caseInsensitive) {
          original.replaceSubrange(written, with: "")
        }
      }
    }
    // "I'm in Lisbon until Friday" tells where the user is; "I'm in a meeting" only how they are.
    for opening in [" i'm in ", " i am in ", " i'm staying in ", " i am staying in "] where text.hasPrefix(opening) {
      let place = original.dropFirst(opening.count - 1).first
      return place?.isUppercase == true
    }
    let words = text.split(separator: " ").map(String.init)
    if opensAsSelf.contains(where: { text.hasPrefix($0) }) { return !endsOnTheConversation(words) }
    // "I have two kids", "I've got a peanut allergy"; not "I have a question".
    for opening in [" i have ", " i've got ", " i have got ", " i got "] where text.hasPrefix(opening) {
      let rest = text.dropFirst(opening.count).split(separator: " ").map(String.init)
      guard let first = rest.first,
        ["a", "an", "no", "one", "two", "three", "four", "five", "twins"].contains(first)
          || first.allSatisfy(\.isNumber)
      else { return false }
      return !rest.contains(where: passingThings.contains)
    }
    // "I'm a nurse", "I'm Portuguese", "I'm 34", "I'm diabetic"; not "I'm a bit lost", "I'm tired".
    for opening in [" i'm ", " i am "] where text.hasPrefix(opening) {
      let rest = text.dropFirst(opening.count).split(separator: " ").map(String.init)
      guard let first = rest.first, rest.count <= 6 else { return false }
      if ["a", "an"].contains(first) {
        return rest.count >= 2 && rest.count <= 6 && !["bit", "little", "lot", "big", "huge"].contains(rest[1])
          && !rest.contains(where: passingThings.contains)
      }
      let written = original.dropFirst(opening.count - 1).first
      // "I'm 34", "I'm 34 years old"; not "I'm 10 minutes away".
      let age = first.allSatisfy(\.isNumber) && (rest.count == 1 || rest[1].hasPrefix("year"))
      return written?.isUppercase == true || age || lastingStates.contains(first)
    }
    guard text.hasPrefix(" my ") else { return false }
    // "My brother's name is Tomas", "my GP is Dr Amal", "my fav band is …"; not "my meeting is at 3".
    let verbs = [
      " is ", " are ", " was ", " 's ", " is called ", " are called ", " is named ", " lives ", " works ", " has ",
      " started ", " plays ", " speaks ", " loves ", " likes ", " goes ",
    ]
    guard let verb = verbs.compactMap({ text.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) else {
      return false
    }
    let subject = text[..<verb.lowerBound].split(separator: " ").map(String.init)
    guard subject.count <= 5 else { return false }
    // "My son is sick", "my boss is annoying": how someone is today.
    let said = text[verb.upperBound...].split(separator: " ").first.map {
      $0.trimmingCharacters(in: .punctuationCharacters)
    }
    if let said, passingStates.contains(said) { return false }
    return !subject.contains(where: { passingThings.contains($0) || eventWords.contains($0) })
  }

  /// Openings of a lasting statement about oneself.
  static let opensAsSelf = [
    " i'm allergic", " i am allergic", " i'm vegetarian", " i am vegetarian", " i'm vegan", " i am vegan",
    " i'm pescatarian", " i'm lactose", " i am lactose", " i'm gluten", " i'm coeliac", " i'm celiac",
    " i'm intolerant", " i don't eat ", " i do not eat ", " i never eat ", " i don't drink ", " i do not drink ",
    " i can't eat ", " i cannot eat ", " i eat ", " i drink ", " i live ", " i moved to ", " i've moved to ",
    " i just moved to ", " i recently moved to ", " i relocated to ", " i'm based in ", " i am based in ",
    " i'm living in ", " i am living in ", " i grew up in ", " i'm from ", " i am from ", " i come from ",
    " i work at ", " i work for ", " i work as ", " i work in ", " i'm working at ", " i'm working as ",
    " i'm working for ", " i am working at ", " i am working as ", " i started working ", " i've started working ",
    " i got a job ", " i started a new job", " i have a new job", " i teach ", " i study ", " i'm studying ",
    " i was born ", " i prefer ", " i love ", " i like ", " i hate ", " i can't stand ", " i don't like ",
    " i'm into ", " i am into ", " i support ", " i'm a fan of ", " i am a fan of ", " i play ", " i speak ",
    " i drive ", " i ride ", " i'm married", " i am married", " i'm engaged", " i'm single", " i'm divorced",
    " i'm retired", " i am retired", " i'm learning ", " i am learning ", " i've been learning ",
    " i can't have ", " i cannot have ", " i avoid ", " i go by ", " i'm called ", " i am called ",
  ]

  /// "I like that idea", "I love you": about the conversation, not the user.
  static func endsOnTheConversation(_ words: [String]) -> Bool {
    let about: Set<String> = ["it", "this", "that", "these", "those", "them", "you", "your", "yours", "idea", "one"]
    let plain = words.map { $0.trimmingCharacters(in: .punctuationCharacters) }
    return plain.count <= 7 && plain.dropFirst(2).contains(where: about.contains)
  }

  /// What one has or is for a moment only.
  static let passingThings: Set<String> = [
    "question", "questions", "problem", "problems", "idea", "ideas", "headache", "cold", "doubt", "feeling",
    "request", "issue", "issues", "minute", "moment", "sec", "second", "bit", "meeting", "call", "appointment",
    "tired", "hungry", "thirsty", "bored", "sick", "ill", "fine", "ok", "okay", "good", "great", "well", "busy",
    "back", "here", "ready", "done", "sorry", "sure", "confused", "lost", "stressed", "sad", "happy", "excited",
    "late", "going", "trying", "looking", "thinking", "wondering", "not", "so", "very", "just", "still", "about",
    "having", "lot", "lots", "suggestion", "thought", "favour", "favor", "chance", "reason", "point", "plan", "getting",
    "doing", "planning", "asking", "glad", "afraid", "worried", "curious", "on",
    "off", "out", "away", "running", "leaving", "coming", "writing", "reading", "working", "free", "available",
  ]

  /// How someone is for a while, never for good.
  static let passingStates: Set<String> = [
    "annoying", "annoyed", "asleep", "awake", "angry", "upset", "sick", "unwell", "poorly", "driving", "travelling",
    "traveling", "visiting", "staying", "late", "early", "here", "there", "gone", "broken", "dead", "flat", "tired",
    "hungry", "bored", "ill", "fine", "ok", "okay", "busy", "back", "ready", "done", "sorry", "confused", "lost",
    "stressed", "sad", "happy", "excited", "away", "out", "off", "coming", "going", "running", "waiting",
  ]

  /// What a day's plan is made of, which the calendar and reminders keep.
  static let eventWords: Set<String> = [
    "meeting", "appointment", "flight", "train", "bus", "call", "lunch", "dinner", "breakfast", "party", "class",
    "lesson", "deadline", "order", "package", "delivery", "battery", "laptop", "phone", "screen", "internet",
    "wifi", "reminder", "note", "event", "calendar", "schedule", "plan", "plans", "day", "week", "weekend",
    "question", "answer", "message", "email", "mail", "point", "guess", "bad", "mistake",
  ]

  /// "I'm diabetic", "I'm retired": a state that lasts.
  static let lastingStates: Set<String> = [
    "diabetic", "pregnant", "asthmatic", "epileptic", "colourblind", "colorblind", "colour-blind", "color-blind",
    "deaf", "blind", "left-handed", "right-handed", "retired", "unemployed", "self-employed", "freelance",
    "single", "married", "divorced", "widowed", "engaged", "vegetarian", "vegan", "pescatarian", "teetotal",
    "sober", "lactose", "gluten", "coeliac", "celiac", "allergic", "intolerant", "muslim", "jewish", "christian",
    "hindu", "buddhist", "atheist",
  ]

  /// A household's "we" and "our" as the user's "I" and "my".
  static func firstPerson(_ text: String) -> String {
    for (from, to) in householdOpenings where text.hasPrefix(" " + from) {
      return " " + to.lowercased() + text.dropFirst(from.count + 1)
    }
    return text
  }

  /// The same for the statement as written, so that a word's capital is found where the rule looks for it.
  static func firstPersonOriginal(_ text: String) -> String {
    let lowered = text.lowercased()
    for (from, to) in householdOpenings where lowered.hasPrefix(from) { return to + text.dropFirst(from.count) }
    return text
  }

  /// Openings in a household's words or typed without an apostrophe, and the user's own, as written.
  static let householdOpenings = [
    ("we're ", "I'm "), ("we are ", "I am "), ("we've ", "I've "), ("we ", "I "), ("our ", "my "),
    ("ive ", "I've "), ("im ", "I'm "),
  ]
}

/// What a fact is about, so a later statement on the same thing takes its place: "My brother's name is
/// Tomás" replaces "My brother's name is Tomas", "I eat meat again" replaces "I don't eat meat", "I'm in
/// Paris" replaces "I'm in Lisbon until Friday".
public enum FactSubject {
  /// The key two facts about the same thing share.
  public static func key(_ statement: String) -> String {
    var text = " " + statement.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    // The clause that tells about the user: "switched practices, my GP is Dr. Mbeki" is about "my GP".
    let clauses = text.components(separatedBy: CharacterSet(charactersIn: ",;–—"))
    if !text.hasPrefix(" my "), !text.hasPrefix(" i "),
      let own = clauses.dropFirst().first(where: { $0.hasPrefix(" my ") || $0.hasPrefix(" i ") })
    {
      text = own + " "
    }
    text = text.replacingOccurrences(of: "[.!,;:]", with: " ", options: .regularExpression)
    text = FactStatement.firstPerson(text)
    let expansions = [
      (" i'm ", " i am "), (" i've ", " i have "), (" don't ", " "), (" do not ", " "), (" doesn't ", " "),
      (" does not ", " "), (" not ", " "), (" never ", " "), (" no longer ", " "), (" can't ", " "),
      (" cannot ", " "), (" isn't ", " is "), (" aren't ", " are "), (" again ", " "), (" anymore ", " "),
      (" any more ", " "), (" now ", " "), (" actually ", " "), (" just ", " "), (" recently ", " "),
      (" currently ", " "), (" also ", " "), (" favorite ", " favourite "), (" fav ", " favourite "),
      (" fave ", " favourite "), (" color ", " colour "), (" new ", " "), (" current ", " "), (" latest ", " "),
    ]
    for (from, to) in expansions {
      while text.contains(from) { text = text.replacingOccurrences(of: from, with: to) }
    }
    let words = text.split(separator: " ").map(String.init)
    // "my brother's name is …" and "my brother is called …" are about his name; "my brother is a nurse" about
    // what he is, and "my brother lives in Oslo" about where he lives: a subject and what is said of it.
    let verbs = ["is", "are", "was", "'s", "lives", "works", "has", "plays", "speaks", "likes", "loves", "goes"]
    if words.first == "my", let verb = words.firstIndex(where: verbs.contains) {
      var subject = words[..<verb].map { $0.hasSuffix("'s") ? String($0.dropLast(2)) : $0 }
      let named = subject.last == "name" || ["called", "named"].contains(words.dropFirst(verb + 1).first ?? "")
      if subject.last == "name" { subject.removeLast() }
      // A name given after "my sister" ("my sister Ingrid is a nurse") is who, not what.
      if subject.count >= 3, !["favourite", "best"].contains(subject[1]) { subject = Array(subject.prefix(2)) }
      let said = named ? "name" : ["is", "are", "was", "'s"].contains(words[verb]) ? "is" : words[verb]
      return (subject + [said]).joined(separator: " ")
    }
    // One home, one job and one diet at a time: "I moved to Ghent" takes the place of "I live in Porto".
    let joined = " " + words.joined(separator: " ") + " "
    for (topic, cues) in topics where cues.contains(where: joined.hasPrefix) { return topic }
    if [" vegetarian", " vegan", " pescatarian"].contains(where: joined.contains), joined.hasPrefix(" i ") {
      return "diet"
    }
    return words.joined(separator: " ")
  }

  /// Things a person has one of at a time, and the words that tell of each.
  static let topics: [(String, [String])] = [
    ("where i am", [" i am in ", " i am staying ", " i am at "]),
    (
      "home",
      [
        " i live ", " i moved to ", " moved to ", " i relocated to ", " i am based in ", " i am living in ",
        " my home is ", " my address is ",
      ]
    ),
    (
      "job",
      [
        " i work at ", " i work for ", " i work as ", " i work in ", " i am working at ", " i am working as ",
        " i am working for ", " i started working ", " started working ", " i got a job ", " got a job ",
        " i started a job", " started a job", " my job is ", " my employer is ",
      ]
    ),
    (
      "diet",
      [
        " i am vegetarian", " i am vegan", " i am pescatarian", " i eat meat", " i eat fish", " my diet ",
        " went vegetarian", " went fully vegetarian", " went vegan", " went fully vegan",
      ]
    ),
  ]
}
