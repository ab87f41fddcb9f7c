import Foundation
import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Grammar-constrained generation through the real model", .heavy)
struct GrammarTests {
  @Test func aSchemaGrammarYieldsConformingJSON() async throws {
    let schema = try JSONDecoder().decode(
      JSONValue.self,
      from: Data(
        #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["name","age","tags"]}"#
          .utf8))
    let grammar = try JSONSchemaGrammar.grammar(for: schema)
    for seed: UInt32 in [1, 2, 3] {
      let options = GenerationOptions(
        maxNewTokens: 120, sampling: SamplingParameters(temperature: 1.0, seed: seed), grammar: grammar)
      let session = try await SharedModels.session()
      let result = try await Collected.from(
        session.respond(to: [.user("Describe a person as JSON.")], options: options))
      #expect(result.stopReason == .endOfGeneration, "seed \(seed): \(result.text)")
      let value = try JSONDecoder().decode(JSONValue.self, from: Data(result.text.utf8))
      #expect(value["name"]?.stringValue != nil, "\(result.text)")
      let age = try #require(value["age"]?.numberValue, "\(result.text)")
      #expect(age == age.rounded())
      #expect(value["tags"]?.arrayValue?.allSatisfy { ["a", "b"].contains($0.stringValue ?? "") } == true)
    }
  }

  @Test func anInvalidGrammarIsATypedError() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(maxNewTokens: 4, grammar: "root ::= (")
    await #expect {
      _ = try await Collected.from(session.respond(to: [.user("hi")], options: options))
    } throws: { error in
      guard case LlamaError.invalidGrammar = error else { return false }
      return "\(error)".contains("grammar")
    }
  }
}
