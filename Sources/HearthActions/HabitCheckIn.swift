import Foundation
import HearthCore

/// A statement that one of the user's habits was done: "ran 8km along the river", "just got back from a 5k run",
/// "went running before work", "log a run pls". It names the habit by a form of its name (ran, running, jogged for
/// Run; reading, pages for Read) and says it happened (a past tense, "just", "today", "log it"); a request for
/// anything else that only mentions the word ("remind me to run the dishwasher", "add running shoes to my list",
/// "new habit: running") is no check-in.
public enum HabitCheckIn {
  /// The check-in block for `request`, or `nil`. `habits` are the names of the user's habits.
  public static func block(_ request: String, habits: [String]) -> String? {
    // "8km" is a number and a unit.
    let words = ItemQuestion.words(request).flatMap { word -> [String] in
      guard let split = word.firstIndex(where: \.isLetter), split != word.startIndex,
        word[..<split].allSatisfy(\.isNumber)
      else { return [word] }
      return [String(word[..<split]), String(word[split...])]
    }
    guard !words.isEmpty, !ItemQuestion.isQuestion(request), !asksForSomethingElse(words) else { return nil }
    let named = habits.filter { habit in
      let forms = self.forms(of: habit)
      // "Ran into Anna", "the meeting ran late": the word in another sense.
      return words.indices.contains { index in
        forms.contains(words[index])
          && !["into", "out", "over", "late", "away", "through"].contains(words.dropFirst(index + 1).first ?? "")
      }
    }
    // One habit, or the request is not about which: two named ("ran and read") would need two check-ins.
    guard named.count == 1, let habit = named.first, saysItHappened(words) else { return nil }
    return "[\(ActionKind.habit.rawValue):"
      + JSONValue.object([("action", .string("log")), ("name", .string(habit))]).jsonText + "]"
  }

  /// The words a habit's name is said with: its main word as it is, with -s, -ing and -ed, its past, and the
  /// words people use for the same thing (jog for run, pages for read).
  static func forms(of habit: String) -> Set<String> {
    let main = habit.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
      .filter { $0.count >= 3 && !["the", "and", "for", "with", "day", "daily"].contains($0) }
    var forms: Set<String> = []
    for word in main {
      let stem = word.hasSuffix("ing") && word.count > 5 ? String(word.dropLast(3)) : word
      let base = stem.hasSuffix("e") ? String(stem.dropLast()) : stem
      forms.formUnion([word, stem, stem + "s", base + "ing", base + "ed", stem + "d"])
      // run → running: a short word ending in one vowel and a consonant doubles it.
      if let last = stem.last, stem.count <= 4, !"aeiouwxy".contains(last), let before = stem.dropLast().last,
        "aeiou".contains(before)
      {
        let doubled = stem + String(last)
        forms.formUnion([doubled + "ing", doubled + "ed"])
      }
      forms.formUnion(irregularPast[stem] ?? [])
      for (root, alike) in sameActivity where root == stem { forms.formUnion(alike) }
    }
    return forms
  }

  /// Pasts that are not the word with -ed.
  static let irregularPast: [String: Set<String>] = [
    "run": ["ran"], "swim": ["swam", "swum"], "read": ["read"], "write": ["wrote", "written"], "ride": ["rode"],
    "draw": ["drew"], "sing": ["sang"], "drink": ["drank"], "eat": ["ate"], "meditate": ["meditated"],
    "sleep": ["slept"], "lift": ["lifted"], "take": ["took"], "go": ["went"],
  ]

  /// Words for the same activity as a habit's main word.
  static let sameActivity: [(String, Set<String>)] = [
    ("run", ["jog", "jogs", "jogged", "jogging", "parkrun", "k", "km", "miles"]),
    ("read", ["pages", "chapter", "chapters"]),
    ("walk", ["steps", "stroll"]), ("swim", ["laps", "lengths", "pool"]), ("meditat", ["meditation"]),
    ("meditate", ["meditation", "meditated", "meditating"]), ("stretch", ["yoga"]), ("cycl", ["bike", "biked"]),
    ("cycle", ["bike", "biked", "cycled"]), ("water", ["glasses"]), ("journal", ["journaled", "journalled", "diary"]),
  ]

  /// Said of something done: a past tense, a time it was done in, or an order to log it.
  static func saysItHappened(_ words: [String]) -> Bool {
    let done: Set<String> = [
      "log", "logged", "check", "tick", "mark", "done", "did", "finished", "completed", "managed", "went", "got",
      "just", "had", "today", "tonight", "earlier", "morning", "this", "ran", "read", "swam", "rode",
    ]
    return words.contains { done.contains($0) || ($0.hasSuffix("ed") && $0.count > 4) }
  }

  /// A request that asks for something besides a check-in: a reminder, an event, a new habit, a change, a plan.
  static func asksForSomethingElse(_ words: [String]) -> Bool {
    let other: Set<String> = [
      "remind", "reminder", "add", "schedule", "book", "create", "new", "start", "track", "cancel", "delete", "remove",
      "move", "rename", "stop", "need", "want", "should", "will", "gonna", "going", "tomorrow", "later", "next",
      "every", "daily", "weekly", "buy", "shoes", "note", "calendar", "list", "streak", "stats", "how", "plan",
      // Not done: "didn't run today", "skipped my reading", "my run got cancelled".
      "not", "didn't", "didnt", "couldn't", "couldnt", "no", "never", "skipped", "missed", "cancelled", "canceled",
    ]
    // "going running": said of now, not a plan, only with "went"; "going to" is a plan.
    return words.contains(where: other.contains) && !(words.first == "log" && !words.contains("remind"))
  }
}
