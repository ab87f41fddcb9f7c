import Foundation
import HearthCore
import Testing

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
    #expect(tuple["root"] == #""[" ws root-value-0 ws "," ws root-value-1 ws "]""#)
    #expect(tuple["root-value-0"] == "integer")
    #expect(tuple["root-value-1"] == "string")
    let prefix = rules(try JSONSchemaGrammar.grammar(for: schema(#"{"type":"array","prefixItems":[{"const":1}]}"#)))
    #expect(prefix["root"] == #""[" ws root-value-0 ws "]""#)
    let list = rules(try JSONSchemaGrammar.grammar(for: schema(#"{"items":{"type":"boolean"}}"#)))
    #expect(list["root"] == #""[" ws ( root-value-item ( ws "," ws root-value-item )* )? ws "]""#)
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
    #expect(all.count == 3000 + 1 + 9)
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
    var options = GenerationOptions(grammar: deep)
    #expect(throws: InvalidParameterError.self) { try options.validate() }
    options.grammar = #"root ::= "a""#
    try options.validate()
  }
}
