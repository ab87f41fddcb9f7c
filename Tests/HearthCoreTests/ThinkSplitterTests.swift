import HearthCore
import Testing

@Suite("Thinking split from the answer")
struct ThinkSplitterTests {
  private func run(_ pieces: [String], startsInThinking: Bool = false) -> (answer: String, thinking: String) {
    var splitter = ThinkSplitter(startsInThinking: startsInThinking)
    var answer = ""
    var thinking = ""
    for segment in pieces.flatMap({ splitter.feed($0) }) + splitter.finish() {
      switch segment {
      case .answer(let text): answer += text
      case .thinking(let text): thinking += text
      }
    }
    return (answer, thinking)
  }

  @Test func splitsAWholeTranscript() {
    let result = run(["<think>Paris is in France.</think>The capital is Paris."])
    #expect(result.thinking == "Paris is in France.")
    #expect(result.answer == "The capital is Paris.")
  }

  @Test func handlesTagsSplitAcrossPieces() {
    let result = run(["<th", "ink>hm", "m</t", "hink", ">ok"])
    #expect(result == ("ok", "hmm"))
  }

  @Test func keepsTextBeforeTheTagAsAnswer() {
    #expect(run(["Sure. <think>why</think> Done."]) == ("Sure.  Done.", "why"))
  }

  @Test func keepsThinkingWhenTheStreamEndsInsideIt() {
    #expect(run(["<think>still going"]) == ("", "still going"))
    #expect(run(["<think>still going</thi"]) == ("", "still going</thi"))
  }

  @Test func dropsAStrayClosingTag() {
    #expect(run(["answer</think> more"]) == ("answer more", ""))
  }

  @Test func startsInThinkingForTemplatesThatOpenIt() {
    #expect(run(["reasoning</think>answer"], startsInThinking: true) == ("answer", "reasoning"))
  }

  @Test func leavesLookalikesAlone() {
    #expect(run(["a < b and <thin> <b>bold</b> <", "3"]) == ("a < b and <thin> <b>bold</b> <3", ""))
  }

  @Test func emitsAnswerTextAsSoonAsItIsCertain() {
    var splitter = ThinkSplitter()
    #expect(splitter.feed("Hello <") == [.answer("Hello ")])
    #expect(splitter.feed("b>") == [.answer("<b>")])
    #expect(splitter.feed("<think>x") == [.thinking("x")])
    #expect(splitter.isThinking)
  }

  /// Random transcripts cut into random pieces always split the same way as when fed whole.
  @Test(arguments: 0..<200)
  func randomSplitsAgreeWithTheWholeTranscript(seed: Int) {
    var generator = SeededRandom(seed: UInt64(seed))
    let words = ["Paris", "is", "<", "think", "é", "🦙", "<b>", "a<t", "\n", "</", ">", "日本"]
    func sentence() -> String {
      (0..<Int.random(in: 0...6, using: &generator)).map { _ in words.randomElement(using: &generator)! }
        .joined(separator: " ")
    }
    let thought = Bool.random(using: &generator) ? sentence() : nil
    let answer = sentence()
    let transcript = (thought.map { "<think>\($0)</think>" } ?? "") + answer
    var pieces: [String] = []
    var rest = Substring(transcript)
    while !rest.isEmpty {
      let length = Int.random(in: 1...max(1, min(5, rest.count)), using: &generator)
      pieces.append(String(rest.prefix(length)))
      rest = rest.dropFirst(length)
    }
    let whole = run([transcript])
    #expect(run(pieces) == whole)
    #expect(whole.answer == answer)
    #expect(whole.thinking == (thought ?? ""))
  }
}
