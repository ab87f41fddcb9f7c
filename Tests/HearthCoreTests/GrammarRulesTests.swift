import HearthCore
import Testing

@Suite("Grammar rules renamed so grammars built apart can be joined")
struct GrammarRulesTests {
  @Test func definitionsAndReferencesAreRenamedButLiteralsAndClassesAreNot() {
    let grammar = #"""
      root ::= "{" ws value "}"
      value ::= "root" | [a-z value] | string
      string ::= "\"" ( [^"\\] )* "\""
      ws ::= | " "
      """#
    let renamed = GrammarRules.prefixed(grammar, with: "t0-")
    #expect(
      renamed == #"""
        t0-root ::= "{" t0-ws t0-value "}"
        t0-value ::= "root" | [a-z value] | t0-string
        t0-string ::= "\"" ( [^"\\] )* "\""
        t0-ws ::= | " "
        """#)
  }

  @Test func namesNotDefinedHereAreLeftAlone() {
    #expect(
      GrammarRules.prefixed("root ::= other ws\nws ::= \" \"", with: "x-") == "x-root ::= other x-ws\nx-ws ::= \" \"")
  }
}
