/// A GBNF grammar (llama.cpp's grammar language) compiled into flat sequences of elements, so that text can be
/// followed through it one Unicode scalar at a time (``GrammarFollower``).
///
/// Every alternative of every rule is a run of ``elements`` ending in ``Element/end``; a rule lists where its
/// alternatives start. Repetitions (`*`, `+`, `?`, `{m,n}`) and groups are written out as rules of their own,
/// as llama.cpp does, so following the grammar needs only sets of characters and references to rules.
public struct GBNFGrammar: Sendable {
  /// One place in a sequence.
  enum Element: Sendable, Hashable {
    /// One scalar from ``GBNFGrammar/sets``[index].
    case characters(Int)
    /// Any sentence of the rule.
    case rule(Int)
    /// The end of an alternative.
    case end
  }

  /// Why a grammar cannot be followed: a syntax error, an undefined rule, or a feature (llama.cpp's token
  /// references) that is matched by tokens rather than characters.
  public struct Unsupported: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { "the grammar cannot be followed: \(reason)" }
  }

  private(set) var elements: [Element] = []
  /// For each rule, where its alternatives start in ``elements``.
  private(set) var alternatives: [[Int]] = []
  private(set) var sets: [ScalarSet] = []
  /// The rule sentences must come from.
  private(set) var root = 0

  /// Most rules a compiled grammar may have (bounded repetitions each add one per optional place).
  public static let maxRules = 100_000
  /// Most elements of all rules together.
  public static let maxElements = 1_000_000

  /// Compiles `text`, a grammar whose start rule is `root`.
  /// - Throws: ``Unsupported`` for a grammar that cannot be parsed or followed.
  public init(_ text: String, root: String = "root") throws(Unsupported) {
    var parser = GBNFParser(text)
    let parsed = try parser.parse()
    var builder = Builder(names: parsed.map(\.name))
    for definition in parsed {
      try builder.define(definition.name, definition.body)
    }
    guard let start = builder.ids[root] else { throw Unsupported(reason: "no rule named \(root)") }
    if let undefined = builder.ids.first(where: { builder.bodies[$0.value] == nil }) {
      throw Unsupported(reason: "the rule \(undefined.key) is used but never defined")
    }
    for body in builder.bodies {
      var starts: [Int] = []
      for sequence in body ?? [] {
        starts.append(elements.count)
        elements += sequence
        elements.append(.end)
      }
      alternatives.append(starts)
    }
    sets = builder.sets
    self.root = start
  }

  /// Turns parsed expressions into rules of plain sequences.
  private struct Builder {
    var ids: [String: Int] = [:]
    var bodies: [[[Element]]?] = []
    var sets: [ScalarSet] = []
    private var setIndexes: [ScalarSet: Int] = [:]

    init(names: [String]) {
      for name in names where ids[name] == nil {
        ids[name] = bodies.count
        bodies.append(nil)
      }
    }

    mutating func define(_ name: String, _ body: GBNFParser.Alternatives) throws(Unsupported) {
      guard let id = ids[name] else { return }
      guard bodies[id] == nil else { throw Unsupported(reason: "the rule \(name) is defined twice") }
      bodies[id] = []  // defined, so references to itself inside are known
      let compiled = try compile(body)
      try count(compiled)
      bodies[id] = compiled
    }

    private mutating func compile(_ alternatives: GBNFParser.Alternatives) throws(Unsupported) -> [[Element]] {
      var result: [[Element]] = []
      for sequence in alternatives {
        var elements: [Element] = []
        for item in sequence {
          let unit = try compile(item.atom)
          elements += try repeated(unit, item.repetition)
        }
        result.append(elements)
      }
      return result
    }

    private mutating func compile(_ atom: GBNFParser.Atom) throws(Unsupported) -> [Element] {
      switch atom {
      case .literal(let scalars): return scalars.map { .characters(set(ScalarSet(single: $0))) }
      case .characters(let scalarSet): return [.characters(set(scalarSet))]
      case .reference(let name):
        guard let id = ids[name] else { throw Unsupported(reason: "the rule \(name) is used but never defined") }
        return [.rule(id)]
      case .group(let alternatives):
        let body = try compile(alternatives)
        if body.count == 1 { return body[0] }
        return [.rule(try newRule(body))]
      }
    }

    /// `unit` repeated as `repetition` says, with rules for the optional places.
    private mutating func repeated(
      _ unit: [Element], _ repetition: GBNFParser.Repetition
    ) throws(Unsupported)
      -> [Element]
    {
      let (least, most) = (repetition.least, repetition.most)
      if least == 1, most == 1 { return unit }
      // A longer unit becomes a rule of its own, repeated by reference, as llama.cpp does.
      let unit = unit.count > 1 ? [.rule(try newRule([unit]))] : unit
      var elements: [Element] = []
      for _ in 0..<least { elements += unit }
      guard let most else {
        // unit*: star ::= unit star | ε
        let star = try newRule([unit + [.rule(bodies.count)], []])
        return elements + [.rule(star)]
      }
      // Each optional place nests the ones after it: opt(k) ::= unit opt(k-1) | ε.
      var inner: Int?
      for _ in 0..<(most - least) {
        inner = try newRule([unit + (inner.map { [.rule($0)] } ?? []), []])
      }
      return elements + (inner.map { [.rule($0)] } ?? [])
    }

    private mutating func newRule(_ body: [[Element]]) throws(Unsupported) -> Int {
      guard bodies.count < GBNFGrammar.maxRules else {
        throw Unsupported(reason: "more than \(GBNFGrammar.maxRules) rules once repetitions are written out")
      }
      try count(body)
      bodies.append(body)
      return bodies.count - 1
    }

    private var elementCount = 0

    /// Counts a body's elements against ``GBNFGrammar/maxElements``.
    private mutating func count(_ body: [[Element]]) throws(Unsupported) {
      elementCount += body.reduce(0) { $0 + $1.count + 1 }
      guard elementCount <= GBNFGrammar.maxElements else {
        throw Unsupported(reason: "more than \(GBNFGrammar.maxElements) elements once repetitions are written out")
      }
    }

    private mutating func set(_ scalarSet: ScalarSet) -> Int {
      if let index = setIndexes[scalarSet] { return index }
      sets.append(scalarSet)
      setIndexes[scalarSet] = sets.count - 1
      return sets.count - 1
    }
  }
}

/// A set of Unicode scalar values: ranges, or everything outside them.
struct ScalarSet: Sendable, Hashable {
  var ranges: [ClosedRange<UInt32>]
  var negated: Bool

  init(ranges: [ClosedRange<UInt32>], negated: Bool) {
    self.ranges = ranges
    self.negated = negated
  }

  init(single scalar: UInt32) { self.init(ranges: [scalar...scalar], negated: false) }

  /// Every scalar (`.`).
  static let any = ScalarSet(ranges: [], negated: true)

  func contains(_ scalar: UInt32) -> Bool {
    ranges.contains { $0.contains(scalar) } != negated
  }

  /// The one scalar the set holds, when it holds exactly one.
  var single: UInt32? {
    guard !negated, let first = ranges.first, first.lowerBound == first.upperBound else { return nil }
    return ranges.allSatisfy { $0 == first } ? first.lowerBound : nil
  }
}
