import HearthCore
import Testing

@testable import HearthActions

@Suite("Readings widened on the fifth development set, in words of their own")
struct FifthSetReadingTests {
  @Test func aReminderAskedForWithoutTheWordIsOne() {
    #expect(RequestShorthand.expanded("dont let me forget to call the bank") == "remind me to call the bank")
    #expect(RequestShorthand.expanded("Don't let me forget about the parcel") == "remind me about the parcel")
    #expect(RequestShorthand.expanded("make sure I remember to water the plants") == "remind me to water the plants")
    // "w" is "with"; a capital W may be an initial.
    #expect(RequestShorthand.expanded("drinks w sam") == "drinks with sam")
    #expect(RequestShorthand.expanded("call W Smith") == "call W Smith")
    #expect(RequestShorthand.expanded("dinner at 123 w 42nd st") == "dinner at 123 w 42nd st")
    #expect(RequestShorthand.expanded("Don’t let me forget to pay Sam") == "remind me to pay Sam")
  }

  @Test func timeWithSomeoneIsAskedOfTheCalendar() {
    let contacts = ["Anna Martin", "Marco Rossi"]
    #expect(ItemQuestion.companion(in: "anything planned with marco?", contacts: contacts) == "Marco")
    #expect(ItemQuestion.companion(in: "any plans with Anna next week", contacts: contacts) == "Anna")
    #expect(ItemQuestion.companion(in: "when am I seeing anna", contacts: contacts) == nil)
    #expect(ItemQuestion.companion(in: "book lunch with anna next week", contacts: contacts) == nil)
    #expect(ItemQuestion.companion(in: "what's anna's number?", contacts: contacts) == nil)
  }

  @Test func aPlaceRestatedBeforeARequestOrBesideTheOldOneIsRead() {
    #expect(
      RequestHints.restatedPlace(in: "the review is at the Old Mill now, could you update it?") == "The Old Mill")
    #expect(RequestHints.restatedPlace(in: "we're meeting at the library instead of the cafe") == "The library")
    #expect(RequestHints.restatedPlace(in: "we're meeting tomorrow") == nil)
    #expect(RequestHints.restatedPlace(in: "I'm meeting in person, not on Zoom") == nil)
  }
}
