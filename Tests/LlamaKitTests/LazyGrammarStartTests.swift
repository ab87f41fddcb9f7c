import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("Where a lazy grammar starts")
struct LazyGrammarStartTests {
  @Test func theGrammarStartsAtTheFirstGroupOnceEverythingMatches() throws {
    var start = try #require(LazyGrammarStart(pattern: #"[\s\S]*?(\[(?:CALENDAR_ACTION|NOTE_ACTION):[\s\S]*)"#))
    #expect(start.append(Array("Sure, ".utf8)) == nil)
    #expect(start.append(Array("[CALENDAR".utf8)) == nil)
    #expect(start.append(Array("_ACTION:{".utf8)) == "[CALENDAR_ACTION:{")
  }

  @Test func aPatternIsFoundAnywhereUnlessWrittenWholeAndCharactersAreWhole() throws {
    var plain = try #require(LazyGrammarStart(pattern: "ab"))
    #expect(plain.append(Array("xa".utf8)) == nil)
    #expect(plain.append(Array("bc".utf8)) == "abc", "no group: from the match on, to the end")
    var whole = try #require(LazyGrammarStart(pattern: "^ab$"))
    #expect(whole.append(Array("abc".utf8)) == nil)
    var exact = try #require(LazyGrammarStart(pattern: "^ab$"))
    #expect(exact.append(Array("ab".utf8)) == "ab")
    var accented = try #require(LazyGrammarStart(pattern: "(é.*)"))
    let bytes = Array("é!".utf8)
    #expect(accented.append(Array(bytes.prefix(1))) == nil)
    #expect(accented.append(Array(bytes.dropFirst())) == "é!")
    #expect(LazyGrammarStart(pattern: "(") == nil)
  }
}

@Suite("A lazy grammar's forced text through the real model", .heavy)
struct LazyForcedSpanTests {
  /// Once the trigger has matched, what the grammar forces is evaluated in one batch, and the answer keeps to
  /// the grammar from the trigger on.
  @Test func forcedSpansFollowALazyGrammarOnceItStarts() async throws {
    let grammar = #"root ::= [A-Za-z]+ " -> {\"answer\": \"" [a-z ]{1,30} "\", \"sure\": true, \"source\": \"model\"}""#
    var options = GenerationOptions(
      maxNewTokens: 80, sampling: .greedy, grammar: grammar, grammarTrigger: #"([\s\S]+)"#)
    options.forcedText = .batched
    let session = try await SharedModels.session()
    let result = try await Collected.from(
      session.respond(to: [.user("What colour is the sky? One word.")], options: options))
    var follower = GrammarFollower(try GBNFGrammar(grammar))
    follower.accept(bytes: Array(result.text.utf8))
    #expect(!follower.isLost, "\(result.text)")
    #expect(result.stopReason != .endOfGeneration || follower.canEnd, "\(result.text)")
    #expect((result.usage?.forcedTokens ?? 0) >= 5, "\(result.text)")
  }
}
