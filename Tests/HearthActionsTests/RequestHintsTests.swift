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
}
