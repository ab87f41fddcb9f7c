import Foundation
import HearthBench
import HearthCore
import Testing

@Suite("The structured benchmark's requests and its schema check")
struct StructuredRequestsTests {
  private func json(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  /// Thirty requests, every schema parsed, fully understood by the check and expressible as a grammar.
  @Test func everyRequestsSchemaIsCheckedAndHasAGrammar() throws {
    let requests = StructuredRequests.all
    #expect(requests.count == 30)
    #expect(Set(requests.map(\.schemaName)).count == 6)
    #expect(Set(requests.map(\.user)).count == 30)
    for request in requests {
      #expect(request.schema.objectMembers != nil, "\(request.schemaName)")
      let unchecked = SchemaCheck.problems(.object([]), against: request.schema).filter { $0.contains("not checked") }
      #expect(unchecked.isEmpty, "\(request.schemaName): \(unchecked)")
      _ = try JSONSchemaGrammar.grammar(for: request.schema)
    }
  }

  @Test func aConformingDocumentHasNoProblems() throws {
    let schema = try #require(StructuredRequests.all.first { $0.schemaName == "classification" }?.schema)
    let answer = try json(#"{"sentiment":"negative","urgent":true,"confidence":0.8,"topics":["refund"]}"#)
    #expect(SchemaCheck.problems(answer, against: schema).isEmpty)
  }

  @Test(arguments: [
    (#"{"sentiment":"angry","urgent":true,"confidence":0.8,"topics":["a"]}"#, "not one of the enum"),
    (#"{"sentiment":"neutral","urgent":"yes","confidence":0.8,"topics":["a"]}"#, "not of type boolean"),
    (#"{"sentiment":"neutral","urgent":true,"confidence":1.5,"topics":["a"]}"#, "above 1"),
    (#"{"sentiment":"neutral","urgent":true,"confidence":0.5,"topics":[]}"#, "fewer than 1"),
    (#"{"sentiment":"neutral","urgent":true,"confidence":0.5,"topics":["a","b","c","d"]}"#, "more than 3"),
    (#"{"sentiment":"neutral","urgent":true,"confidence":0.5}"#, "topics is missing"),
    (#"{"sentiment":"neutral","urgent":true,"confidence":0.5,"topics":["a"],"extra":1}"#, "extra is not allowed"),
    (
      #"{"sentiment":"neutral","urgent":true,"confidence":0.5,"topics":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]}"#,
      "more than 30",
    ),
  ])
  func eachBreachIsNamed(answer: String, expected: String) throws {
    let schema = try #require(StructuredRequests.all.first { $0.schemaName == "classification" }?.schema)
    let problems = SchemaCheck.problems(try json(answer), against: schema)
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.contains(expected) == true, "\(problems)")
  }

  @Test func wholeNumbersNullsAndUncheckedKeywords() throws {
    let limit = try json(#"{"type":"integer","minimum":1}"#)
    #expect(SchemaCheck.problems(.number(3), against: limit).isEmpty)
    #expect(SchemaCheck.problems(.number(2.5), against: limit).count == 1)
    #expect(SchemaCheck.problems(.number(0), against: limit).count == 1)
    #expect(SchemaCheck.problems(.null, against: try json(#"{"type":["string","null"]}"#)).isEmpty)
    let unchecked = SchemaCheck.problems(.string("x"), against: try json(#"{"type":"string","pattern":"^a"}"#))
    #expect(unchecked == ["#: keyword pattern is not checked"])
  }
}
