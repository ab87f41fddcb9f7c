import Foundation

/// What an answer may state about the user's data: only what the records read for its turn hold.
///
/// The check reads the answer sentence by sentence. A sentence speaks of the user's data when the request does,
/// when it names one of the user's items (an event, a contact, a reminder …) or when it talks of "your calendar",
/// "you have" and the like. In such a sentence every date, time, phone number, e-mail address, longer number and
/// proper name must be in the records read (or in the request's own words); a weekday written beside a date must be
/// that date's; a date or time beside an item's name must be one that item's record gives; and "I've added …"
/// needs an action that ran in the turn. Anything else is a finding: the answer states what no record holds.
public struct AnswerCheck: Sendable {
  /// What the answer may draw on.
  public struct Grounds: Sendable {
    /// The request, whose own words the answer may repeat.
    public var request: String
    /// The records read for the turn, as text (one record a line where possible).
    public var records: [String]
    /// The names of the user's items (event titles, contact names, note titles …): a sentence naming one
    /// speaks of the user's data.
    public var itemNames: [String]
    /// An action ran in this turn (a block created, changed or queued a change).
    public var actionRan: Bool
    /// The request asks about the user's own data, so every sentence of the answer is read as being about it.
    public var requestIsAboutData: Bool
    /// The user's today: years of dates written without one, and the day "today" names.
    public var today: LocalDate
    /// The memory's numbered passages the model read, by number: a sentence that cites `[n]` states what
    /// passage `n` says, so its dates, times, numbers, addresses and names must be in that passage (or the
    /// request), not merely somewhere in what the turn read.
    public var passages: [Int: String] = [:]

    public init(
      request: String, records: [String], itemNames: [String], actionRan: Bool, requestIsAboutData: Bool,
      today: LocalDate
    ) {
      self.request = request
      self.records = records
      self.itemNames = itemNames
      self.actionRan = actionRan
      self.requestIsAboutData = requestIsAboutData
      self.today = today
    }
  }

  public let grounds: Grounds
  let reader: ClaimReader
  private let known: [AnswerClaim]
  private let recordText: String
  /// Each line of the records, as written and folded, for the facts of the items a sentence names.
  private let recordLines: [(text: String, folded: String)]
  /// The request folded, and the facts it states itself.
  let request: (folded: String, facts: Set<String>)
  private let names: [String]

  public init(_ grounds: Grounds) {
    self.grounds = grounds
    reader = ClaimReader(today: grounds.today)
    let sources = grounds.records + [grounds.request]
    // Today and the days named in the answer's week are facts of the clock, not of the data.
    let week = (0..<14).map { grounds.today.adding(days: $0).description }.joined(separator: " ")
    known = reader.facts(in: sources.joined(separator: "\n") + "\n" + week)
    recordText = Self.folded(sources.joined(separator: "\n"))
    recordLines = grounds.records.flatMap { $0.split(separator: "\n").map { (String($0), Self.folded(String($0))) } }
    request = (Self.folded(grounds.request), Set(reader.facts(in: grounds.request).map(\.value)))
    // A one-word name ("Run", "Read", "Will") is a name only as written, capitalised: in lower case it is a word.
    names = grounds.itemNames.filter { $0.count >= 3 }.map { $0.contains(" ") ? Self.folded($0) : $0 }
    let reader = reader
    passageFacts = grounds.passages.mapValues { passage in
      (Set(reader.facts(in: passage).map(\.value)), Self.folded(passage))
    }
  }

  /// Each cited passage's facts and its folded text.
  let passageFacts: [Int: (facts: Set<String>, folded: String)]

  /// The item names `sentence` mentions (one-word names as written, longer ones in any case).
  private func named(in sentence: String) -> [String] {
    let folded = Self.folded(sentence)
    return names.filter { name in
      name.contains(" ") ? Self.contains(folded, word: name) : Self.contains(sentence, word: name)
    }.map(Self.folded)
  }

  /// What the answer states that the grounds do not hold; empty when it may be shown.
  public func findings(in answer: String) -> [AnswerClaim] {
    var findings: [AnswerClaim] = []
    for sentence in Self.sentences(of: answer) {
      let folded = Self.folded(sentence)
      let named = named(in: sentence)
      // A sentence that cites the memory ("[2]") states what that passage says.
      let cited = Self.citedNumbers(in: sentence)
      guard grounds.requestIsAboutData || !cited.isEmpty || !named.isEmpty || Self.speaksOfTheUsersData(folded) else {
        // A weekday beside a date that falls on another day is wrong whatever the sentence speaks of: the
        // calendar's days are known ("Today is Monday 2026-11-26" on a Thursday). Only a date written with its
        // year counts here: "Sunday, July 20" in a sentence about 1969 is no claim about this year.
        findings += wrongWeekdays(in: sentence, writtenWithYear: true)
        continue
      }
      // "Shall I add it?" offers; "I've added it" tells.
      let asks = sentence.trimmingCharacters(in: .whitespaces).hasSuffix("?")
      if !asks, let claim = Self.actionClaim(in: sentence), !grounds.actionRan { findings.append(claim) }
      let claims = reader.facts(in: sentence)
      findings += unsupported(in: sentence, claims: claims, naming: named)
      if !cited.isEmpty { findings += disagreeing(claims, citing: cited) }
    }
    return findings
  }

  private func unsupported(in sentence: String, claims: [AnswerClaim], naming named: [String]) -> [AnswerClaim] {
    var findings: [AnswerClaim] = []
    for claim in claims where !holds(claim) { findings.append(claim) }
    findings += wrongWeekdays(in: sentence)
    // A date or time beside an item's name must be that item's: "the dentist is on Friday" when it is on Tuesday.
    if !named.isEmpty {
      let about = recordLines.filter { line in named.contains { Self.contains(line.folded, word: $0) } }
      if !about.isEmpty {
        let theirs = Set(about.flatMap { reader.facts(in: $0.text) }.map(\.value))
        for claim in claims where [.date, .time].contains(claim.kind) && holds(claim) {
          if !theirs.contains(claim.value) && !request.facts.contains(claim.value) { findings.append(claim) }
        }
      }
    }
    findings += unknownNames(in: sentence)
    if !named.isEmpty, let detail = unsupportedDetail(in: sentence) { findings.append(detail) }
    return findings
  }

  /// Words a sentence about one of the user's items says of it that neither the records nor the request hold:
  /// "Priya Shah is a talented yoga instructor" when her contact says nothing of yoga. One stray word ("enjoy")
  /// is let pass; two or more are a description the model made up.
  private func unsupportedDetail(in sentence: String) -> AnswerClaim? {
    let words = Self.folded(sentence).split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "-" }).map {
      String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'-"))
    }
    let unsupported = words.filter { word in
      word.count >= 4 && !Self.commonWords.contains(word) && !recordText.contains(word)
        && !request.folded.contains(word)
        && !(word.hasSuffix("s") && recordText.contains(String(word.dropLast())))
    }
    guard unsupported.count >= 2 else { return nil }
    return AnswerClaim(.detail, unsupported.joined(separator: " "), written: unsupported.joined(separator: ", "))
  }

  /// Words that say nothing about an item of the user's: how a sentence is built, when, and how the assistant speaks.
  static let commonWords: Set<String> = Set(
    """
    about above after again also always among another anything around away been before being below between both     could does doing done down during each either else even ever every from have having here hers herself himself     into itself just like many more most much must near need next none only other ours ourselves over same shall     should since some such than that their theirs them themselves then there these they this those through till     under until upon very want were what whatever when where whether which while whom whose will with within     without would your yours yourself yourselves today tomorrow tonight yesterday morning afternoon evening night     week weekend month year day days hour hours minute minutes time times later earlier soon now still already     monday tuesday wednesday thursday friday saturday sunday january february march april june july august     september october november december planned scheduled schedule calendar event events reminder reminders note     notes contact contacts habit habits streak meeting appointment looks look found find finding nothing     something anyone someone sure okay please thanks thank hello here's there's what's it's that's you're you've     i'm i've don't can't won't isn't aren't doesn't didn't let's great good nice happy glad enjoy hope help     assist know tell told said says information details detail record records data also just upcoming coming     going come comes named called called titled due overdue priority list lists open number phone email mail     birthday organisation organization address notes
    """.split(whereSeparator: \.isWhitespace).map(String.init))

  private func holds(_ claim: AnswerClaim) -> Bool {
    switch claim.kind {
    case .phone:
      // A number may be written with other spacing, or without its country code.
      let digits = recordText.filter(\.isNumber)
      return digits.contains(claim.value) || (claim.value.count >= 7 && digits.contains(claim.value.suffix(7)))
    case .email, .name: return recordText.contains(claim.value)
    case .number: return known.contains { $0.value.contains(claim.value) } || recordText.contains(claim.value)
    default: return known.contains { $0.kind == claim.kind && $0.value == claim.value }
    }
  }

  /// "Monday 2026-12-02": a weekday beside a date that falls on another day.
  private func wrongWeekdays(in sentence: String, writtenWithYear: Bool = false) -> [AnswerClaim] {
    var findings: [AnswerClaim] = []
    let days = (Weekday.allCases.map(\.name) + Weekday.allCases.map(\.abbreviation)).joined(separator: "|")
    _ = ClaimReader.replacing("(?i)\\b(\(days))\\b\\.?,? (?:the )?([^,;\\n]{4,24})", in: sentence) { groups in
      // Only a date that follows the weekday at once is the weekday's: "Thursday to Monday 2026-11-30" is not.
      let following = groups[2].trimmingCharacters(in: .whitespaces)
      guard let weekday = Weekday(name: groups[1]),
        let date = reader.facts(in: following).first(where: { $0.kind == .date && following.hasPrefix($0.written) }),
        !writtenWithYear || date.written.range(of: #"\d{4}"#, options: .regularExpression) != nil,
        let day = LocalDate(parsing: date.value), day.weekday != weekday
      else { return }
      findings.append(AnswerClaim(.weekday, "\(weekday.name) \(date.value)", written: groups[0]))
    }
    return findings
  }

  /// Proper names the records and the request never mention: "Priya works at Globex" when no record says Globex.
  private func unknownNames(in sentence: String) -> [AnswerClaim] {
    let words = sentence.split(whereSeparator: { $0.isWhitespace || ",;:()\"“”!?".contains($0) }).map(String.init)
    var findings: [AnswerClaim] = []
    var run: [String] = []
    func close(at index: Int, start: Int) {
      defer { run = [] }
      // A capital that only starts the sentence says nothing; two capitals in a row start a name.
      let phrase = run.filter { !Self.ordinaryCapitals.contains($0.lowercased()) }
      guard !phrase.isEmpty, !(index - run.count == start && run.count == 1) else { return }
      var name = phrase.joined(separator: " ")
      for suffix in ["'s", "’s"] where name.hasSuffix(suffix) { name.removeLast(2) }
      name = name.trimmingCharacters(in: CharacterSet(charactersIn: ".'’"))
      let folded = Self.folded(name)
      guard folded.count >= 3, !recordText.contains(folded) else { return }
      // Each word of a name the records hold in parts ("Dinner with Marco" → "Marco") is enough.
      if phrase.allSatisfy({ recordText.contains(Self.folded($0).trimmingCharacters(in: .punctuationCharacters)) }) {
        return
      }
      findings.append(AnswerClaim(.name, folded, written: name))
    }
    // Where the sentence (or a list item, or what follows a colon) starts: a capital there says nothing alone.
    var start = 0
    for (index, word) in words.enumerated() {
      let clean = word.trimmingCharacters(in: .punctuationCharacters)
      if clean.isEmpty || !clean.contains(where: \.isLetter) {
        if !run.isEmpty { close(at: index, start: start) }
        start = index + 1
        continue
      }
      if let first = clean.first, first.isUppercase, clean.count > 1 || !run.isEmpty {
        run.append(clean)
        if word.last.map({ ".!?".contains($0) }) == true { close(at: index + 1, start: start) }
      } else if !run.isEmpty {
        close(at: index, start: start)
      }
      if word.hasSuffix(":") { start = index + 1 }
    }
    if !run.isEmpty { close(at: words.count, start: start) }
    return findings
  }

  /// Capitalised words that name nothing of the user's.
  static let ordinaryCapitals: Set<String> = Set(
    [
      "i", "i'm", "i've", "i'll", "i'd", "you", "your", "you're", "you've", "the", "a", "an", "it", "it's", "this",
      "that", "there", "here", "on", "at", "in", "for", "from", "to", "with", "and", "or", "but", "no", "yes",
      "hearth", "today", "tomorrow", "yesterday", "tonight", "sorry", "sure", "ok", "okay", "hi", "hello", "note",
      "reminder", "reminders", "event", "events", "calendar", "contact", "contacts", "habit", "habits", "notes",
      "nothing", "looked", "searched", "found", "due", "overdue", "priority", "high", "medium", "low", "all", "day",
      "am", "pm", "utc", "mr", "mrs", "ms", "dr", "cell", "home", "work", "mobile", "phone", "e-mail", "email",
      "birthday", "streak", "best", "done", "not", "yet", "let", "me", "my", "we", "our", "please", "thanks",
      "what", "when", "where", "who", "which", "how", "is", "are", "was", "do", "does", "did", "have", "has",
      "personal", "reminders'", "organisation", "organization", "list", "should", "would", "could", "can",
      "shall", "must", "might", "say",
    ] + Weekday.allCases.map { $0.name.lowercased() } + ClaimReader.months
      + ClaimReader.months.map { String($0.prefix(3)) })

  /// "I've added a reminder", "has been scheduled", "you just added": the answer says it changed the data.
  static func actionClaim(in sentence: String) -> AnswerClaim? {
    let verbs =
      "added|created|scheduled|booked|set|moved|deleted|removed|cancell?ed|canceled|updated|saved|marked|"
      + "logged|noted|renamed|rescheduled|put"
    let patterns = [
      "(?i)\\b(i've|i have|i|we've|we have)( just| now| also)? (\(verbs))\\b",
      "(?i)\\b(has|have|had) (just )?been (\(verbs))\\b",
      "(?i)\\byou('ve| have)? (just )(\(verbs))\\b",
    ]
    for pattern in patterns {
      var found: String?
      _ = ClaimReader.replacing(pattern, in: sentence) { groups in found = found ?? groups[0] }
      if let found { return AnswerClaim(.action, found.lowercased(), written: found) }
    }
    return nil
  }

  /// "your calendar", "you have", "you're free": words that make a sentence a statement about the user's data.
  static func speaksOfTheUsersData(_ folded: String) -> Bool {
    let things =
      "calendar|schedule|diary|agenda|reminders?|to-?dos?|tasks?|notes?|contacts?|events?|meetings?|appointments?|"
      + "habits?|streaks?|plans|birthdays?|check-?ins?"
    let patterns = [
      "\\byour (next |upcoming |latest |last |own |open )?(\(things))\\b",
      "\\byou (have|had|'ve got|have got) (a |an |no |one |two |three |\\d+ |nothing|something|anything)?"
        + "([a-z]+ )?(\(things))\\b",
      "\\byou('re| are) (free|busy)\\b", "\\b(is|are|was|were) (due|overdue)\\b",
      // The user's own life, which only what they told Hearth holds: "your brother is called …" (not advice
      // such as "your mum might like a scarf").
      "\\byour (wife|husband|partner|boyfriend|girlfriend|brother|sister|mother|mum|mom|father|dad|son|"
        + "daughter|kids|children|boss|manager|doctor|dentist|dog|cat|friend|neighbou?r|allerg[a-z]*|"
        + "address|favou?rite [a-z]+|name)('s name)? (is|are|was|'s) ",
      "\\byou('re| are) allergic\\b", "\\byou live (in|at)\\b", "\\byou work (at|for|as)\\b",
    ]
    return patterns.contains { pattern in
      var hit = false
      _ = ClaimReader.replacing(pattern, in: folded) { _ in hit = true }
      return hit
    }
  }

  /// Whether text meant for the user still holds a block or the remains of one: a kind's name such as
  /// `CALENDAR_ACTION` or `CONTACTS_SEARCH`, or a payload's `{"action":`.
  public static func holdsBlockRemains(_ text: String) -> Bool {
    let kinds = #"\b[A-Z]+_(ACTION|SEARCH|CALL)\b"#
    return text.range(of: kinds, options: .regularExpression) != nil
      || text.range(of: #"\{\s*"action"\s*:"#, options: .regularExpression) != nil
  }

  /// The sentences of a text (lines and full stops); list lines each count as one.
  static func sentences(of text: String) -> [String] {
    var sentences: [String] = []
    for line in text.split(separator: "\n") {
      var current = ""
      let characters = Array(line)
      for (index, character) in characters.enumerated() {
        current.append(character)
        let next = index + 1 < characters.count ? characters[index + 1] : " "
        if "!?".contains(character) || (character == "." && next == " ") {
          sentences.append(current)
          current = ""
        }
      }
      if !current.trimmingCharacters(in: .whitespaces).isEmpty { sentences.append(current) }
    }
    return sentences
  }

  /// Lower case, curly quotes straightened, runs of space as one.
  static func folded(_ text: String) -> String {
    text.lowercased().replacingOccurrences(of: "’", with: "'").split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
  }

  /// Whether `text` holds `word` as whole words.
  static func contains(_ text: String, word: String) -> Bool {
    var searched = text[...]
    while let range = searched.range(of: word) {
      let before = range.lowerBound == text.startIndex ? " " : text[text.index(before: range.lowerBound)]
      let after = range.upperBound == text.endIndex ? " " : text[range.upperBound]
      if !before.isLetter && !before.isNumber && !after.isLetter && !after.isNumber { return true }
      searched = text[range.upperBound...]
    }
    return false
  }
}
