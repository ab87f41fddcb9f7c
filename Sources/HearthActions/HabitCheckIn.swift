import Foundation
import HearthCore

/// A statement that one of the user's habits was done: "ran 8km along the river", "just got back from a 5k run",
/// "went running before work", "log a run pls". Every word of the habit's name is said, in some form (ran,
/// running, jogged for Run; took and vitamins for Take vitamins), by the user of themselves, as done: in a past
/// tense of the habit's word, with "went …ing" or "got back from a …", or with "log it", "done", "finished". A
/// sentence that only uses the word ("remind me to run the dishwasher", "my sister ran the marathon", "the
/// meeting ran long today", "didn't run today", "new habit: running") is no check-in.
public enum HabitCheckIn {
  /// The check-in block for `request`, or `nil`. `habits` are the names of the user's habits.
  public static func block(_ request: String, habits: [String]) -> String? {
    let words = ItemQuestion.words(request)
    guard let first = words.first, !ItemQuestion.isQuestion(request), !request.contains("?"),
      !asksForSomethingElse(words), !othersSubject.contains(first)
    else { return nil }
    let explicit = words.contains(where: loggedWords.contains)
    let named = habits.filter { habit in
      let words = words.enumerated().filter { index, word in
        // "Ran into Anna", "the meeting ran long": the word in another sense; "to read": a purpose, not done.
        !["into", "out", "over", "late", "long", "away", "through", "low", "short"].contains(
          words.dropFirst(index + 1).first ?? "") && (index == 0 || words[index - 1] != "to")
      }.map(\.element)
      let parts = names(of: habit)
      guard !parts.isEmpty, parts.allSatisfy({ !forms(of: $0).isDisjoint(with: words) }) else { return false }
      // Said done: a past of the habit's own word, "went running", "back from a run", or a word that logs it.
      let pasts = parts.flatMap { pastForms(of: $0) }
      // "Went running", "went for a run": the habit's word right after "went" ("went to the library to read"
      // went somewhere else).
      let doing = parts.flatMap { forms(of: $0) }
      let went = words.indices.contains { index in
        words[index] == "went" && words.dropFirst(index + 1).prefix(3).contains(where: doing.contains)
      }
      let back = words.contains("back") && words.contains("from")
      return explicit || went || back || words.contains(where: pasts.contains)
    }
    // One habit, or the request is not about which: two named ("ran and read") would need two check-ins.
    guard named.count == 1, let habit = named.first else { return nil }
    return "[\(ActionKind.habit.rawValue):"
      + JSONValue.object([("action", .string("log")), ("name", .string(habit))]).jsonText + "]"
  }

  /// The content words of a habit's name, each as its plain verb or noun ("Running" → "run").
  static func names(of habit: String) -> [String] {
    habit.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
      .filter { $0.count >= 3 && !["the", "and", "for", "with", "day", "daily", "every", "my"].contains($0) }
      .map(root)
  }

  /// "running" → "run", "swimming" → "swim", "stretching" → "stretch", "reading" → "read".
  static func root(_ word: String) -> String {
    guard word.hasSuffix("ing"), word.count > 5 else { return word }
    var stem = String(word.dropLast(3))
    if let last = stem.last, stem.count >= 3, stem.dropLast().last == last, !"aeiouls".contains(last) {
      stem.removeLast()
    }
    return stem
  }

  /// The words one word is said with: as it is, with -s, -ing and -ed, its past, and the words people use for
  /// the same activity (jog for run, pages for read).
  static func forms(of word: String) -> Set<String> {
    let base = word.hasSuffix("e") ? String(word.dropLast()) : word
    var forms: Set<String> = [word, word + "s", word + "es", base + "ing"]
    if let last = word.last, word.count <= 4, !"aeiouwxy".contains(last), let before = word.dropLast().last,
      "aeiou".contains(before)
    {
      forms.insert(word + String(last) + "ing")
    }
    forms.formUnion(pastForms(of: word))
    for (root, alike) in sameActivity where root == word { forms.formUnion(alike) }
    return forms
  }

  /// The pasts of a word (and of the words for the same activity).
  static func pastForms(of word: String) -> Set<String> {
    let base = word.hasSuffix("e") ? String(word.dropLast()) : word
    var pasts: Set<String> = [base + "ed"]
    if let last = word.last, word.count <= 4, !"aeiouwxy".contains(last), let before = word.dropLast().last,
      "aeiou".contains(before)
    {
      pasts.insert(word + String(last) + "ed")
    }
    pasts.formUnion(irregularPast[word] ?? [])
    for (root, alike) in sameActivity where root == word { pasts.formUnion(alike.filter { $0.hasSuffix("ed") }) }
    return pasts
  }

  /// Pasts that are not the word with -ed.
  static let irregularPast: [String: Set<String>] = [
    "run": ["ran"], "swim": ["swam", "swum"], "read": ["read"], "write": ["wrote", "written"], "ride": ["rode"],
    "draw": ["drew"], "sing": ["sang"], "drink": ["drank"], "eat": ["ate"], "sleep": ["slept"],
    "take": ["took"], "go": ["went"], "do": ["did"],
  ]

  /// Words for the same activity as a habit's word.
  static let sameActivity: [(String, Set<String>)] = [
    ("run", ["jog", "jogs", "jogged", "jogging", "parkrun"]), ("read", ["pages", "chapter", "chapters"]),
    ("meditate", ["meditation"]), ("meditation", ["meditate", "meditated"]), ("cycle", ["bike", "biked"]),
    ("journal", ["journaled", "journalled"]),
  ]

  /// Words that log a habit by saying so.
  static let loggedWords: Set<String> = [
    "log", "logged", "tick", "ticked", "mark", "done", "did", "finished", "completed", "managed",
  ]

  /// First words of a sentence about someone or something else: "my sister ran", "the meeting ran long".
  static let othersSubject: Set<String> = [
    "my", "the", "a", "an", "he", "she", "they", "we", "his", "her", "our", "their", "it", "its", "this", "that",
    "you", "your",
  ]

  /// A request that asks for something besides a check-in: a reminder, an event, a new habit, a change, a plan,
  /// something written.
  static func asksForSomethingElse(_ words: [String]) -> Bool {
    let other: Set<String> = [
      "remind", "reminder", "add", "schedule", "book", "create", "new", "start", "track", "cancel", "delete", "remove",
      "move", "rename", "stop", "need", "want", "should", "will", "gonna", "going", "tomorrow", "later", "next",
      "every", "daily", "weekly", "buy", "shoes", "note", "calendar", "list", "streak", "stats", "how", "plan",
      "can", "could", "would", "draft", "write", "help", "tell", "show", "find", "what",
      // Not done: "didn't run today", "skipped my reading", "my run got cancelled".
      "not", "didn't", "didnt", "couldn't", "couldnt", "no", "never", "skipped", "missed", "cancelled", "canceled",
    ]
    return words.contains(where: other.contains)
  }
}
