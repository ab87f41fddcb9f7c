import Foundation
import HearthCore

extension RequestHints {
  /// Words that ask for something rather than name it, dropped from the start of a title.
  static let commandWords: Set<String> = [
    "please", "can", "could", "would", "you", "hey", "add", "schedule", "book", "put", "create", "plan", "set",
    "up", "make", "new", "an", "a", "the", "event", "called", "named", "titled", "i", "have", "got", "there", "is",
    "remind", "me", "to", "need", "want", "let's", "lets", "in", "on", "my", "calendar", "for", "reminder",
    "todo", "to-do", "note", "that", "about", "also", "and", "we", "are", "will", "be", "should", "must",
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
    let start =
      lowered.range(of: " that ")?.upperBound ?? lowered.range(of: ":")?.upperBound
    guard let start else { return nil }
    let offset = lowered.distance(from: lowered.startIndex, to: start)
    let rest = request.dropFirst(offset).trimmingCharacters(in: .whitespaces)
    guard !rest.isEmpty else { return nil }
    return rest.prefix(1).uppercased() + rest.dropFirst()
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

  /// Words that trail a request without naming anything: "…, add it", "… to my calendar".
  static let trailingWords: Set<String> = [
    "add", "it", "please", "to", "my", "calendar", "the", "in", "on", "for", "and", "a", "an", "then", "list",
    "reminders", "as", "event", "at", "thanks", "now",
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
    while called == nil, let first = kept.first, Self.commandWords.contains(first.lowercased()) { kept.removeFirst() }
    // "I have a haircut on Tuesday, add it": the words that only ask go.
    while let last = kept.last, Self.trailingWords.contains(last.lowercased()) { kept.removeLast() }
    guard let first = kept.first else { return nil }
    kept[0] = first.prefix(1).uppercased() + first.dropFirst()
    let title = kept.joined(separator: " ")
    return title.count <= 120 ? title : nil
  }
}
