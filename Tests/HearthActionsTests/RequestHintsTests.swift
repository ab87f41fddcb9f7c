import HearthActions
import HearthCore
import Testing

@Suite struct RequestHintsTests {
  let monday = LocalDate(year: 2026, month: 11, day: 23)!

  func hints(_ text: String) -> RequestHints { RequestHints(text, today: monday) }

  @Test func datesAndTimesAreReadFromTheWords() {
    #expect(
      hints("Add a meeting with Sam tomorrow at 10 for an hour").dateTimes.map(\.shortDescription) == [
        "2026-11-24T10:00"
      ])
    #expect(hints("Add a meeting with Sam tomorrow at 10 for an hour").minutes == 60)
    #expect(hints("Schedule the dentist on Friday at 3pm").dateTimes.map(\.shortDescription) == ["2026-11-27T15:00"])
    #expect(
      hints("Plan a review tomorrow from 15:00 to 16:30").dateTimes.map(\.shortDescription)
        == ["2026-11-24T15:00", "2026-11-24T16:30"])
    #expect(hints("Gym on Monday at 8 in the morning").dateTimes.map(\.shortDescription) == ["2026-11-30T08:00"])
    #expect(hints("Find me 30 free minutes on Thursday").minutes == 30)
    #expect(hints("Half an hour on 2026-12-01 at 12:15").minutes == 30)
    #expect(hints("Half an hour on 2026-12-01 at 12:15").dateTimes.map(\.shortDescription) == ["2026-12-01T12:15"])
    // A bare number is not a time: "call 3 people".
    #expect(hints("Call 3 people tomorrow").dateTimes.isEmpty)
  }

  @Test func kindsAndActionsNeedTheirWords() {
    #expect(hints("Remind me to call mum").kind == .reminder)
    #expect(hints("Move the meeting to Friday at 3").action == "update")
    #expect(hints("When am I free for an hour?").action == "free")
    #expect(hints("What is Anna's phone number?").kind == .contactsSearch)
    // Everyday words alone do not make an action.
    #expect(hints("Count from 1 to 300, one number per line.").kind == nil)
    #expect(hints("Add 2 and 3 for me").kind == nil)
    #expect(hints("What should I cook for lunch?").kind == nil)
    #expect(hints("What is the capital of France?").kind == nil)
  }

  @Test func theCalendarNamedAndANewTimeStatedDecideTheKindAndAction() {
    #expect(hints("what date is mum's birthday on my calendar").kind == .calendar)
    #expect(hints("what date is mum's birthday").kind == .contactsSearch)
    #expect(hints("the dinner with marco on saturday is now at 8pm").action == "update")
    #expect(hints("the team meeting has moved to 3pm on Friday").action == "update")
  }

  @Test func aWeekdayWithItsDayOfTheMonthIsOneDay() {
    // Wednesday 25 November 2026: Friday the 4th is 4 December, a Friday.
    let wednesday = LocalDate(year: 2026, month: 11, day: 25)!
    let move = RequestHints("move my dentist appointment to friday the 4th at 2:30pm", today: wednesday)
    #expect(move.dateTimes.map(\.shortDescription) == ["2026-12-04T14:30"])
    #expect(
      RequestHints("lunch on Friday 4th of December", today: wednesday).dates == [
        LocalDate(year: 2026, month: 12, day: 4)!
      ])
    // The day of the month that falls on that weekday, however far: Monday the 1st is 1 February 2027.
    #expect(
      RequestHints("call on monday the 1st", today: wednesday).dates == [LocalDate(year: 2027, month: 2, day: 1)!])
  }

  @Test func titlesLeaveOutWhereTheyGoAndHowUrgentTheyAre() {
    let party = hints("put the office christmas party in my calendar, 12th december 7:30pm at the town hall")
    #expect(party.title == "Office christmas party at the town hall")
    #expect(RequestHints.placeOut(of: party.title ?? "") == ("Office christmas party", "The town hall"))
    #expect(RequestHints.placeOut(of: "Drinks with tom at the crown") == ("Drinks with tom", "The crown"))
    // A number after "at" is a time, not a place; nothing before "at" is no title.
    #expect(RequestHints.placeOut(of: "Call at 5 pm").place == nil)
    #expect(RequestHints.placeOut(of: "At home").place == nil)
    #expect(hints("set a high priority reminder to send the invoice by monday").title == "Send the invoice")
    #expect(hints("add milk to my list").title == "Milk")
  }

  @Test func aNoteTitledInQuotesKeepsItsTextApart() {
    let note = hints("new note 'Book ideas' - The Overstory, Piranesi").namedNote
    #expect(note?.title == "Book ideas")
    #expect(note?.body == "The Overstory, Piranesi")
    #expect(hints("make a note “Trip”: passport and charger").namedNote?.body == "Passport and charger")
  }

  @Test func theWidenedReadersLeaveOrdinaryRequestsAlone() {
    // Not places: a meal, a company, a time.
    #expect(RequestHints.placeOut(of: "Meet Sarah at lunch").place == nil)
    #expect(RequestHints.placeOut(of: "Look at flats with Sam").place == nil)
    // Urgency words only as a whole phrase: "the high chair" keeps its word.
    #expect(hints("remind me to buy the high chair").title == "Buy the high chair")
    // An apostrophe inside the quoted title is no closing quote.
    #expect(hints("new note 'Mum's ideas' - perfume").namedNote?.title == "Mum's ideas")
    // A spelled ordinal without "the" is no day of the month: "Monday first thing" is next Monday.
    #expect(hints("call the bank monday first thing").dates == [LocalDate(year: 2026, month: 11, day: 30)!])
  }
}

@Suite("A list named in a request")
struct NamedListTests {
  @Test func theWordBeforeListNamesIt() {
    #expect(RequestHints.namedList(in: "what's in my Home list") == "Home")
    #expect(RequestHints.namedList(in: "add descaling the kettle to my Home list") == "Home")
    #expect(RequestHints.namedList(in: "put eggs on the shopping list") == "Shopping")
    #expect(RequestHints.namedList(in: "what's on my to-do list") == nil)
    #expect(RequestHints.namedList(in: "show me the list") == nil)
  }
}

@Suite("A new place stated for an event")
struct RestatedPlaceTests {
  @Test func theNewPlaceIsReadWithoutTheOldOne() {
    #expect(RequestHints.restatedPlace(in: "lunch with priya is at pret now not cafe nero") == "Pret")
    #expect(
      RequestHints.restatedPlace(in: "the dentist appointment has moved to the Riverside clinic")
        == "The Riverside clinic")
    #expect(RequestHints.restatedPlace(in: "dinner is now at The Crown, not the Swan.") == "The Crown")
    #expect(RequestHints.restatedPlace(in: "the meeting has moved to 3pm") == nil)
  }
}

@Suite("Everyday words that only look like a change stay what they are")
struct LookAlikeChangeTests {
  @Test(arguments: [
    (" remind me to take out the trash ", ActionKind.reminder, "create"),
    (" remind me to drop the kids at school ", .reminder, "create"),
    (" note: bin day is thursday ", .note, "create"),
    (" make a note to replace the smoke alarm battery with a 9v ", .note, "create"),
    (" note: put the recycling on the kerb tuesdays ", .note, "create"),
    (" team offsite friday 9am, finishes at 5pm ", .calendar, "create"),
    (" scrap dinner with marco ", .calendar, "delete"),
    (" please get rid of my shopping note ", .note, "delete"),
    (" stick oat milk on my shopping note ", .note, "append"),
    (" replace what's in my wifi note with: maple77 ", .note, "update"),
    (" make dinner end at 10.30pm ", .calendar, "update"),
  ])
  func isReadAs(text: String, kind: ActionKind, action: String) {
    #expect(RequestHints.action(text, kind: kind) == action, "\(text)")
  }

  @Test func aTimeIsNoPlaceAndALittleWordNoList() {
    #expect(RequestHints.restatedPlace(in: "dinner with marco got moved to later") == nil)
    #expect(RequestHints.restatedPlace(in: "the team meeting has moved to the afternoon") == nil)
    #expect(RequestHints.restatedPlace(in: "yoga has moved to next week") == nil)
    #expect(RequestHints.namedList(in: "what's on my list?") == nil)
    #expect(RequestHints.namedList(in: "anything on the list") == nil)
    #expect(RequestHints.namedList(in: "anything on my Home list") == "Home")
  }

  @Test func aPriceIsNoTime() {
    let today = LocalDate(year: 2026, month: 11, day: 26)!
    #expect(RequestHints("remind me to pay Sam 12.50 tomorrow", today: today).dateTimes.isEmpty)
    #expect(
      RequestHints("move lunch to 1.15", today: today).time.clocks.map { "\($0.hour):\($0.minute)" } == ["13:15"])
  }
}
