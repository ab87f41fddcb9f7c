import Foundation

extension ActionRecord {
  /// What became of the action, in words, for text that is read rather than run: "Done: Reminder “Buy
  /// stamps”", "Waiting for your confirmation: Delete “Dentist” on Fri 15:00".
  public var narration: String {
    switch state {
    case .created: "Done: \(summary)"
    case .pending: "Waiting for your confirmation: \(summary)"
    // A change's summary is what the card proposed ("Delete “Dentist” …"): once run, it is told as done.
    case .updated, .deleted: Self.pastTense(summary)
    case .undone, .restored: "Undone: \(Self.pastTense(summary))"
    case .cancelled: "Cancelled: \(summary)"
    case .answered: "Looked up: \(summary)"
    // These summaries say it already ("Could not …", "Not run: …").
    case .failed, .invalid: summary
    }
  }
}

extension ActionRecord {
  /// What became of the action, in a word or two that reads before its summary on a card ("Done — Delete
  /// “Dentist”", "Undone — Delete “Dentist”"), never repeating the summary's own verb.
  public var stateLabel: String {
    switch state {
    case .created, .updated, .deleted: "Done"
    case .undone, .restored: "Undone"
    case .pending: "Needs your OK"
    case .cancelled: "Cancelled"
    case .answered: "Looked up"
    case .failed: "Could not run"
    case .invalid: "Not run"
    }
  }
}

extension ActionRecord {
  /// The card's line after its label, told as what happened: a change that ran in the past tense ("Done —
  /// Moved “Dentist” …", not "Move"), a creation with its verb ("Done — Added note “Shopping”"); a proposal as
  /// proposed.
  public var cardLine: String {
    switch state {
    case .updated, .deleted, .undone, .restored: Self.added(Self.pastTense(summary))
    case .created: Self.added(summary)
    case .pending, .cancelled, .answered, .failed, .invalid: summary
    }
  }

  /// The kinds a creation's summary names without a verb ("Note “Shopping”").
  static let addedNouns = ["Reminder ", "Note ", "Habit ", "Contact "]

  /// "Note “Shopping”" as "Added note “Shopping”"; a summary with its own verb is kept.
  static func added(_ summary: String) -> String {
    guard let noun = addedNouns.first(where: { summary.hasPrefix($0) }) else { return summary }
    return "Added " + noun.lowercased() + summary.dropFirst(noun.count)
  }
}

extension ActionRecord {
  /// The verbs a proposed change opens with, and how they read once it ran.
  static let doneVerbs = [
    ("Delete ", "Deleted "), ("Move ", "Moved "), ("Change ", "Changed "), ("Mark ", "Marked "),
    ("Add to ", "Added to "), ("Rewrite ", "Rewrote "), ("Forget ", "Forgot "),
  ]

  /// "Delete “Dentist” (…)" as "Deleted “Dentist” (…)"; a summary already told as done is kept.
  static func pastTense(_ summary: String) -> String {
    guard let (verb, done) = doneVerbs.first(where: { summary.hasPrefix($0.0) }) else { return summary }
    return done + summary.dropFirst(verb.count)
  }
}

/// Answers as people read them: each action block replaced by what became of it, never the block itself.
/// Exports, the memory of past chats and anything else that shows an answer as text use it.
public enum ActionNarration {
  /// The words that opened an answer made only of drafted blocks, in answers saved before drafted answers became
  /// their blocks alone.
  public static let draftedOpening = "Here is what I will do:"

  /// `content` with each block (well-formed or not) replaced by its record's narration in parentheses; a block
  /// no record tells of is left out. An answer that was only its blocks becomes only what happened.
  public static func narrate(_ content: String, records: [ActionRecord]) -> String {
    let (blocks, malformed) = ActionBlockParser.parse(content)
    let spans = (blocks.map { ($0.offset, $0.raw) } + malformed.map { ($0.offset, $0.raw) }).sorted { $0.0 > $1.0 }
    guard !spans.isEmpty else { return content }
    var unused = records
    var text = content
    var bare = content
    var lines: [String] = []
    for (offset, raw) in spans {
      // From the last block back, so the offsets of those before stay true in both texts.
      guard let range = Self.range(of: raw, at: offset, in: text),
        let bareRange = Self.range(of: raw, at: offset, in: bare)
      else { continue }
      var replacement = ""
      if let index = unused.firstIndex(where: { $0.block == raw }) {
        let narration = unused.remove(at: index).narration
        replacement = "(\(narration))"
        lines.insert(narration, at: 0)
      }
      text.replaceSubrange(range, with: replacement)
      bare.replaceSubrange(bareRange, with: "")
    }
    let leftover = bare.replacingOccurrences(of: draftedOpening, with: "").trimmingCharacters(
      in: .whitespacesAndNewlines)
    if leftover.isEmpty, !lines.isEmpty { return lines.joined(separator: "\n") }
    return text.replacingOccurrences(of: "\n{3,}", with: "\n\n", options: .regularExpression)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func range(of raw: String, at offset: Int, in text: String) -> Range<String.Index>? {
    guard let start = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex),
      let end = text.index(start, offsetBy: raw.count, limitedBy: text.endIndex), text[start..<end] == raw
    else { return nil }
    return start..<end
  }
}
