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

@Suite("Facts as people say them: a household's 'we', a clause, a short update")
struct EverydayFactTests {
  let today = LocalDate(year: 2026, month: 12, day: 3)!

  func kept(_ message: String) -> String? {
    if case .remember(let text, _)? = FactStatement.read(message, today: today) { return text }
    return nil
  }

  @Test("statements told in everyday ways are kept; passing states are not")
  func everydayStatements() {
    #expect(kept("fyi we have a dog named Pepperkorn") == "We have a dog named Pepperkorn.")
    #expect(kept("i've got a tree nut allergy") == "I've got a tree nut allergy.")
    #expect(kept("im lactose intolerant") == "Im lactose intolerant.")
    #expect(kept("I'm a Capricorn") == "I'm a Capricorn.")
    #expect(kept("my fav band is The Marrowbones") == "My fav band is The Marrowbones.")
    #expect(kept("my brother Oskar lives in Valdemoro") == "My brother Oskar lives in Valdemoro.")
    #expect(kept("switched practices, my new GP is Dr. Mbeki") == "Switched practices, my new GP is Dr. Mbeki.")
    #expect(kept("update: went fully vegetarian, no more fish for me") == "Went fully vegetarian, no more fish for me.")
    #expect(kept("just moved to Ghent") == "Just moved to Ghent.")
    #expect(kept("I'm originally from Porto") == "I'm originally from Porto.")
    #expect(kept("I can't have dairy") == "I can't have dairy.")
    #expect(kept("I have a question") == nil)
    #expect(kept("I like that idea") == nil)
    #expect(kept("I'm a bit lost") == nil)
    #expect(kept("btw can you remind me to call mum") == nil)
  }

  @Test("a correction said another way is about the same thing")
  func corrections() {
    func same(_ a: String, _ b: String) -> Bool { FactSubject.key(a) == FactSubject.key(b) }
    #expect(same("I live in Pellham", "I moved to Ostervik last month"))
    #expect(same("I work at Brindle & Co", "just started a new job at Quillon Labs"))
    #expect(same("my favourite colour is orange", "my favorite color is green these days"))
    #expect(same("my GP is dr Hallorann", "switched practices, my new GP is Dr. Mbeki-Tolland"))
    #expect(same("I'm pescatarian", "went fully vegetarian, no more fish for me"))
    #expect(same("my cat is called Tofu", "my cat's name is Tuppence"))
    #expect(!same("my cat is called Tofu", "my dog is called Rex"))
  }

  @Test("a question finds the fact by what its words stand for, never a neighbour's")
  func questions() {
    let facts = [
      "We have a cat named Biscotti.", "My sister has a dog called Hubble.", "I drive a green Skoda Fabia.",
      "I'm a Capricorn.", "I work as a radiographer.", "We have three kids.", "My favourite food is pierogi.",
      "My favourite drink is hibiscus tea.", "I'm in Sorrelbay till the 22nd of June.",
    ]
    func found(_ question: String) -> [String] {
      guard let block = FactQuestion.block(for: question, facts: facts),
        case .recallFacts(let about)? = try? ActionBlockParser.parse(block).blocks.first?.validated().typed
      else { return [] }
      return FactQuestion.matching(facts, about: about)
    }
    #expect(found("what's my cat called?") == ["We have a cat named Biscotti."])
    #expect(found("what car have I got") == ["I drive a green Skoda Fabia."])
    #expect(found("what's my star sign?") == ["I'm a Capricorn."])
    #expect(found("what do I do for a living?") == ["I work as a radiographer."])
    #expect(found("how many kids do I have") == ["We have three kids."])
    #expect(found("what's my favourite food") == ["My favourite food is pierogi."])
    #expect(found("when does my trip end?") == ["I'm in Sorrelbay till the 22nd of June."])
    #expect(found("what's my parrot called?") == [])
    #expect(
      FactQuestion.matching(["My name is Sam.", "My brother's name is Tomas."], about: "name") == ["My name is Sam."])
  }
}

@Suite("What is not a fact, and two facts that are about different things")
struct NotAFactTests {
  let today = LocalDate(year: 2026, month: 12, day: 3)!

  @Test("a request beside a fact, a plan, a passing state and talk about the chat are not kept")
  func notKept() {
    for message in [
      "Remember that I'm allergic to nuts. Also remind me to call mum at 5", "btw I need to call the bank tomorrow",
      "heads up, I won't be home for dinner", "I love it!", "I like that.", "I'm 10 minutes away",
      "I have a lot of work", "I have a suggestion", "My son is sick", "My boss is annoying",
      "I'm working on the report", "Don't forget that I have to pick up the kids at 5",
    ] {
      #expect(FactStatement.read(message, today: today) == nil, "\(message)")
    }
    #expect(
      FactStatement.read("My GP is dr. Ingrid Vasquel", today: today)
        == .remember(text: "My GP is dr. Ingrid Vasquel.", until: nil))
    #expect(FactStatement.read("I'm 34", today: today) == .remember(text: "I'm 34.", until: nil))
    #expect(
      FactStatement.read("My birthday is on the 9th of May.", today: today)
        == .remember(text: "My birthday is on the 9th of May.", until: nil))
  }

  @Test("what is said of one person or thing does not replace another fact about them")
  func differentThings() {
    func same(_ a: String, _ b: String) -> Bool { FactSubject.key(a) == FactSubject.key(b) }
    #expect(!same("My sister is a nurse.", "My sister is called Ingrid."))
    #expect(!same("My dog is 5.", "My dog is called Rex."))
    #expect(!same("I work out every morning.", "I work at Google."))
    #expect(!same("My sister moved to Berlin.", "I live in Porto."))
    #expect(same("My sister Ingrid is a nurse.", "My sister is a doctor."))
  }

  @Test("advice about the people in the user's life is not a question about what they told")
  func advice() {
    #expect(FactQuestion.unansweredBlock(for: "How do I ask my boss for a raise?") == nil)
    #expect(FactQuestion.unansweredBlock(for: "What should I get my wife for her birthday?") == nil)
    #expect(FactQuestion.unansweredBlock(for: "Who is my dentist?") != nil)
    #expect(FactQuestion.unansweredBlock(for: "Tell me what you can do for my trip.") == nil)
  }
}
