import Foundation
import HearthCore

extension RequestHints {
  /// Words that ask for something rather than name it, dropped from the start of a title.
  static let commandWords: Set<String> = [
    "please", "can", "could", "would", "you", "hey", "add", "schedule", "book", "put", "create", "plan", "set",
    "up", "make", "new", "an", "a", "the", "event", "called", "named", "titled", "i", "have", "got", "there", "is",
    "remind", "me", "to", "need", "want", "let's", "lets", "in", "on", "my", "calendar", "for", "reminder",
    "todo", "to-do", "note", "that", "about", "also", "and", "we", "are", "will", "be", "should", "must", "i've",
    "i'm", "we've", "we're", "there's",
  ]

  /// Words that say how often, left out of a habit's name.
  static let scheduleWords: Set<String> = [
    "every", "day", "daily", "each", "week", "weekly", "times", "a", "start", "starting", "begin", "track", "habit",
    "new", "want", "to", "try", "going", "morning", "evening", "on", "and",
  ]

  /// The text a new note keeps: what follows "that" or a colon ("Note that the gate code is 4512" → "The
  /// gate code is 4512"); `nil` when the request has neither.
  public var noteBody: String? {
    let lowered = request.lowercased()
    // "Note to self parking is on level 3", "jot down the plumber's quote was 240": what follows, as said.
    let start =
      lowered.range(of: " that ")?.upperBound ?? lowered.range(of: ":")?.upperBound
      ?? ["note to self", "jot down", "note down", "make a note of", "make a note", "take a note of", "take a note"]
      .lazy.compactMap {
        lowered.range(of: $0)?.upperBound
      }
      .first
    guard let start else { return nil }
    let offset = lowered.distance(from: lowered.startIndex, to: start)
    let rest = request.dropFirst(offset).trimmingCharacters(in: .whitespaces)
    guard !rest.isEmpty else { return nil }
    return rest.prefix(1).uppercased() + rest.dropFirst()
  }

  /// A new note's title and text when the request names both in one sentence: "Make a note called Packing list
  /// saying passport and charger", "New note, gift ideas: a scarf for mum". `nil` when it names no title of its
  /// own; the title is then made from the text (``noteTitle(_:)``).
  public var namedNote: (title: String, body: String?)? {
    let lowered = request.lowercased().replacingOccurrences(of: "’", with: "'")
    // Words that begin the text for certain; " with " and " - " only when none of them is there ("a note called
    // Dinner with Marco saying bring wine").
    func firstMarker(after index: String.Index) -> Range<String.Index>? {
      let found = { (markers: [String]) in
        markers.compactMap { lowered.range(of: $0, range: index..<lowered.endIndex) }.min {
          $0.lowerBound < $1.lowerBound
        }
      }
      return found([":", " saying ", " that says ", " which says ", " with the text ", " containing "])
        ?? found([" with ", " - "])
    }
    func text(_ range: Range<String.Index>) -> String {
      let offset = lowered.distance(from: lowered.startIndex, to: range.lowerBound)
      let length = lowered.distance(from: range.lowerBound, to: range.upperBound)
      return String(request.dropFirst(offset).prefix(length)).trimmingCharacters(
        in: .whitespaces.union(CharacterSet(charactersIn: ",.\"'“”")))
    }
    let titleMarkers = [" called ", " titled ", " named ", " with the title ", " title "]
    var titleStart = titleMarkers.compactMap { lowered.range(of: $0)?.upperBound }.min()
    if titleStart == nil, let colon = lowered.range(of: ":"),
      let note = lowered.range(of: "note", range: lowered.startIndex..<colon.lowerBound),
      note.upperBound == colon.lowerBound || !lowered[note.upperBound].isLetter
    {
      // "New note, gift ideas: …": the words between "note" and the colon, when they are few.
      let between = text(note.upperBound..<colon.lowerBound)
      if !between.isEmpty, between.split(separator: " ").count <= 6 { titleStart = note.upperBound }
    }
    if titleStart == nil, let quoted = Self.quotedTitle(after: "note", in: request) {
      // "New note 'Book ideas' - The Overstory, Piranesi": the title in quotes, the text after it.
      let body = quoted.rest.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "-–—:,")))
      return (
        quoted.title.prefix(1).uppercased() + quoted.title.dropFirst(),
        body.isEmpty ? nil : body.prefix(1).uppercased() + body.dropFirst()
      )
    }
    guard let titleStart else { return nil }
    let marker = firstMarker(after: titleStart)
    let title = text(titleStart..<(marker?.lowerBound ?? lowered.endIndex))
    guard !title.isEmpty else { return nil }
    let body = marker.map { text($0.upperBound..<lowered.endIndex) }.flatMap { $0.isEmpty ? nil : $0 }
    return (title.prefix(1).uppercased() + title.dropFirst(), body.map { $0.prefix(1).uppercased() + $0.dropFirst() })
  }

  /// The words in quotes right after `noun` ("note 'Book ideas'", "note “Trip”") and what follows them.
  static func quotedTitle(after noun: String, in request: String) -> (title: String, rest: String)? {
    let quotes: [Character: Character] = ["'": "'", "\"": "\"", "‘": "’", "“": "”"]
    guard let found = request.range(of: noun + " ", options: .caseInsensitive) else { return nil }
    let after = request[found.upperBound...].drop { $0 == " " }
    guard let open = after.first, let close = quotes[open] else { return nil }
    let inside = after.dropFirst()
    // The closing quote is not an apostrophe inside a word ("'Mum's ideas'").
    let ends = inside.indices.filter { index in
      inside[index] == close
        && !(index > inside.startIndex && inside[inside.index(before: index)].isLetter
          && inside.index(after: index) < inside.endIndex && inside[inside.index(after: index)].isLetter)
    }
    guard let end = ends.first else { return nil }
    let title = inside[..<end].trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { return nil }
    return (title, String(inside[inside.index(after: end)...]))
  }

  /// A short title for a note's text: its first words up to a verb of being ("The gate code is 4512" →
  /// "Gate code"), at most five.
  public static func noteTitle(_ body: String) -> String {
    var words = body.split(separator: " ").map(String.init)
    while let first = words.first, ["the", "my", "a", "an", "our"].contains(first.lowercased()) { words.removeFirst() }
    if let verb = words.firstIndex(where: { ["is", "are", "was", "were", "="].contains($0.lowercased()) }), verb > 0 {
      words = Array(words[..<verb])
    }
    let title = words.prefix(5).joined(separator: " ").trimmingCharacters(in: .punctuationCharacters)
    return title.isEmpty ? "Note" : title.prefix(1).uppercased() + title.dropFirst()
  }

  /// Where a request says an item goes, anywhere in it: "put the party in my calendar, …".
  static let placementPhrases: [[String]] = ["in", "on", "to", "into"].flatMap { preposition in
    ["my", "the"].flatMap { owner in
      ["calendar", "diary", "agenda", "reminders", "to-do list", "todo list", "list"].map {
        [preposition, owner] + $0.split(separator: " ").map(String.init)
      }
    }
  }

  /// What says how urgent a reminder is, left out of its title (its priority says it): "book the high chair"
  /// keeps its words.
  static let priorityPhrases: [[String]] = [
    ["not", "important"], ["not", "urgent"], ["high", "priority"], ["low", "priority"], ["medium", "priority"],
    ["urgent"], ["important"], ["sometime"], ["at", "some", "point"],
  ]

  /// `words` without each run of them that spells one of `phrases` (whatever the case and trailing commas).
  static func removing(_ phrases: [[String]], from words: [String]) -> [String] {
    var kept: [String] = []
    var index = 0
    let bare = words.map { $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ",;.")) }
    outer: while index < words.count {
      for phrase in phrases where index + phrase.count <= words.count {
        if Array(bare[index..<(index + phrase.count)]) == phrase {
          index += phrase.count
          continue outer
        }
      }
      kept.append(words[index])
      index += 1
    }
    return kept
  }

  /// An event's title and the place it names after "at" ("Drinks with Tom at the Crown" → "Drinks with Tom",
  /// "The Crown"); the title alone when it names none. A place is a few words and no number (a number after
  /// "at" is a time the reader did not take).
  public static func placeOut(of title: String) -> (title: String, place: String?) {
    let words = title.split(separator: " ").map(String.init)
    guard let at = words.lastIndex(where: { $0.lowercased() == "at" }), at > 0, at + 1 < words.count else {
      return (title, nil)
    }
    let place = words[(at + 1)...]
    // A place is no time, no meal ("meet Sarah at lunch") and no company ("look at flats with Sam").
    let notAPlace: Set<String> = [
      "lunch", "dinner", "breakfast", "brunch", "noon", "midnight", "night", "once", "least", "most", "with", "for",
      "about", "last", "first",
    ]
    guard place.count <= 6, !place.contains(where: { $0.contains(where: \.isNumber) }),
      !place.contains(where: { notAPlace.contains($0.lowercased()) })
    else { return (title, nil) }
    let name = words[..<at].joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ", "))
    let spot = place.joined(separator: " ").trimmingCharacters(in: .punctuationCharacters)
    guard !name.isEmpty, !spot.isEmpty else { return (title, nil) }
    return (name, spot.prefix(1).uppercased() + spot.dropFirst())
  }

  /// Words that trail a request without naming anything: "…, add it", "… to my calendar".
  static let trailingWords: Set<String> = [
    "add", "it", "please", "to", "my", "calendar", "the", "in", "on", "for", "and", "a", "an", "then", "list",
    "reminders", "as", "event", "at", "thanks", "now", "can", "could", "would", "you", "remind", "me",
  ]

  /// The title a person would write for the item this request creates: the request's own words without the
  /// command words and the time ("Schedule a call with Marco on Saturday at 4pm" → "Call with Marco");
  /// `nil` when nothing is left.
  public var title: String? {
    var kept = words.indices.filter { !time.timeWords.contains($0) }.map { words[$0] }
    // "An event called Book club": what follows the word is the name, whatever its words.
    let called = kept.lastIndex { ["called", "named", "titled"].contains($0.lowercased()) }
    if let called, called + 1 < kept.count { kept = Array(kept[(called + 1)...]) }
    if kind == .habit {
      kept.removeAll { word in
        Self.scheduleWords.contains(word.lowercased())
          || RequestHints.weekdayNames[String(word.lowercased().dropLast())] != nil
      }
    }
    // "… in my calendar, …", "a high priority reminder …": where it goes and how urgent it is are no part of
    // its name.
    kept = Self.removing(Self.placementPhrases, from: kept)
    if kind == .reminder { kept = Self.removing(Self.priorityPhrases, from: kept) }
    while called == nil, let first = kept.first, Self.commandWords.contains(first.lowercased()) { kept.removeFirst() }
    // "I have a haircut on Tuesday, add it": the words that only ask go.
    while let last = kept.last, Self.trailingWords.contains(last.lowercased()) { kept.removeLast() }
    guard let first = kept.first else { return nil }
    kept[0] = first.prefix(1).uppercased() + first.dropFirst()
    let title = kept.joined(separator: " ")
    return title.count <= 120 ? title : nil
  }
}
