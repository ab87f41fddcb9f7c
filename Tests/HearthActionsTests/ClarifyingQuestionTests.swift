import HearthActions
import HearthCore
import Testing

@Suite("The question between two changes, and the reply that chooses one")
struct ClarifyingQuestionTests {
  static let event = RequestIntent(.calendar, "create")
  static let reminder = RequestIntent(.reminder, "create")
  static let move = RequestIntent(.calendar, "update")
  static let show = RequestIntent(.calendar, "query")

  @Test("every question names its two changes and is read back as the same two, in order")
  func everyQuestionReadsBack() {
    let intents = IntentExamples.all.map(\.intent)
    for first in intents {
      for second in intents where second != first {
        let text = ClarifyingQuestion.text(first, second)
        #expect(text.contains(ClarifyingQuestion.phrase(first)) && text.contains(ClarifyingQuestion.phrase(second)))
        let read = ClarifyingQuestion.intents(asked: text)
        #expect(read?.0 == first && read?.1 == second, "\(text)")
      }
    }
    #expect(
      ClarifyingQuestion.text(Self.reminder, Self.event)
        == "Should I set it as a reminder or add it to your calendar as an event? Say which and I'll prepare it; "
        + "nothing has been changed yet.")
  }

  @Test("an answer that is not the question as written asks nothing")
  func otherAnswersAskNothing() {
    #expect(ClarifyingQuestion.intents(asked: "Should I bring an umbrella?") == nil)
    #expect(ClarifyingQuestion.intents(asked: ClarifyingQuestion.text(Self.reminder, Self.event) + " Hm.") == nil)
    #expect(ClarifyingQuestion.intents(asked: "") == nil)
  }

  @Test(
    "a reply chooses by order or by the words of a change",
    arguments: [
      ("the first", reminder), ("Second one please", event), ("a reminder", reminder),
      ("put it in my calendar", event), ("as an event", event), ("reminders!", reminder), ("remind me", reminder),
    ])
  func aReplyChooses(_ reply: String, _ chosen: RequestIntent) {
    #expect(ClarifyingQuestion.choice(reply, between: Self.reminder, Self.event) == chosen)
  }

  @Test("two changes of one kind are told apart by their verbs")
  func oneKindByVerb() {
    #expect(ClarifyingQuestion.choice("move it", between: Self.show, Self.move) == Self.move)
    #expect(ClarifyingQuestion.choice("just show me", between: Self.show, Self.move) == Self.show)
  }

  @Test(
    "a reply that names neither or both is a request of its own",
    arguments: ["yes", "what's the weather like?", "either a reminder or an event", "the first or the second"])
  func neitherOrBoth(_ reply: String) {
    #expect(ClarifyingQuestion.choice(reply, between: Self.reminder, Self.event) == nil)
  }
}
