import HearthActions
import HearthCore
import HearthEngine
import Testing

/// A line of a diary ("boiler service next Tuesday at 11") is an event to add; a request that only names a day
/// and a time is not.
@Suite("Lines of a diary, told from other requests with a day and a time")
struct DiaryLineTests {
  static let thursday = LocalDate(year: 2026, month: 11, day: 26)!

  static func reads(_ request: String) -> Bool {
    ActionDrafter.readsAsADiaryLine(request, hints: RequestHints(request, today: thursday))
  }

  @Test(arguments: [
    "boiler service next tuesday at 11 for 2 hours please", "Coffee with Anna next Thursday at 10:30am",
    "piano lesson next wednesday at 4pm",
  ])
  func aDiaryLineIsAnEvent(request: String) { #expect(Self.reads(request)) }

  @Test(arguments: [
    "tomorrow at 9 works for me", "Write a poem for Anna's party on Saturday at 8",
    "Help me prepare for my interview tomorrow at 9", "I ran 5k on monday at 7", "Count from 1 to 20.",
    "is the dentist on friday at 10?", "dont let me forget the dry cleaning tonight at 6",
    "saturday at 8 sounds good",
  ])
  func otherRequestsAreNot(request: String) { #expect(!Self.reads(request)) }
}
