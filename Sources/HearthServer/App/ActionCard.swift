import HearthCore

/// An action record as the web app shows it: every field of the record, with the words of its card — its state's
/// label and what became of it, told as done when it ran — so no page keeps its own copy of them.
struct ActionCard: Encodable {
  var record: ActionRecord

  init(_ record: ActionRecord) { self.record = record }

  private enum Words: String, CodingKey {
    case label, narration
  }

  func encode(to encoder: any Encoder) throws {
    try record.encode(to: encoder)
    var words = encoder.container(keyedBy: Words.self)
    try words.encode(record.stateLabel, forKey: .label)
    try words.encode(record.narration, forKey: .narration)
  }
}
