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

@Suite("Lengths and counts of a schema held by the real model", .heavy)
struct GrammarBoundsTests {
  /// Greedy SmolLM2 writes a title longer than eight characters for this request; the grammar cuts it at eight,
  /// keeps the list to two names, and the numbers within their ranges.
  @Test func aMaximumLengthAndItemCountHold() async throws {
    let schema = try JSONDecoder().decode(
      JSONValue.self,
      from: Data(
        #"{"type":"object","properties":{"title":{"type":"string","maxLength":8},"people":{"type":"array","items":{"type":"string","maxLength":12},"maxItems":2},"guests":{"type":"integer","minimum":1,"maximum":20},"priority":{"type":"number","minimum":0,"maximum":1}},"required":["title","people","guests","priority"]}"#
          .utf8))
    let options = GenerationOptions(
      maxNewTokens: 120, sampling: .greedy, grammar: try JSONSchemaGrammar.grammar(for: schema))
    let session = try await SharedModels.session()
    let result = try await Collected.from(
      session.respond(
        to: [.user("Annual planning meeting with Anna, Bob, Carol and Dave, as JSON with a title and people.")],
        options: options))
    #expect(result.stopReason == .endOfGeneration, "\(result.text)")
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(result.text.utf8))
    let title = try #require(value["title"]?.stringValue, "\(result.text)")
    #expect((1...8).contains(title.count), "\(result.text)")
    let people = try #require(value["people"]?.arrayValue, "\(result.text)")
    #expect(people.count <= 2, "\(result.text)")
    #expect(people.allSatisfy { ($0.stringValue?.count ?? 99) <= 12 }, "\(result.text)")
    let guests = try #require(value["guests"]?.numberValue, "\(result.text)")
    #expect((1...20).contains(guests) && guests == guests.rounded(), "\(result.text)")
    let priority = try #require(value["priority"]?.numberValue, "\(result.text)")
    #expect((0...1).contains(priority), "\(result.text)")
  }
}
