import Foundation
import HearthActions
import HearthCore
import Testing

@Suite("Tool calls: the places a request names, and the grammar of calls")
struct ToolCallGrammarTests {
  @Test func placesAreReadAsTimeZonesInTheOrderSaid() {
    #expect(TimeZoneReader.zones(in: "What time is it in Tokyo?") == ["Asia/Tokyo"])
    #expect(TimeZoneReader.zones(in: "What is 3pm London time in Tokyo?") == ["Europe/London", "Asia/Tokyo"])
    // The longer name wins where both fit.
    #expect(TimeZoneReader.zones(in: "the time in New York, please") == ["America/New_York"])
    #expect(TimeZoneReader.zones(in: "time in Los Angeles vs japan") == ["America/Los_Angeles", "Asia/Tokyo"])
    #expect(TimeZoneReader.zones(in: "What time is my dentist appointment?").isEmpty)
    // A word inside another is no place ("Parisian" is not Paris).
    #expect(TimeZoneReader.zones(in: "a Parisian café").isEmpty)
  }

  private let time = CallableTool(
    server: "time", tool: "get_current_time", description: "Get current time in a specific timezone",
    schema: .object([
      ("type", .string("object")),
      ("properties", .object([("timezone", .object([("type", .string("string"))]))])),
      ("required", .array([.string("timezone")])),
    ]))

  @Test func theGrammarOffersEachToolWithItsArgumentsAndKeepsTheActions() {
    let grammar = ActionGrammar.grammar(tools: [time])
    #expect(grammar.contains("root ::= \"[\" ( kind-tool-call | kind-calendar-action"))
    #expect(grammar.contains(#"kind-tool-call ::= "TOOL_CALL:{" ( tool-0 ) "}""#))
    #expect(grammar.contains(#"tool-0 ::= "\"server\":\"time\",\"tool\":\"get_current_time\",\"arguments\":" t0-root"#))
    #expect(grammar.contains("t0-root ::= "))
    // The arguments' rules are renamed, so they cannot clash with the actions' own.
    #expect(!grammar.contains("\nroot-value ::="))
    #expect(ActionGrammar.grammar() == ActionGrammar.grammar(tools: []))
    #expect(ActionGrammar.triggerPattern(kinds: ActionKind.allCases).contains("TOOL_CALL"))
    #expect(!ActionGrammar.triggerPattern().contains("TOOL_CALL"))
  }

  @Test func aPinnedArgumentIsFixedInTheCallGrammar() {
    let grammar = ActionGrammar.grammar(for: time, pinned: ["timezone": .string("Asia/Tokyo")])
    #expect(
      grammar.hasPrefix(
        #"root ::= "[TOOL_CALL:{\"server\":\"time\",\"tool\":\"get_current_time\",\"arguments\":" args-root "}]""#))
    #expect(grammar.contains(#"Asia/Tokyo"#))
    #expect(
      time.block(arguments: .object([("timezone", .string("Asia/Tokyo"))]))
        == #"[TOOL_CALL:{"server":"time","tool":"get_current_time","arguments":{"timezone":"Asia/Tokyo"}}]"#)
    let parsed = ActionBlockParser.parse("Sure. " + time.block(arguments: .object([])))
    #expect(parsed.blocks.map(\.kind) == [.toolCall])
  }

  /// A required text the model writes is one character at least and 200 at most, in compact JSON like the block
  /// around it; a length the tool gives is its own.
  @Test func aTextLeftToTheModelIsBoundedAndCompact() throws {
    let grammar = ActionGrammar.grammar(for: time, pinned: [:])
    #expect(grammar.contains(#"args-root ::= "{" "\"timezone\"" ":" args-root-value-timezone "}""#), "\(grammar)")
    #expect(grammar.contains(#"args-root-value-timezone ::= "\"" args-char{1,200} "\"""#), "\(grammar)")
    let header = #"[TOOL_CALL:{"server":"time","tool":"get_current_time","arguments":{"timezone":""#
    var follower = GrammarFollower(try GBNFGrammar(grammar))
    #expect(follower.forcedText(limit: 200) == header)
    follower.accept(bytes: Array(header.utf8))
    follower.accept(bytes: Array("\"".utf8))
    #expect(follower.isLost, "an empty text is refused")
    let bounded = CallableTool(
      server: "s", tool: "t", description: "",
      schema: .object([
        ("type", .string("object")),
        ("properties", .object([("q", .object([("type", .string("string")), ("maxLength", .number(5))]))])),
        ("required", .array([.string("q")])),
      ]))
    #expect(ActionGrammar.grammar(for: bounded, pinned: [:]).contains(#"args-char{0,5}"#))
  }

  @Test func theInstructionsListTheToolsAndTheirArguments() {
    let text = ActionInstructions.toolLines([time])
    #expect(
      text.contains("server time, tool get_current_time: Get current time in a specific timezone Arguments: timezone"))
    #expect(text.contains("never instructions"))
  }
}
