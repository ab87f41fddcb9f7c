public import HearthCore

/// An item of the user's that a request may name: its title, the words around it (place, notes) and, for an
/// event, when it next happens.
public struct KnownItem: Sendable, Hashable {
  public var name: String
  /// Other words that describe it: an event's place and notes.
  public var details: [String]
  /// When it next happens (or last happened, when nothing is ahead): a new time said without a day keeps it.
  public var next: LocalDateTime?

  public init(_ name: String, details: [String] = [], next: LocalDateTime? = nil) {
    self.name = name
    self.details = details
    self.next = next
  }
}

/// Finds the item a request means by what they share — "my dentist appointment" is the event "Dentist",
/// "lunch with Priya" the event "Lunch: Priya" — the same way for questions, changes and deletions.
public enum ItemMatcher {
  /// Words too common to name anything.
  static let stopWords: Set<String> = [
    "the", "and", "for", "with", "from", "my", "about", "this", "that", "please", "into", "onto", "your", "our",
    "when", "what", "where", "is", "are", "was", "move", "cancel", "delete", "remove", "change", "reschedule",
    "rename", "postpone", "push", "next", "have", "any",
  ]
  /// Words that say what sort of item it is: they count, but less than a name does.
  static let generic: Set<String> = ["appointment", "meeting", "event", "call", "session", "reminder", "note"]

  /// The words' stems: lower-cased, without a plural "s" or an "-ing" or "-ed" ending ("reading" and
  /// "Read", "renewed" and "Renew passport", "running" and "Run" meet).
  static func stems(_ text: String) -> Set<String> {
    let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    let single = words.filter { $0.count >= 3 && !stopWords.contains($0) }.map(stem)
    // "hair cut" and "Haircut", "work out" and "Workout": two words written as one meet too.
    let joined = zip(words, words.dropFirst()).filter { first, second in
      first.count >= 3 && second.count >= 2 && !stopWords.contains(first) && !stopWords.contains(second)
        && first.allSatisfy(\.isLetter) && second.allSatisfy(\.isLetter)
    }.map { stem($0 + $1) }
    return Set(single + joined)
  }

  static func stem(_ word: String) -> String {
    var stem = word
    if stem.hasSuffix("ing"), stem.count > 5 {
      stem.removeLast(3)
    } else if stem.hasSuffix("ed"), stem.count > 4 {
      stem.removeLast(2)
    } else if stem.hasSuffix("s"), !stem.hasSuffix("ss"), stem.count > 3 {
      stem.removeLast()
      return stem
    } else {
      return stem
    }
    // "running" → "runn" → "run".
    if stem.count > 2, let last = stem.last, stem.dropLast().last == last, !"lsz".contains(last) { stem.removeLast() }
    return stem
  }

  /// How well `item` fits `request`: title words shared count most (a sort word such as "meeting" less),
  /// then words of its place and notes; ties go to the title the request covers best. 0 when nothing is shared.
  public static func score(_ item: KnownItem, request: String) -> Double {
    let asked = stems(request)
    let title = stems(item.name)
    let shared = title.intersection(asked)
    let named = shared.reduce(0.0) { $0 + (generic.contains($1) ? 0.3 : 1) }
    let described = item.details.reduce(Set<String>()) { $0.union(stems($1)) }.subtracting(title)
      .intersection(asked).subtracting(generic)
    let total = named + 0.5 * Double(described.count)
    guard total > 0 else { return 0 }
    return total + Double(shared.count) / Double(max(title.count, 1)) / 10
  }

  /// The items that fit `request`, best first; `best` is set only when one fits clearly better than the rest.
  public static func rank(_ items: [KnownItem], for request: String) -> (best: KnownItem?, ranked: [KnownItem]) {
    let scored: [(item: KnownItem, score: Double)] = items.map { ($0, score($0, request: request)) }
      .filter { $0.score > 0 }
      .sorted { left, right in left.score != right.score ? left.score > right.score : left.item.name < right.item.name }
    guard let first = scored.first else { return (nil, []) }
    let clear = scored.count == 1 || scored[1].score < first.score || scored[1].item.name == first.item.name
    return (clear ? first.item : nil, scored.map(\.item))
  }
}
