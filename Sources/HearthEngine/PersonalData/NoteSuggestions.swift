public import HearthCore

extension Engine {
  /// A title, tags and a one-line summary for a note's text (saved or not), from its own words and the tags of
  /// the user's other notes; nothing is written.
  public func suggestion(forNoteTitled title: String, body: String, tags: [String]) throws -> NoteSuggestion {
    var known: [String] = []
    for note in try notes.list() {
      for tag in note.tags where !known.contains(tag.lowercased()) { known.append(tag.lowercased()) }
    }
    return NoteSuggester.suggest(title: title, body: body, tags: tags, knownTags: known)
  }

  /// The parts of `suggestion` the user accepted, written to the note: the title, the tags added to its own,
  /// the summary as its first line.
  @discardableResult
  public func accept(_ parts: Set<NoteSuggestionPart>, of suggestion: NoteSuggestion, forNote id: String) throws -> Note
  {
    var note = try notes.item(id)
    if parts.contains(.title), let title = suggestion.title { note.title = title }
    if parts.contains(.tags) { note.tags += suggestion.tags.filter { !note.tags.contains($0) } }
    if parts.contains(.summary), let summary = suggestion.summary {
      note.body = NoteSuggestionPart.withSummary(summary, body: note.body)
    }
    return try notes.update(note)
  }
}

/// A part of a note suggestion the user may take.
public enum NoteSuggestionPart: String, Sendable, Hashable, CaseIterable, Codable {
  case title, tags, summary

  /// `body` with `summary` as its first line (once).
  public static func withSummary(_ summary: String, body: String) -> String {
    let line = "*Summary:* \(summary)"
    return body.hasPrefix(line) ? body : line + "\n\n" + body
  }
}
