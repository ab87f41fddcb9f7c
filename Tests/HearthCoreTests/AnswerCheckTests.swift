import HearthCore
import Testing

@Suite("The answer check: nothing said about the user's data that the records read do not hold")
struct AnswerCheckTests {
  static let thursday = LocalDate(year: 2026, month: 11, day: 26)!

  static func check(
    request: String, records: [String], names: [String] = [], actionRan: Bool = false, aboutData: Bool = true
  ) -> AnswerCheck {
    AnswerCheck(
      .init(
        request: request, records: records, itemNames: names, actionRan: actionRan, requestIsAboutData: aboutData,
        today: thursday))
  }

  @Test("the same date written four ways is one date; 2pm and 14:00 are one time")
  func claimsAreReadInOneForm() {
    let reader = ClaimReader(today: Self.thursday)
    let dates = reader.facts(in: "On 2026-11-30, on 30 November, on Nov 30th and on November 30, 2026.")
      .filter { $0.kind == .date }.map(\.value)
    #expect(dates == ["2026-11-30", "2026-11-30", "2026-11-30", "2026-11-30"])
    let times = reader.facts(in: "at 2pm, at 2:30 p.m., at 14:00 and at 9h15").filter { $0.kind == .time }.map(\.value)
    #expect(Set(times) == ["14:00", "14:30", "09:15"])
    // A day of January said in November is next year's.
    #expect(reader.dates(in: "on 4 January") == ["2027-01-04"])
    let contact = reader.facts(in: "Call +44 7700 900123 or mail priya@example.org")
    #expect(contact.map(\.kind) == [.email, .phone])
  }

  @Test("an organisation the contact's record does not hold is caught; the one it holds passes")
  func anInventedOrganisationIsCaught() {
    let check = Self.check(
      request: "Where does Priya work?",
      records: ["- Priya Shah, cell +44 7700 900123, organisation Northwind Labs"], names: ["Priya Shah", "Priya"])
    #expect(check.findings(in: "Priya works at Northwind Labs.").isEmpty)
    let invented = check.findings(in: "Priya works at Globex Corporation, a company devoted to clean energy.")
    #expect(invented.map(\.kind) == [.name, .detail])
    #expect(invented.first?.written == "Globex Corporation")
  }

  @Test("a question that opens with a verb before “I” names no one; a name after it still counts")
  func aVerbBeforeIIsNoName() {
    let check = Self.check(request: "dentist friday at 10", records: ["- Dentist, Friday 10:00"], names: ["Dentist"])
    #expect(check.findings(in: "Should I add it to your calendar? Could I show it? Say which.").isEmpty)
    #expect(check.findings(in: "Should I invite Globex?").map(\.written) == ["Globex"])
  }

  @Test("“you've just added a reminder” when nothing ran is caught")
  func aClaimOfAnActionThatDidNotRunIsCaught() {
    let records = ["Reminders due by tomorrow:\n- Pay the electricity bill (2026-11-23)"]
    let check = Self.check(request: "anything overdue?", records: records, names: ["Pay the electricity bill"])
    #expect(check.findings(in: "You've just added a new reminder.").map(\.kind) == [.action])
    #expect(check.findings(in: "I have added it to your list.").map(\.kind) == [.action])
    let ran = Self.check(request: "anything overdue?", records: records, actionRan: true)
    #expect(ran.findings(in: "I've added it to your list.").isEmpty)
    #expect(check.findings(in: "Pay the electricity bill was due on 2026-11-23.").isEmpty)
  }

  @Test("a week whose every day has the same date is caught")
  func aWeekOfOneDateIsCaught() {
    let records = ["The user's next events:\n- 2026-11-27 12:30 Lunch with Priya\n- 2026-11-30 09:00 Team meeting"]
    let check = Self.check(request: "give me an overview of my week", records: records)
    let week = "Monday, 2026-11-27: Team meeting\nTuesday, 2026-11-27: nothing\nFriday, 2026-11-27: Lunch with Priya"
    let findings = check.findings(in: week)
    #expect(findings.filter { $0.kind == .weekday }.count == 2)
    #expect(check.findings(in: "Friday 2026-11-27: Lunch with Priya at 12:30").isEmpty)
  }

  @Test("a weekday beside a date of another weekday is caught in an answer about anything")
  func aWrongWeekdayIsCaughtWhateverTheSubject() {
    let check = Self.check(request: "whats first thing monday", records: [], aboutData: false)
    #expect(check.findings(in: "Today is Monday 2026-11-26.").map(\.kind) == [.weekday])
    #expect(check.findings(in: "Today is Thursday 2026-11-26.").isEmpty)
    // Without a weekday beside a date, a sentence about nothing of the user's states nothing of theirs.
    #expect(check.findings(in: "Paris is the capital of France, founded in 250 BC.").isEmpty)
    // A date without its year, in a sentence about something else, is no claim about this year.
    #expect(check.findings(in: "Apollo 11 landed on Sunday, July 20, 1969.").isEmpty)
  }

  @Test("a date or time beside an event's name must be that event's")
  func aWrongTimeBesideAnEventIsCaught() {
    let records = [
      "The user's next events:\n- 2026-12-01 10:00 Dentist\n- 2026-11-30 09:00 Team meeting"
    ]
    let check = Self.check(request: "push the dentist to 2pm", records: records, names: ["Dentist", "Team meeting"])
    #expect(check.findings(in: "Your dentist is on 2026-12-01 at 10:00.").isEmpty)
    // Both the date and the time are in the records, but not the dentist's.
    #expect(check.findings(in: "Your Dentist is on 2026-11-30 at 09:00.").map(\.kind) == [.date, .time])
    // The time the request asked for may be repeated.
    #expect(check.findings(in: "The dentist on 2026-12-01 moves to 14:00.").isEmpty)
  }

  @Test("a description of one of the user's items that its record does not hold is caught")
  func anInventedDescriptionIsCaught() {
    let records = [
      "- Fri 2026-11-27 12:30–13:30: Lunch with Priya at Cafe Nero", "- Priya Shah, organisation Northwind Labs",
    ]
    let check = Self.check(
      request: "Tell me about Priya", records: records, names: ["Priya Shah", "Priya", "Lunch with Priya"],
      aboutData: false)
    #expect(
      check.findings(in: "Priya Shah is a talented and dedicated yoga instructor.").map(\.kind) == [.detail])
    #expect(check.findings(in: "Your lunch with Priya is on 2026-11-27 at 12:30 at Cafe Nero, enjoy it!").isEmpty)
    #expect(check.findings(in: "Priya works at Northwind Labs.").isEmpty)
  }

  @Test("a phone number or e-mail address that no record holds is caught; spacing does not matter")
  func contactDetailsMustBeInTheRecords() {
    let records = ["- Anna Martin, cell +33 6 12 34 56 78"]
    let check = Self.check(request: "Anna's number?", records: records, names: ["Anna Martin", "Anna"])
    #expect(check.findings(in: "Anna's number is +33612345678.").isEmpty)
    #expect(check.findings(in: "Anna's number is +33 6 99 88 77 66.").map(\.kind) == [.phone])
    #expect(check.findings(in: "Write to anna.martin@example.com.").map(\.kind) == [.email])
  }

  @Test("a general answer is not read as a statement about the user's data")
  func generalAnswersPass() {
    let check = Self.check(request: "What is the capital of Spain?", records: [], aboutData: false)
    #expect(check.findings(in: "The capital of Spain is Madrid, home to about 3.3 million people.").isEmpty)
    #expect(check.findings(in: "Paris has been the capital of France since 987.").isEmpty)
    // … unless it speaks of the user's things.
    #expect(!check.findings(in: "Your meeting with Globex is on 2026-12-24.").isEmpty)
  }

  @Test("a sentence citing the memory states only what its passages hold")
  func citedSentencesAreChecked() {
    let check = Self.check(
      request: "How much was the boiler service?", records: ["[1] Boiler: the service cost 120 euros in May."],
      aboutData: false)
    #expect(check.findings(in: "The service cost 120 euros [1].").isEmpty)
    #expect(check.findings(in: "The service cost 180 euros [1].").map(\.kind) == [.number])
  }

  @Test("the remains of a block are found in text meant for the user")
  func blockRemainsAreFound() {
    #expect(AnswerCheck.holdsBlockRemains(#"(CALENDAR_ACTION:{"action":"create","title":"Capital of Spain"}]"#))
    #expect(AnswerCheck.holdsBlockRemains(#"CONTACTS_SEARCH {"query": "שלום"}"#))
    #expect(AnswerCheck.holdsBlockRemains(#"{ "action": "create" }"#))
    #expect(!AnswerCheck.holdsBlockRemains("The capital of Spain is Madrid."))
  }
}

@Suite("The answer check on what the user told about their own life")
struct AnswerCheckLifeTests {
  @Test("a name for the user's family no record holds is caught; the one a fact holds stands")
  func family() {
    func findings(_ answer: String, records: [String]) -> [AnswerClaim] {
      AnswerCheck(
        AnswerCheck.Grounds(
          request: "Who is my sister?", records: records, itemNames: [], actionRan: false, requestIsAboutData: false,
          today: LocalDate(year: 2026, month: 12, day: 3)!)
      ).findings(in: answer)
    }
    #expect(findings("Your sister is called Maria.", records: []).map(\.value) == ["maria"])
    #expect(findings("Your sister is called Maria.", records: ["My sister is called Maria."]).isEmpty)
    #expect(findings("Sisters can be great friends to have.", records: []).isEmpty)
    #expect(findings("Your mum might like a Kindle.", records: []).isEmpty)
  }
}
