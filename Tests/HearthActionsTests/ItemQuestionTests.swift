import HearthActions
import HearthCore
import Testing

@Suite("Questions that name one of the user's things")
struct ItemQuestionTests {
  @Test(arguments: [
    "where's the dentist appointment again", "how urgent is the electricity bill reminder", "whats the wifi password",
    "remind me where i met anna", "Is my dentist appointment at 10?", "did I pay the electricity bill?",
    "any idea when my flight to lisbon is", "so which list is call the plumber on",
  ])
  func questionsAskToBeTold(request: String) {
    #expect(ItemQuestion.isQuestion(request))
  }

  @Test(arguments: [
    "add lunch with ben tomorrow at 1", "what about lunch at 1 tomorrow", "when you get a minute, add milk to my list",
    "did my reading for today", "had my run this morning", "How do I run a good meeting?",
    "What should I cook for lunch?", "why is the sky blue", "remind me to call the plumber",
    "can you move the haircut to 4pm?",
    "is it possible to add lunch with priya on friday at 1?", "is there a way to move the dentist to friday",
  ])
  func requestsAdviceAndCheckInsAreNotQuestionsAboutAThing(request: String) {
    #expect(!ItemQuestion.isQuestion(request))
  }

  @Test func remindMeWithAQuestionWordAsksToBeToldNow() {
    #expect(ItemQuestion.asksToBeTold("remind me where I met Anna"))
    #expect(ItemQuestion.asksToBeTold("Remind me what the team meeting is about"))
    #expect(!ItemQuestion.asksToBeTold("remind me to ring mum on sunday"))
  }

  static func items(_ kind: ActionKind) -> [KnownItem] {
    switch kind {
    case .calendar:
      [
        KnownItem(
          "Dentist", details: ["Smile Clinic"],
          next: LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 1)!, hour: 10, minute: 0)),
        KnownItem(
          "Haircut", next: LocalDateTime(date: LocalDate(year: 2026, month: 11, day: 26)!, hour: 15, minute: 0)),
        KnownItem(
          "Flight to Lisbon", next: LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 9)!, hour: 7, minute: 15)),
      ]
    case .reminder: [KnownItem("Pay the electricity bill"), KnownItem("Renew passport")]
    case .note:
      [
        KnownItem("Wifi", details: ["Network Hearthside, password tulip42"]),
        KnownItem("Lisbon trip", details: ["Hotel in Alfama"]),
      ]
    case .contactsSearch:
      [
        KnownItem("Anna Martin", details: ["Atelier Lumen", "Met at the pottery course in Lyon"]),
        KnownItem("Priya Shah", details: ["Northwind Labs"]), KnownItem("Tom Ng", details: ["Northwind Labs"]),
      ]
    default: []
    }
  }

  /// The same block: kind and fields alike, whatever order the fields are written in.
  static func same(_ drafted: String?, _ expected: String) -> Bool {
    guard let drafted, let found = ActionBlockParser.parse(drafted).blocks.first,
      let wanted = ActionBlockParser.parse(expected).blocks.first
    else { return false }
    return found.kind == wanted.kind && found.payload == wanted.payload
  }

  @Test func theThingNamedIsLookedUpWhateverFieldIsAskedAbout() {
    #expect(
      Self.same(
        ItemQuestion.lookUp("where's the dentist appointment again", items: Self.items),
        #"[CALENDAR_ACTION:{"action":"query","from":"2026-12-01","to":"2026-12-01","text":"Dentist"}]"#))
    // "hair cut" names "Haircut".
    #expect(
      Self.same(
        ItemQuestion.lookUp("how long is the hair cut, when does it finish?", items: Self.items),
        #"[CALENDAR_ACTION:{"action":"query","from":"2026-11-26","to":"2026-11-26","text":"Haircut"}]"#))
    #expect(
      Self.same(
        ItemQuestion.lookUp("when do I have to renew my passport by", items: Self.items),
        #"[REMINDER_ACTION:{"action":"list"}]"#))
    #expect(
      Self.same(
        ItemQuestion.lookUp("whats the wifi password", items: Self.items),
        #"[NOTE_ACTION:{"action":"search","query":"Wifi"}]"#))
    #expect(
      Self.same(
        ItemQuestion.lookUp("remind me where i met anna", items: Self.items),
        #"[CONTACTS_SEARCH:{"query":"Anna Martin"}]"#))
    // Two people at one company: the company is looked up.
    #expect(
      Self.same(
        ItemQuestion.lookUp("who do i know at northwind labs", items: Self.items),
        #"[CONTACTS_SEARCH:{"query":"northwind labs"}]"#))
  }

  @Test func aQuestionThatNamesNothingOrTwoThingsAlikeIsNoLookUpOfAThing() {
    #expect(ItemQuestion.lookUp("what's the capital of france", items: Self.items) == nil)
    #expect(ItemQuestion.lookUp("whats on tomorrow", items: Self.items) == nil)
    // "Lisbon" is the flight's and the trip note's alike.
    #expect(ItemQuestion.lookUp("what about lisbon", items: Self.items) == nil)
  }
}
