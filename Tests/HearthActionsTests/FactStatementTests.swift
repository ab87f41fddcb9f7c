import HearthActions
import HearthCore
import Testing

@Suite("Facts read from the user's words, and what a fact is about")
struct FactStatementTests {
  /// A Thursday.
  let today = LocalDate(year: 2026, month: 12, day: 3)!

  func read(_ message: String, explicitOnly: Bool = false) -> FactStatement? {
    FactStatement.read(message, today: today, explicitOnly: explicitOnly)
  }

  @Test("a request to remember keeps the statement, without the words that asked")
  func explicitRequests() {
    #expect(read("Remember that I'm allergic to nuts") == .remember(text: "I'm allergic to nuts.", until: nil))
    #expect(
      read("please remember my brother's name is Tomas", explicitOnly: true)
        == .remember(text: "My brother's name is Tomas.", until: nil))
    #expect(
      read("Can you remember that my flat is on the 4th floor?")
        == .remember(text: "My flat is on the 4th floor.", until: nil))
    #expect(
      read("keep in mind that I work from home on Fridays.", explicitOnly: true)
        == .remember(text: "I work from home on Fridays.", until: nil))
    #expect(read("Note that I'm left-handed", explicitOnly: true) == .remember(text: "I'm left-handed.", until: nil))
  }

  @Test("a to-do, a question and talk about remembering are not facts")
  func notFacts() {
    #expect(read("Remember to buy milk") == nil)
    #expect(read("do you remember what we said yesterday?") == nil)
    #expect(read("remember when we went to Porto?") == nil)
    #expect(read("What's my brother's name?") == nil)
    #expect(read("My meeting is at 3") == nil)
    #expect(read("I'm tired") == nil)
    #expect(read("I'm in a meeting") == nil)
    #expect(read("i'm a bit lost with this") == nil)
    #expect(read("Tell me a story about a dragon") == nil)
    // A plain statement is read only when the reader is not asked for explicit requests alone.
    #expect(read("My sister is called Ingrid", explicitOnly: true) == nil)
  }

  @Test("a plain statement about the user is a fact")
  func plainStatements() {
    #expect(read("My sister is called Ingrid") == .remember(text: "My sister is called Ingrid.", until: nil))
    #expect(read("I don't eat meat") == .remember(text: "I don't eat meat.", until: nil))
    #expect(read("I eat fish again now") == .remember(text: "I eat fish again now.", until: nil))
    #expect(read("by the way, I live in Porto!") == .remember(text: "I live in Porto!", until: nil))
    #expect(read("my favourite colour is green") == .remember(text: "My favourite colour is green.", until: nil))
  }

  @Test("an end day is read from until and till, never one in the past")
  func endDays() {
    let friday = LocalDate(year: 2026, month: 12, day: 4)!
    #expect(read("I'm in Lisbon until Friday") == .remember(text: "I'm in Lisbon until Friday.", until: friday))
    #expect(
      read("remember that the office is closed till 2026-12-24")
        == .remember(text: "The office is closed till 2026-12-24.", until: LocalDate(year: 2026, month: 12, day: 24)))
    #expect(
      read("remember that I was off until 2026-11-02")
        == .remember(text: "I was off until 2026-11-02.", until: nil))
  }

  @Test("forgetting names the fact; a vague or reminding 'forget' is not about facts")
  func forgetting() {
    #expect(read("Forget that I live in Porto") == .forget(about: "I live in Porto"))
    #expect(read("please forget my brother's name.") == .forget(about: "my brother's name"))
    #expect(read("forget what I said about the allergy") == .forget(about: "the allergy"))
    #expect(read("forget it") == nil)
    #expect(read("Don't forget to call mum") == nil)
  }

  @Test("the block carries the statement and its day, and validates as a memory action")
  func blocks() throws {
    let block = FactStatement.remember(text: "I'm in Lisbon.", until: LocalDate(year: 2026, month: 12, day: 4)).block
    #expect(block.hasPrefix("[MEMORY_ACTION:{") && block.contains(#""until":"2026-12-04""#))
    let parsed = ActionBlockParser.parse(block).blocks
    let action = try #require(parsed.first).validated()
    #expect(action.typed == .rememberFact(text: "I'm in Lisbon.", until: LocalDate(year: 2026, month: 12, day: 4)))
    let forget = try #require(ActionBlockParser.parse(FactStatement.forget(about: "Porto").block).blocks.first)
    #expect(try forget.validated().typed == .forgetFact(ItemReference(title: "Porto")))
  }

  @Test("two statements about the same thing share a subject; different things do not")
  func subjects() {
    func same(_ a: String, _ b: String) -> Bool { FactSubject.key(a) == FactSubject.key(b) }
    #expect(same("My brother's name is Tomas.", "my brother's name is Tomás"))
    #expect(same("I don't eat meat.", "I eat meat again"))
    #expect(same("I'm in Lisbon until Friday.", "I am in Paris now"))
    #expect(same("I live in Porto", "I live in Lisbon."))
    #expect(same("I'm allergic to nuts", "I'm not allergic to nuts"))
    #expect(!same("I'm allergic to nuts", "I'm allergic to cats"))
    #expect(!same("My brother's name is Tomas", "My sister's name is Ingrid"))
    #expect(!same("I don't eat meat", "I don't drink milk"))
  }
}

@Suite("Questions about what the user told, answered from the facts")
struct FactQuestionTests {
  let facts = [
    "My brother's name is Tomas.", "I'm allergic to nuts.", "I live in Porto.", "I work from home on Fridays.",
  ]

  @Test("a question whose every word a fact holds looks the facts up; one about something else does not")
  func questions() throws {
    let brother = try #require(FactQuestion.block(for: "What is my brother's name?", facts: facts))
    let about = try #require(ActionBlockParser.parse(brother).blocks.first).validated()
    #expect(about.typed == .recallFacts(about: "brother name"))
    #expect(FactQuestion.matching(facts, about: "brother name") == ["My brother's name is Tomas."])
    #expect(FactQuestion.block(for: "Do I have any allergies?", facts: facts) != nil)
    #expect(FactQuestion.matching(facts, about: "allergies") == ["I'm allergic to nuts."])
    #expect(FactQuestion.matching(facts, about: "live") == ["I live in Porto."])
    // A word naming only the kind of answer may be missing from the fact.
    #expect(FactQuestion.matching(["I speak Portuguese."], about: "languages speak") == ["I speak Portuguese."])
    #expect(FactQuestion.matching(facts, about: "name") == [])
    // A sister no fact names, a question about the world, and a statement are not looked up.
    #expect(FactQuestion.block(for: "What is my sister's name?", facts: facts) == nil)
    #expect(FactQuestion.block(for: "Where is Porto?", facts: facts) == nil)
    #expect(FactQuestion.block(for: "I live in Porto.", facts: facts) == nil)
    #expect(FactQuestion.block(for: "What is my brother's name?", facts: []) == nil)
  }
}

@Suite("A question about the user's life that no fact answers")
struct UnansweredFactQuestionTests {
  @Test("a question about the user's own life gets a look-up that finds nothing; other questions do not")
  func unanswered() throws {
    let block = try #require(FactQuestion.unansweredBlock(for: "Where do I live?"))
    #expect(try #require(ActionBlockParser.parse(block).blocks.first).validated().typed == .recallFacts(about: "live"))
    #expect(FactQuestion.unansweredBlock(for: "What am I allergic to?") != nil)
    #expect(FactQuestion.unansweredBlock(for: "What is the capital of France?") == nil)
    #expect(FactQuestion.unansweredBlock(for: "How do I make bread?") == nil)
    #expect(FactQuestion.unansweredBlock(for: "My sister lives in Oslo.") == nil)
  }
}
