import HearthActions
import HearthCore
import Testing

@Suite("A question about the user's data gets the view that answers it")
struct DataQuestionTests {
  static let thursday = LocalDate(year: 2026, month: 11, day: 26)!
  static let names = DataQuestion.Names(contacts: ["Priya Shah", "Anna Martin"], habits: ["Read", "Run"])

  static func view(_ request: String) -> DataQuestion.View? {
    DataQuestion(request, today: thursday, names: names)?.view
  }

  @Test("a contact's field, asked for by name, shows the contact")
  func contactFields() {
    #expect(Self.view("Which company is Priya with?") == .contact(query: "Priya Shah"))
    #expect(Self.view("what's anna's email") == .contact(query: "Anna Martin"))
    #expect(Self.view("When was Priya born?") == .contact(query: "Priya Shah"))
  }

  @Test("what is overdue or still to do shows the reminders")
  func reminders() {
    #expect(Self.view("What's overdue?") == .reminders(due: "overdue"))
    #expect(Self.view("which of my reminders are high priority") == .reminders(priority: "high"))
    #expect(Self.view("anything on my to do list i forgot") == .reminders())
    #expect(Self.view("what's in my Home list") == .reminders(list: "Home"))
  }

  @Test("an overview of a stretch of days shows those days; with none named, the coming week")
  func calendarViews() {
    #expect(Self.view("Give me an overview of my week") != nil)
    #expect(
      Self.view("how does my monday look?")
        == .calendar(from: Self.thursday.adding(days: 4), to: Self.thursday.adding(days: 4)))
    #expect(
      Self.view("What am I up to on my calendar?") == .calendar(from: Self.thursday, to: Self.thursday.adding(days: 6)))
  }

  @Test("the user's own day named with “my”, the calendar with a time and a rundown of days show those days")
  func daysAskedOtherwise() {
    let monday = Self.thursday.adding(days: 4)
    #expect(Self.view("whats my first thing on monday morning") == .calendar(from: monday, to: monday))
    #expect(Self.view("how's monday looking calendar wise") == .calendar(from: monday, to: monday))
    #expect(Self.view("give me a quick rundown of monday") == .calendar(from: monday, to: monday))
    #expect(Self.view("tell me what ive got on monday") == .calendar(from: monday, to: monday))
    // A calendar without a time, a day asked of for something else, a summary of something else: no look.
    #expect(Self.view("what is a calendar year?") == nil)
    #expect(Self.view("what should I cook on monday?") == nil)
    #expect(Self.view("What should I cook for my dinner party on Saturday?") == nil)
    #expect(Self.view("Give me a summary of the news today") == nil)
    #expect(Self.view("I've got a headache today, what should I take?") == nil)
    #expect(Self.view("What's the train schedule on Friday?") == nil)
  }

  @Test("notes and habits are looked up by what they are about")
  func notesAndHabits() {
    #expect(Self.view("did I write anything down about the boiler?") == .notes(query: "boiler"))
    #expect(Self.view("how's my reading habit going?") == .habits(name: nil))
    #expect(Self.view("What's my streak for run?") == .habits(name: "Run"))
  }

  @Test("questions that are not about the user's data, or ask advice, get no view")
  func noView() {
    #expect(Self.view("What is the capital of Spain?") == nil)
    #expect(Self.view("How do I plan my week better?") == nil)
    #expect(Self.view("Write a haiku about Saturday mornings") == nil)
    #expect(Self.view("שלום, מה שלומך?") == nil)
  }

  @Test("the view is written as a block the action parser reads")
  func blocksParse() throws {
    for request in ["What's overdue?", "Which company is Priya with?", "Give me an overview of my week"] {
      let question = try #require(DataQuestion(request, today: Self.thursday, names: Self.names))
      #expect(ActionBlockParser.parse(question.block).blocks.count == 1, "\(question.block)")
    }
  }
}

extension DataQuestionTests {
  @Test("a question about a thing in general is not one about the user's own")
  func generalQuestionsAboutDataWords() {
    #expect(Self.view("What is a calendar year?") == nil)
    #expect(Self.view("Explain what an appointment reminder is") == nil)
    #expect(Self.view("What are reminders for?") == nil)
    #expect(
      Self.view("What's on the calendar for Friday?")
        == .calendar(from: Self.thursday.adding(days: 1), to: Self.thursday.adding(days: 1)))
  }
}

@Suite("A note's title and text given in one sentence")
struct NamedNoteTests {
  static func note(_ request: String) -> (title: String, body: String?)? {
    RequestHints(request, today: DataQuestionTests.thursday).namedNote
  }

  @Test("called … saying …, a colon after the title, and a title with “with” in it")
  func titlesAndTexts() throws {
    let packing = try #require(Self.note("Create a note called Packing list saying passport, charger and adapter"))
    #expect(packing.title == "Packing list" && packing.body == "Passport, charger and adapter")
    let gifts = try #require(Self.note("New note, gift ideas: a scarf for mum"))
    #expect(gifts.title == "Gift ideas" && gifts.body == "A scarf for mum")
    let dinner = try #require(Self.note("Make a note titled Dinner with Marco saying bring wine"))
    #expect(dinner.title == "Dinner with Marco" && dinner.body == "Bring wine")
  }

  @Test("a note that names no title of its own has none here")
  func noTitle() {
    #expect(Self.note("Note that the gate code is 4512") == nil)
    #expect(Self.note("Add to my notes: milk") == nil)
  }
}
