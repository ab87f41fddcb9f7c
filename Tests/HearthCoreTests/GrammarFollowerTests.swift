import Foundation
import Testing

@testable import HearthCore

@Suite("Following text through a GBNF grammar")
struct GrammarFollowerTests {
  private func follower(_ grammar: String) throws -> GrammarFollower {
    GrammarFollower(try GBNFGrammar(grammar))
  }

  /// The follower after `text`.
  private func after(_ text: String, in grammar: String) throws -> GrammarFollower {
    var follower = try follower(grammar)
    follower.accept(bytes: Array(text.utf8))
    return follower
  }

  private func schemaGrammar(_ schema: String) throws -> String {
    try JSONSchemaGrammar.grammar(for: JSONDecoder().decode(JSONValue.self, from: Data(schema.utf8)))
  }

  private let event = #"""
    {"type":"object","properties":{"title":{"type":"string"},"start":{"type":"string"},
    "attendees":{"type":"array","items":{"type":"string"}},"all_day":{"type":"boolean"}},
    "required":["title","start","attendees","all_day"]}
    """#

  @Test func aSchemasKeysAndPunctuationAreForcedAndItsValuesAreNot() throws {
    let grammar = try schemaGrammar(event)
    #expect(try follower(grammar).forcedText(limit: 96) == #"{"title": ""#)
    #expect(try after(#"{"title": "Team"#, in: grammar).forcedText(limit: 96) == "")
    #expect(try after(#"{"title": "Team""#, in: grammar).forcedText(limit: 96) == #", "start": ""#)
    let inList = try after(#"{"title": "Team", "start": "9", "attendees": ["#, in: grammar)
    #expect(inList.forcedText(limit: 96) == "")
    let afterList = try after(#"{"title": "Team", "start": "9", "attendees": []"#, in: grammar)
    #expect(afterList.forcedText(limit: 96) == #", "all_day": "#)
    // true or false: a choice, so nothing more is forced.
    #expect(
      try after(#"{"title": "Team", "start": "9", "attendees": [], "all_day": t"#, in: grammar).forcedText(limit: 96)
        == "rue}")
    #expect(
      try after(#"{"title": "Team", "start": "9", "attendees": [], "all_day": f"#, in: grammar).forcedText(limit: 3)
        == "als")
  }

  @Test func aWholeDocumentIsFollowedToItsEndAndNothingAfterIt() throws {
    let grammar = try schemaGrammar(event)
    let document =
      #"{"title": "Tea \"time\" \u00e9té", "start": "2026-12-08T09:00", "attendees": ["Anna", "Lé"], "all_day": false}"#
    var follower = try after(document, in: grammar)
    #expect(!follower.isLost)
    #expect(follower.canEnd)
    #expect(follower.forcedText(limit: 10) == "")
    follower.accept(bytes: Array(" ".utf8))
    #expect(follower.isLost)
    // Another layout than the grammar's is not followed.
    #expect(try after(#"{ "title""#, in: grammar).isLost)
    #expect(try after(#"{"title":"x""#, in: grammar).isLost)
  }

  @Test func charactersSplitAcrossPiecesAreFollowedWhole() throws {
    var follower = try follower(#"root ::= "é" "!""#)
    let bytes = Array("é".utf8)
    follower.accept(bytes: bytes.prefix(1))
    #expect(!follower.isLost)
    #expect(follower.forcedText(limit: 5) == "", "nothing is forced inside a character")
    follower.accept(bytes: bytes.suffix(1))
    #expect(follower.forcedText(limit: 5) == "!")
    follower.accept(bytes: [0xFF])
    #expect(follower.isLost)
  }

  @Test func countedRepetitionsForceTheirLeastAndStopWhereTheTextCouldEnd() throws {
    let grammar = #"root ::= "x"{2,3} "!"?"#
    #expect(try follower(grammar).forcedText(limit: 10) == "xx")
    let two = try after("xx", in: grammar)
    #expect(two.forcedText(limit: 10) == "", "a third x, the mark or the end")
    #expect(two.canEnd)
    #expect(try after("xxx", in: grammar).forcedText(limit: 10) == "", "the mark or the end")
    #expect(try after("xxx!", in: grammar).canEnd)
    #expect(try after("xxxx", in: grammar).isLost)
    #expect(try follower(#"root ::= "ab"{3}"#).forcedText(limit: 100) == "ababab")
    #expect(try follower(#"root ::= "a" "b"* "c""#).forcedText(limit: 100) == "a")
    #expect(try follower(#"root ::= "a"+ "c""#).forcedText(limit: 100) == "a")
  }

  @Test func classesEscapesCommentsAndLinesReadAsLlamaCppReadsThem() throws {
    let grammar = #"""
      # a comment
      root ::= "\x41\u00e9\t" [^a-c\]] tail   # trailing comment
      tail ::= (
          "y" |
          "z" ) . [q]
      """#
    #expect(try follower(grammar).forcedText(limit: 10) == "Aé\t")
    #expect(try after("Aé\tb", in: grammar).isLost)
    #expect(try after("Aé\t]", in: grammar).isLost)
    let free = try after("Aé\td", in: grammar)
    #expect(!free.isLost)
    #expect(free.forcedText(limit: 5) == "")
    #expect(try after("Aé\tdz", in: grammar).forcedText(limit: 5) == "", "any character next")
    #expect(try after("Aé\tdz!", in: grammar).forcedText(limit: 5) == "q")
    #expect(try after("Aé\tdz!q", in: grammar).canEnd)
  }

  @Test func grammarsItCannotFollowAreRefusedByReason() {
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar(#"root ::= <[1000]> "a""#) }
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar("root ::= missing") }
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar(#"root ::= "a"#) }
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar(#"other ::= "a""#) }
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar(#"root ::= "a"{3,2}"#) }
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar("root ::= [z-a]") }
  }

  @Test func aLeftRecursiveOrLoopingGrammarLeavesTheFollowerLostNotHung() throws {
    #expect(try follower(#"root ::= root "a" | "b""#).isLost)
    let looping = try follower(#"root ::= ( "x"? )* "y""#)
    #expect(looping.isLost || looping.forcedText(limit: 5) == "")
  }

  /// Rules that can match nothing, one after another, lead to the same stacks by many paths: each is
  /// expanded once, so a grammar llama.cpp reads in a moment is followed in a moment too.
  @Test func manyRulesThatMatchNothingAreExpandedOnce() throws {
    let grammar = "root ::= " + String(repeating: "x ", count: 30) + #""!""# + "\n" + #"x ::= "a"? | "b"?"#
    #expect(try follower(grammar).forcedText(limit: 5) == "")
    #expect(try after("ab!", in: grammar).canEnd)
    #expect(try after(String(repeating: "ab", count: 15) + "!", in: grammar).canEnd)
    #expect(try after(String(repeating: "a", count: 31), in: grammar).isLost)
  }

  /// A repeated group is one rule repeated by reference, and counts follow llama.cpp's limits: a least count
  /// above 2,000 is refused, a most count above it is no bound.
  @Test func repeatedGroupsAndCountsAreHeldAsLlamaCppHoldsThem() throws {
    let word = String(repeating: "w", count: 10_000)
    let repeated = try follower(#"root ::= ( ""# + word + #"" ){2000}"#)
    #expect(repeated.forcedText(limit: 12) == "wwwwwwwwwwww")
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar(#"root ::= "a"{2001}"#) }
    let open = try after("aaaa", in: #"root ::= "a"{0,5000} "b""#)
    #expect(open.forcedText(limit: 5) == "")
    #expect(try after(String(repeating: "a", count: 2_500) + "b", in: #"root ::= "a"{0,5000} "b""#).canEnd)
    // llama.cpp's escapes include `\-`; an empty class matches no character in llama.cpp.
    #expect(!(try after("-", in: #"root ::= [a\-z]"#).isLost))
    #expect(try after("b", in: #"root ::= [a\-z]"#).isLost)
    #expect(throws: GBNFGrammar.Unsupported.self) { try GBNFGrammar("root ::= [] \"a\"") }
  }

  @Test func forcedTextIsAlwaysTextTheGrammarAccepts() throws {
    let grammars = [
      try schemaGrammar(event),
      try schemaGrammar(
        #"{"type":"object","properties":{"n":{"type":"integer","minimum":10,"maximum":19}},"required":["n"]}"#),
      try schemaGrammar(#"{"enum":["alpha","alpine","beta"]}"#),
      JSONSchemaGrammar.anyObject,
    ]
    for grammar in grammars {
      var follower = try follower(grammar)
      var text = ""
      // Alternates forced text with one free character the grammar allows, as generation does.
      for free in Array("Ti\"a1, ]}e") {
        let forced = follower.forcedText(limit: 96)
        follower.accept(bytes: Array(forced.utf8))
        text += forced
        #expect(!follower.isLost, "forced \(forced) after \(text)")
        var trial = follower
        trial.accept(bytes: Array(String(free).utf8))
        if !trial.isLost {
          follower = trial
          text.append(free)
        }
      }
    }
  }
}
