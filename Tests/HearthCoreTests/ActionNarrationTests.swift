import Foundation
import HearthCore
import Testing

@Suite("Answers as people read them: blocks become what happened")
struct ActionNarrationTests {
  static let create = #"[REMINDER_ACTION:{"action":"create","title":"Buy stamps"}]"#
  static let delete = #"[CALENDAR_ACTION:{"action":"delete","title":"Dentist"}]"#

  static func record(_ block: String, _ state: ActionRecord.State, _ summary: String) -> ActionRecord {
    ActionRecord(kind: "REMINDER_ACTION", block: block, state: state, summary: summary)
  }

  @Test func eachBlockBecomesItsRecordInWords() {
    let text = "Sure. \(Self.create) And I can remove the dentist: \(Self.delete) Anything else?"
    let narrated = ActionNarration.narrate(
      text,
      records: [
        Self.record(Self.delete, .pending, "Delete “Dentist” on Fri 2026-11-27 15:00"),
        Self.record(Self.create, .created, "Reminder “Buy stamps”"),
      ])
    #expect(
      narrated
        == "Sure. (Done: Reminder “Buy stamps”) And I can remove the dentist: "
        + "(Waiting for your confirmation: Delete “Dentist” on Fri 2026-11-27 15:00) Anything else?")
    #expect(!narrated.contains("_ACTION"))
  }

  @Test func anAnswerThatWasOnlyItsBlocksIsOnlyWhatHappened() {
    let drafted = "Here is what I will do:\n\(Self.create)"
    #expect(
      ActionNarration.narrate(drafted, records: [Self.record(Self.create, .undone, "Reminder “Buy stamps”")])
        == "Undone: Reminder “Buy stamps”")
  }

  @Test func aChangeThatRanIsToldAsDoneNotAsItsProposal() {
    let delete = "Delete “Dentist” (Fri 2026-11-27 15:00–16:00)"
    #expect(Self.record(Self.delete, .deleted, delete).narration == "Deleted “Dentist” (Fri 2026-11-27 15:00–16:00)")
    #expect(
      Self.record(Self.delete, .restored, delete).narration == "Undone: Deleted “Dentist” (Fri 2026-11-27 15:00–16:00)")
    #expect(Self.record(Self.delete, .updated, "Mark “Pay rent” done").narration == "Marked “Pay rent” done")
    #expect(Self.record(Self.delete, .cancelled, delete).narration == "Cancelled: \(delete)")
  }

  @Test func aCardsLineTellsWhatHappenedWithItsVerb() {
    #expect(Self.record(Self.create, .created, "Note “Shopping”").cardLine == "Added note “Shopping”")
    #expect(
      Self.record(Self.create, .undone, "Reminder “Buy stamps”, due 2026-12-04").cardLine
        == "Added reminder “Buy stamps”, due 2026-12-04")
    #expect(
      Self.record(Self.create, .created, "Added “Dentist” on Fri 2026-12-04").cardLine
        == "Added “Dentist” on Fri 2026-12-04")
    let move = "Move “Dentist” from Fri 2026-12-04 10:00–11:00 to Fri 2026-12-04 14:00–15:00"
    #expect(Self.record(Self.delete, .updated, move).cardLine.hasPrefix("Moved “Dentist” from"))
    #expect(Self.record(Self.delete, .pending, move).cardLine == move)
    #expect(Self.record(Self.delete, .cancelled, move).cardLine == move)
  }

  @Test func blocksNoRecordTellsOfAndMalformedOnesAreLeftOut() {
    let text = "Noted. \(Self.create) [NOTE_ACTION:{\"action\":\"create\",\"title\":"
    #expect(ActionNarration.narrate(text, records: []) == "Noted.")
    #expect(ActionNarration.narrate("No blocks here (really).", records: []) == "No blocks here (really).")
  }
}
