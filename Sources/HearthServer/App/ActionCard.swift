import HearthCore
import HearthEngine

/// An action record as the web app shows it: every field of the record, with the words of its card — its state's
/// label, its line after the label and what became of it, told as done when it ran — so no page keeps its own
/// copy of them; and, for an event that overlaps others, the conflict card's choices (`conflict`: the overlaps
/// and the free times).
struct ActionCard: Encodable {
  var record: ActionRecord
  var choices: ConflictChoices?

  init(_ record: ActionRecord, choices: ConflictChoices? = nil) {
    self.record = record
    self.choices = choices
  }

  private enum Words: String, CodingKey {
    case label, narration, line, conflict
  }

  func encode(to encoder: any Encoder) throws {
    try record.encode(to: encoder)
    var words = encoder.container(keyedBy: Words.self)
    try words.encode(record.stateLabel, forKey: .label)
    try words.encode(record.narration, forKey: .narration)
    try words.encode(record.cardLine, forKey: .line)
    try words.encodeIfPresent(choices, forKey: .conflict)
  }
}
