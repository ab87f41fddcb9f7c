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
}
