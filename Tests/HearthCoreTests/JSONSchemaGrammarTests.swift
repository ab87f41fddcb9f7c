import Foundation
import Testing

@testable import HearthCore

@Suite("JSON schemas as grammars")
struct JSONSchemaGrammarTests {
  private func schema(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  private func rules(_ grammar: String) -> [String: String] {
    Dictionary(
      grammar.split(separator: "\n").map { line in
        let parts = line.split(separator: " ::= ", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
      }, uniquingKeysWith: { first, _ in first })
  }

  @Test func requiredPropertiesComeFirstInTheirOrderThenTheRestByName() throws {
    let grammar = try JSONSchemaGrammar.grammar(
      for: schema(
        #"{"type":"object","properties":{"b":{"type":"string"},"z":{"type":"integer"},"a":{"type":"boolean"}},"required":["z","b"]}"#
      ))
    let root = try #require(rules(grammar)["root"])
    let z = try #require(root.range(of: #""\"z\"""#))
    let b = try #require(root.range(of: #""\"b\"""#))
    let a = try #require(root.range(of: #""\"a\"""#))
    #expect(z.lowerBound < b.lowerBound && b.lowerBound < a.lowerBound)
    #expect(rules(grammar)["root-value-z"] == "integer")
    #expect(rules(grammar)["root-value-a"] == "boolean")
  }

  @Test func enumsConstantsUnionsAndNullableTypes() throws {
    let grammar = try JSONSchemaGrammar.grammar(
      for: schema(
        #"{"type":"object","properties":{"mood":{"enum":["calm","tense",3]},"kind":{"const":"note"},"when":{"anyOf":[{"type":"string"},{"type":"null"}]},"count":{"type":["integer","null"]}},"required":["mood","kind","when","count"]}"#
      ))
    let all = rules(grammar)
    #expect(all["root-value-mood"] == #""\"calm\"" | "\"tense\"" | "3""#)
    #expect(all["root-value-kind"] == #""\"note\"""#)
    #expect(all["root-value-when"] == "root-value-when-0 | root-value-when-1")
    #expect(all["root-value-count"] == "( integer ) | ( null )")
  }

  @Test func localReferencesAndRecursionBecomeNamedRules() throws {
    let grammar = try JSONSchemaGrammar.grammar(
      for: schema(
        ##"{"$defs":{"Node":{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["label","children"]}},"$ref":"#/$defs/Node"}"##
      ))
    let all = rules(grammar)
    #expect(all["root"] == "ref-Node")
    let node = try #require(all["ref-Node"])
    #expect(node.contains("ref-Node-children"))
    #expect(all["ref-Node-children-item"] == "ref-Node")
  }

  @Test func aListOfItemSchemasIsATupleAndItemsAloneMeanAnArray() throws {
    let tuple = rules(try JSONSchemaGrammar.grammar(for: schema(#"{"items":[{"type":"integer"},{"type":"string"}]}"#)))
    #expect(tuple["root"] == #""[" root-value-0 ", " root-value-1 "]""#)
    #expect(tuple["root-value-0"] == "integer")
    #expect(tuple["root-value-1"] == "string")
    let prefix = rules(try JSONSchemaGrammar.grammar(for: schema(#"{"type":"array","prefixItems":[{"const":1}]}"#)))
    #expect(prefix["root"] == #""[" root-value-0 "]""#)
    let list = rules(try JSONSchemaGrammar.grammar(for: schema(#"{"items":{"type":"boolean"}}"#)))
    #expect(list["root"] == #""[" ( root-value-item ( ", " root-value-item )* )? "]""#)
  }

  @Test func schemasItCannotExpressAreReported() throws {
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(#"{"$ref":"https://example.com/schema.json"}"#))
    }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(#"{"type":"decimal"}"#))
    }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(#"{"enum":[]}"#))
    }
  }

  @Test func stringsWithQuotesAreEscapedInLiterals() throws {
    let grammar = try JSONSchemaGrammar.grammar(for: schema(#"{"const":"say \"hi\"\n"}"#))
    #expect(rules(grammar)["root"] == #""\"say \\\"hi\\\"\\n\"""#)
  }

  @Test func propertyNamesThatClashGetSuffixesWithoutRescans() throws {
    // 3,000 names that all sanitise to "root-value-a---" ("a!#$", "a!#%", …): each used to rescan every
    // suffix taken before it.
    let marks = Array("!#$%&*+.:;=?@^~|")
    let names = (0..<3000).map { index in
      "a" + String([marks[index / 256], marks[index / 16 % 16], marks[index % 16]])
    }
    let properties = names.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ",")
    let clock = ContinuousClock()
    let start = clock.now
    let grammar = try JSONSchemaGrammar.grammar(for: schema(#"{"type":"object","properties":{\#(properties)}}"#))
    let elapsed = clock.now - start
    let all = rules(grammar)
    #expect(all.count == 3000 + 1 + 9)  // the properties, root and the nine shared rules
    #expect(all["root-value-a---"] == "integer" && all["root-value-a----3000"] == "integer")
    // Generous for a two-core machine; the rescans took tens of seconds at this size in a debug build.
    #expect(elapsed < .seconds(5))
  }

  @Test func aSameNamedReferenceInAnotherSectionIsItsOwnRule() throws {
    let grammar = try JSONSchemaGrammar.grammar(
      for: schema(
        ##"{"$defs":{"A":{"type":"integer"}},"definitions":{"A":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/A"},"y":{"$ref":"#/definitions/A"}},"required":["x","y"]}"##
      ))
    let all = rules(grammar)
    #expect(all["ref-A"] == "integer")
    #expect(all["ref-A-2"] == "string")
  }

  @Test func schemasBeyondTheLimitsAreRefusedByName() throws {
    var deep = #"{"type":"string"}"#
    for _ in 0..<(JSONSchemaGrammar.maxDepth + 2) { deep = #"{"type":"array","items":\#(deep)}"# }
    let nested = #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(deep))
    }
    #expect(nested?.reason.contains("nested more than \(JSONSchemaGrammar.maxDepth) deep") == true)
    let many = (0...JSONSchemaGrammar.maxRules).map { #""p\#($0)":{"type":"integer"}"# }.joined(separator: ",")
    let wide = #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(#"{"properties":{\#(many)}}"#))
    }
    #expect(wide?.reason.contains("more than \(JSONSchemaGrammar.maxRules) nested schemas") == true)
    let long = String(repeating: "x", count: 300_000)
    let big = #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try JSONSchemaGrammar.grammar(for: schema(#"{"enum":["\#(long)"]}"#))
    }
    #expect(big?.reason.contains("\(GrammarLimits.maxBytes)") == true)
  }

  @Test func rawGrammarsAreMeasuredBeforeLlamaCppReadsThem() throws {
    // Parentheses in literals, classes and comments are not groups.
    try GrammarLimits.check(
      ##"root ::= ( "(((" [()] "\"(" )*"## + "\n# " + String(repeating: "(", count: 100) + "\nx ::= [\\](]")
    let deep = "root ::= " + String(repeating: "( ", count: 65) + #""a""# + String(repeating: " )", count: 65)
    let nested = #expect(throws: GrammarLimits.Exceeded.self) { try GrammarLimits.check(deep) }
    #expect(nested?.description.contains("nested 65 deep") == true)
    let huge = #expect(throws: GrammarLimits.Exceeded.self) {
      try GrammarLimits.check("root ::= \"" + String(repeating: "a", count: GrammarLimits.maxBytes) + "\"")
    }
    #expect(huge?.description.contains("bytes") == true)
    // llama.cpp would write rules for a repetition counting down until memory ran out.
    let down = #expect(throws: GrammarLimits.Exceeded.self) { try GrammarLimits.check(#"root ::= "a"{3, 1}"#) }
    #expect(down?.description.contains("{3,1} counts down") == true)
    try GrammarLimits.check(#"root ::= "{3,1}" [{] "a"{1,3} "b"{2,} "c"{4}"#)
    var options = GenerationOptions(grammar: deep)
    #expect(throws: InvalidParameterError.self) { try options.validate() }
    options.grammar = #"root ::= "a""#
    try options.validate()
  }
}

@Suite("Lengths and item counts in JSON-schema grammars")
struct JSONSchemaGrammarBoundsTests {
  private func root(_ text: String) throws -> String {
    let grammar = try JSONSchemaGrammar.grammar(for: JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    return String(grammar.split(separator: "\n").first { $0.hasPrefix("root ::= ") }?.dropFirst(9) ?? "")
  }

  @Test func stringLengthsBecomeCountedCharacters() throws {
    #expect(try root(#"{"type":"string","maxLength":60}"#) == #""\"" char{0,60} "\"""#)
    #expect(try root(#"{"type":"string","minLength":2,"maxLength":5}"#) == #""\"" char{2,5} "\"""#)
    #expect(try root(#"{"type":"string","minLength":1}"#) == #""\"" char+ "\"""#)
    #expect(try root(#"{"type":"string","maxLength":0}"#) == #""\""  "\"""#)
    #expect(try root(#"{"type":"string"}"#) == "string")
  }

  @Test func itemCountsBecomeCountedItems() throws {
    #expect(
      try root(#"{"type":"array","items":{"type":"integer"},"maxItems":3}"#)
        == #""[" ( root-value-item ( ", " root-value-item ){0,2} )? "]""#)
    #expect(
      try root(#"{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}"#)
        == #""[" root-value-item ( ", " root-value-item ){0,2} "]""#)
    #expect(
      try root(#"{"type":"array","items":{"type":"integer"},"minItems":2}"#)
        == #""[" root-value-item ( ", " root-value-item )+ "]""#)
    #expect(try root(#"{"type":"array","minItems":1}"#) == #""[" value ( ", " value )* "]""#)
    #expect(try root(#"{"type":"array","items":{"type":"integer"},"maxItems":0}"#) == #""["  "]""#)
  }

  /// Past the count llama.cpp would write out, the bound is not enforced rather than the schema refused.
  @Test func boundsBeyondTheLimitAreLeftAndContradictionsRefused() throws {
    #expect(try root(#"{"type":"string","maxLength":5000}"#) == "string")
    #expect(try root(#"{"type":"string","minLength":3,"maxLength":5000}"#) == "string")
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try root(#"{"type":"string","minLength":4,"maxLength":2}"#)
    }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) { try root(#"{"type":"string","maxLength":-1}"#) }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) { try root(#"{"type":"array","maxItems":1.5}"#) }
  }
}

@Suite("Number ranges in JSON-schema grammars")
struct NumberRangeGrammarTests {
  private func grammar(_ text: String) throws -> String {
    try JSONSchemaGrammar.grammar(for: JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
  }

  /// A small matcher for the range rules: every number from -1,200 to 1,200 (and some decimals) is admitted
  /// exactly when it is in range. The rules use only literals, digit classes, counted digits, groups and `|`.
  private func admits(_ rule: String, _ text: String) -> Bool {
    RangeRuleMatcher(rule).matches(text)
  }

  @Test(arguments: [
    (1, 20), (0, 0), (-5, 3), (-120, -7), (7, 1100), (0, 999), (10, 10), (-1000, 1000), (99, 101),
  ])
  func wholeNumbersInABoundedRange(least: Int, most: Int) throws {
    let rule = try #require(NumberRangeGrammar.integer(least: least, most: most))
    for number in -1200...1200 {
      #expect(admits(rule, String(number)) == (least...most).contains(number), "\(number) in \(least)...\(most)")
    }
  }

  @Test(arguments: [(Int?.some(5), Int?.none), (nil, -3), (0, nil), (-12, nil), (nil, 40)])
  func wholeNumbersOpenOnOneSide(least: Int?, most: Int?) throws {
    let rule = try #require(NumberRangeGrammar.integer(least: least, most: most))
    for number in [-5_000_000, -1200, -13, -12, -4, -3, -2, 0, 4, 5, 6, 39, 40, 41, 999, 1000, 123_456_789] {
      let inRange = number >= (least ?? .min) && number <= (most ?? .max)
      #expect(admits(rule, String(number)) == inRange, "\(number)")
    }
  }

  @Test func decimalsBetweenWholeBounds() throws {
    let unit = try #require(NumberRangeGrammar.number(least: 0, most: 1))
    for (text, expected) in [
      ("0", true), ("0.25", true), ("1", true), ("1.0", true), ("1.5", false), ("2", false), ("1.01", false),
    ] {
      #expect(admits(unit, text) == expected, "\(text)")
    }
    let rating = try #require(NumberRangeGrammar.number(least: 1, most: 5))
    #expect(admits(rating, "4.5") && admits(rating, "5") && !admits(rating, "0.9") && !admits(rating, "5.5"))
    let open = try #require(NumberRangeGrammar.number(least: 3, most: nil))
    #expect(admits(open, "3.25") && admits(open, "12000") && !admits(open, "2.9"))
    #expect(NumberRangeGrammar.number(least: -1, most: 1) == nil)
    #expect(NumberRangeGrammar.number(least: 0, most: 0.5) == nil)
    #expect(NumberRangeGrammar.number(least: nil, most: 10) == nil)  // -3.5 is in range
  }

  @Test func schemasUseTheRangesAndRefuseEmptyOnes() throws {
    let bounded = try grammar(#"{"type":"integer","minimum":1,"maximum":20}"#)
    #expect(bounded.hasPrefix("root ::= ( [1-9] )"))
    #expect(try grammar(#"{"type":"integer","minimum":0.5,"maximum":2.5}"#).hasPrefix("root ::= ( [1-2] )"))
    #expect(try grammar(#"{"type":"number","minimum":-0.5,"maximum":0.5}"#).hasPrefix("root ::= number"))
    #expect(try grammar(#"{"type":"integer","maximum":1e300}"#).hasPrefix("root ::= integer"))
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try grammar(#"{"type":"integer","minimum":3,"maximum":2}"#)
    }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) {
      try grammar(#"{"type":"integer","minimum":2.2,"maximum":2.8}"#)
    }
    #expect(throws: JSONSchemaGrammar.UnsupportedSchema.self) { try grammar(#"{"type":"number","minimum":"1"}"#) }
  }
}

/// Matches text against the subset of GBNF the range rules are written in, by trying every way through.
private struct RangeRuleMatcher {
  indirect enum Node {
    case literal(String)
    case digits(ClosedRange<Character>)
    case sequence([Node])
    case choice([Node])
    case repeated(Node, Int, Int)
  }

  let root: Node

  init(_ rule: String) {
    var tokens = RangeRuleMatcher.tokens(rule)[...]
    root = RangeRuleMatcher.choice(&tokens)
  }

  func matches(_ text: String) -> Bool { ends(root, Array(text)[...], from: 0).contains(text.count) }

  private func ends(_ node: Node, _ text: ArraySlice<Character>, from start: Int) -> Set<Int> {
    switch node {
    case .literal(let value):
      let end = start + value.count
      return end <= text.count && String(text[start..<end]) == value ? [end] : []
    case .digits(let range):
      return start < text.count && range.contains(text[start]) ? [start + 1] : []
    case .sequence(let parts):
      return parts.reduce([start]) { positions, part in
        Set(positions.flatMap { ends(part, text, from: $0) })
      }
    case .choice(let options):
      return Set(options.flatMap { ends($0, text, from: start) })
    case .repeated(let node, let least, let most):
      var positions: Set<Int> = [start]
      var all: Set<Int> = least == 0 ? [start] : []
      for count in 1...max(most, 1) where !positions.isEmpty {
        positions = Set(positions.flatMap { ends(node, text, from: $0) })
        if count >= least { all.formUnion(positions) }
      }
      return all
    }
  }

  private static func tokens(_ rule: String) -> [String] {
    var tokens: [String] = []
    var index = rule.startIndex
    while index < rule.endIndex {
      let character = rule[index]
      if character == " " {
        index = rule.index(after: index)
      } else if character == "\"" || character == "[" || character == "{" {
        let close: Character = character == "\"" ? "\"" : character == "[" ? "]" : "}"
        let end = rule[rule.index(after: index)...].firstIndex(of: close)!
        tokens.append(String(rule[index...end]))
        index = rule.index(after: end)
      } else {
        tokens.append(String(character))
        index = rule.index(after: index)
      }
    }
    return tokens
  }

  private static func choice(_ tokens: inout ArraySlice<String>) -> Node {
    var options = [sequence(&tokens)]
    while tokens.first == "|" {
      tokens.removeFirst()
      options.append(sequence(&tokens))
    }
    return .choice(options)
  }

  private static func sequence(_ tokens: inout ArraySlice<String>) -> Node {
    var parts: [Node] = []
    while let token = tokens.first, token != "|", token != ")" {
      tokens.removeFirst()
      var node: Node
      switch token.first {
      case "(":
        node = choice(&tokens)
        tokens.removeFirst()  // ")"
      case "\"": node = .literal(String(token.dropFirst().dropLast()))
      case "[":
        let inside = Array(token.dropFirst().dropLast())
        node = .digits(inside[0]...(inside.count == 3 ? inside[2] : inside[0]))
      default: node = .literal(token)
      }
      while let suffix = tokens.first, ["?", "+", "*"].contains(suffix) || suffix.hasPrefix("{") {
        tokens.removeFirst()
        switch suffix {
        case "?": node = .repeated(node, 0, 1)
        case "+": node = .repeated(node, 1, 20)
        case "*": node = .repeated(node, 0, 20)
        default:
          let bounds = suffix.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
          let least = Int(bounds[0])!
          let most = bounds.count == 1 ? least : (Int(bounds[1]) ?? 20)
          node = .repeated(node, least, most)
        }
      }
      parts.append(node)
    }
    return .sequence(parts)
  }
}
