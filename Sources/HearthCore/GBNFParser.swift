/// Reads GBNF text as llama.cpp's grammar parser does: `name ::= alternatives` per rule, a rule ending at a
/// line break outside parentheses (line breaks after `::=` and `|` continue it), `#` comments, literals,
/// character classes, `.`, groups and the postfixes `*`, `+`, `?` and `{m}`, `{m,}`, `{m,n}`.
struct GBNFParser {
  typealias Alternatives = [[Item]]

  struct Item {
    var atom: Atom
    var repetition = Repetition(least: 1, most: 1)
  }

  indirect enum Atom {
    case literal([UInt32])
    case characters(ScalarSet)
    case reference(String)
    case group(Alternatives)
  }

  struct Repetition {
    var least: Int
    /// `nil`: no upper bound.
    var most: Int?
  }

  /// llama.cpp's limit on counted repetitions: a larger least count is refused, a larger most count means no
  /// upper bound.
  static let maxCount = 2_000
  /// Deepest nesting of groups.
  static let maxNesting = 64

  private let scalars: [UInt32]
  private var index = 0

  init(_ text: String) {
    scalars = text.unicodeScalars.map(\.value)
  }

  mutating func parse() throws(GBNFGrammar.Unsupported) -> [(name: String, body: Alternatives)] {
    var rules: [(name: String, body: Alternatives)] = []
    skipSpace(newlines: true)
    while index < scalars.count {
      let name = try readName()
      skipSpace(newlines: false)
      guard consume("::=") else { throw failure("expected ::= after \(name)") }
      skipSpace(newlines: true)
      let body = try readAlternatives(depth: 0)
      rules.append((name, body))
      if index < scalars.count {
        guard peek == 0x0A || peek == 0x0D else { throw failure("expected the end of the line") }
      }
      skipSpace(newlines: true)
    }
    guard !rules.isEmpty else { throw failure("the grammar has no rules") }
    return rules
  }

  private var peek: UInt32? { index < scalars.count ? scalars[index] : nil }

  private func failure(_ reason: String) -> GBNFGrammar.Unsupported {
    GBNFGrammar.Unsupported(reason: "\(reason) (at character \(index))")
  }

  private mutating func consume(_ text: String) -> Bool {
    let wanted = text.unicodeScalars.map(\.value)
    guard index + wanted.count <= scalars.count, Array(scalars[index..<index + wanted.count]) == wanted else {
      return false
    }
    index += wanted.count
    return true
  }

  /// Skips spaces, tabs and comments, and line breaks when `newlines`.
  private mutating func skipSpace(newlines: Bool) {
    while let scalar = peek {
      switch scalar {
      case 0x20, 0x09: index += 1
      case 0x0A where newlines, 0x0D where newlines: index += 1
      case 0x23:  // # … to the end of the line
        while let next = peek, next != 0x0A, next != 0x0D { index += 1 }
      default: return
      }
    }
  }

  private static func isNameScalar(_ scalar: UInt32) -> Bool {
    (0x61...0x7A).contains(scalar) || (0x41...0x5A).contains(scalar) || (0x30...0x39).contains(scalar)
      || scalar == 0x2D || scalar == 0x5F
  }

  private mutating func readName() throws(GBNFGrammar.Unsupported) -> String {
    let start = index
    while let scalar = peek, Self.isNameScalar(scalar) { index += 1 }
    guard index > start else { throw failure("expected a rule name") }
    return String(String.UnicodeScalarView(scalars[start..<index].compactMap(Unicode.Scalar.init)))
  }

  private mutating func readAlternatives(depth: Int) throws(GBNFGrammar.Unsupported) -> Alternatives {
    guard depth <= Self.maxNesting else { throw failure("groups nested more than \(Self.maxNesting) deep") }
    var alternatives = [try readSequence(depth: depth)]
    while peek == 0x7C {  // |
      index += 1
      skipSpace(newlines: true)
      alternatives.append(try readSequence(depth: depth))
    }
    return alternatives
  }

  private mutating func readSequence(depth: Int) throws(GBNFGrammar.Unsupported) -> [Item] {
    var items: [Item] = []
    let nested = depth > 0
    while let scalar = peek {
      let atom: Atom
      switch scalar {
      case 0x22:  // "
        index += 1
        var literal: [UInt32] = []
        while let next = peek, next != 0x22 {
          literal.append(try readCharacter())
        }
        guard peek == 0x22 else { throw failure("a literal is not closed") }
        index += 1
        atom = .literal(literal)
      case 0x5B:  // [
        atom = .characters(try readClass())
      case 0x2E:  // .
        index += 1
        atom = .characters(.any)
      case 0x28:  // (
        index += 1
        skipSpace(newlines: true)
        let inner = try readAlternatives(depth: depth + 1)
        guard peek == 0x29 else { throw failure("a group is not closed") }
        index += 1
        atom = .group(inner)
      case 0x3C, 0x21:  // < or !: a token reference
        throw failure("token references are matched by token, not by text")
      default:
        guard Self.isNameScalar(scalar) else { return items }
        atom = .reference(try readName())
      }
      skipSpace(newlines: nested)
      var item = Item(atom: atom)
      if let repetition = try readRepetition() {
        item.repetition = repetition
        skipSpace(newlines: nested)
      }
      items.append(item)
    }
    return items
  }

  private mutating func readRepetition() throws(GBNFGrammar.Unsupported) -> Repetition? {
    switch peek {
    case 0x2A?: index += 1; return Repetition(least: 0, most: nil)
    case 0x2B?: index += 1; return Repetition(least: 1, most: nil)
    case 0x3F?: index += 1; return Repetition(least: 0, most: 1)
    case 0x7B?:
      index += 1
      skipSpace(newlines: false)
      let least = try readCount()
      skipSpace(newlines: false)
      var most: Int? = least
      if peek == 0x2C {
        index += 1
        skipSpace(newlines: false)
        most = peek == 0x7D ? nil : try readCount()
        skipSpace(newlines: false)
      }
      guard peek == 0x7D else { throw failure("a {m,n} repetition is not closed") }
      index += 1
      if let most, most < least { throw failure("{\(least),\(most)} counts down") }
      guard least <= Self.maxCount else { throw failure("a repetition of more than \(Self.maxCount)") }
      return Repetition(least: least, most: most.flatMap { $0 > Self.maxCount ? nil : $0 })
    default: return nil
    }
  }

  private mutating func readCount() throws(GBNFGrammar.Unsupported) -> Int {
    var value = 0
    let start = index
    while let scalar = peek, (0x30...0x39).contains(scalar) {
      // Bounded only against overflow: a most count above the limit is read as no bound, as llama.cpp does.
      value = min(value * 10 + Int(scalar - 0x30), 1_000_000_000)
      index += 1
    }
    guard index > start else { throw failure("expected a number") }
    return value
  }

  private mutating func readClass() throws(GBNFGrammar.Unsupported) -> ScalarSet {
    index += 1  // [
    var negated = false
    if peek == 0x5E {  // ^
      negated = true
      index += 1
    }
    var ranges: [ClosedRange<UInt32>] = []
    while peek != nil, peek != 0x5D {
      let low = try readCharacter()
      var high = low
      if peek == 0x2D, index + 1 < scalars.count, scalars[index + 1] != 0x5D {
        index += 1
        high = try readCharacter()
      }
      guard low <= high else { throw failure("a range runs backwards") }
      ranges.append(low...high)
    }
    guard peek == 0x5D else { throw failure("a character class is not closed") }
    index += 1
    // llama.cpp reads `[]` and `[^]` as matching nothing at all, not as a character.
    guard !ranges.isEmpty else { throw failure("an empty character class") }
    return ScalarSet(ranges: ranges, negated: negated)
  }

  /// One character of a literal or class, with llama.cpp's escapes.
  private mutating func readCharacter() throws(GBNFGrammar.Unsupported) -> UInt32 {
    guard let scalar = peek else { throw failure("the grammar ends inside a literal") }
    index += 1
    guard scalar == 0x5C else { return scalar }  // backslash
    guard let escaped = peek else { throw failure("the grammar ends inside an escape") }
    index += 1
    switch escaped {
    case 0x78: return try readHex(2)  // x
    case 0x75: return try readHex(4)  // u
    case 0x55: return try readHex(8)  // U
    case 0x74: return 0x09  // t
    case 0x72: return 0x0D  // r
    case 0x6E: return 0x0A  // n
    case 0x5C, 0x22, 0x5B, 0x5D, 0x2D: return escaped
    default: throw failure("an unknown escape")
    }
  }

  private mutating func readHex(_ digits: Int) throws(GBNFGrammar.Unsupported) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<digits {
      guard let scalar = peek, let digit = Self.hexValue(scalar) else { throw failure("a short hex escape") }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private static func hexValue(_ scalar: UInt32) -> UInt32? {
    switch scalar {
    case 0x30...0x39: scalar - 0x30
    case 0x61...0x66: scalar - 0x61 + 10
    case 0x41...0x46: scalar - 0x41 + 10
    default: nil
    }
  }
}
