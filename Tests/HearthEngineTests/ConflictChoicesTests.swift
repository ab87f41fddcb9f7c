import Foundation
import HearthCore
import HearthEngine
import HearthStore
import HearthTestSupport
import Testing

/// The seeds' conflict card: an event added or moved onto another offers Keep, Cancel and Reschedule, with free
/// times from the week ahead (busy times merged, working hours, at most 4 h, 2 h for an all-day event).
@Suite("Conflict cards: the overlaps, the free times, and moving there")
struct ConflictChoicesTests {
  /// Monday 7 December 2026, 08:00 UTC: the week's working hours are all ahead.
  static let monday = LocalDateTime(parsing: "2026-12-07T08:00")!.instant(in: TimeZone(identifier: "UTC")!)

  private func engine() async throws -> Engine {
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: ["TZ": "UTC"])
    configuration.timeZone = TimeZone(identifier: "UTC")!
    configuration.clock = { Self.monday }
    return try await Engine.open(configuration)
  }

  private func event(_ engine: Engine, _ title: String, _ start: String, _ end: String) throws {
    _ = try engine.calendar.create(
      CalendarEvent(title: title, start: LocalDateTime(parsing: start)!, end: LocalDateTime(parsing: end)!))
  }

  @Test func anAddedEventThatOverlapsOffersFreeTimesAndMovesToOneItsCardStillUndoing() async throws {
    let engine = try await engine()
    // Monday is busy from 09:00 to 13:00 (two touching meetings merge) and from 14:00 to 17:00.
    try event(engine, "Standup", "2026-12-07T09:00", "2026-12-07T11:00")
    try event(engine, "Planning", "2026-12-07T11:00", "2026-12-07T13:00")
    try event(engine, "Workshop", "2026-12-07T14:00", "2026-12-07T17:00")
    let added = try await engine.actions.process(
      answer:
        #"[CALENDAR_ACTION:{"action":"create","title":"Dentist","start":"2026-12-07T10:30","end":"2026-12-07T11:30"}]"#
    )[0]
    #expect(added.state == .created)
    let choices = try #require(engine.conflictChoices(for: added))
    #expect(
      choices.overlaps.map(\.title) == ["Planning", "Standup"]
        || choices.overlaps.map(\.title) == ["Standup", "Planning"])
    // The one free hour on Monday (13:00), then the first hour of each free working day to Friday: the
    // weekend has no working hours.
    #expect(choices.slots.count == 5)
    #expect(choices.slots.first?.start == LocalDateTime(parsing: "2026-12-07T13:00"))
    #expect(choices.slots.first?.end == LocalDateTime(parsing: "2026-12-07T14:00"))
    #expect(choices.slots.dropFirst().first?.start == LocalDateTime(parsing: "2026-12-08T09:00"))
    #expect(choices.slots.allSatisfy { $0.end.secondsSinceEpoch - $0.start.secondsSinceEpoch == 3600 })

    // A time the card does not offer is refused by name; an offered one moves the event.
    await #expect(throws: RescheduleError.self) {
      _ = try await engine.rescheduleAction(added.id, to: LocalDateTime(parsing: "2026-12-07T09:30")!)
    }
    let moved = try await engine.rescheduleAction(added.id, to: choices.slots[0].start)
    #expect(moved.state == .created)
    #expect(moved.summary.contains("13:00"))
    let stored = try #require(try engine.calendar.events().first { $0.title == "Dentist" })
    #expect(stored.start == LocalDateTime(parsing: "2026-12-07T13:00"))
    // It overlaps nothing now: no card offers to move it again.
    #expect(engine.conflictChoices(for: moved) == nil)
    await #expect(throws: RescheduleError.overlapsNothing(added.id)) {
      _ = try await engine.rescheduleAction(added.id, to: choices.slots[1].start)
    }
    // Cancel is the card's Undo: the event goes.
    _ = try await engine.undoAction(added.id)
    #expect(try engine.calendar.events().allSatisfy { $0.title != "Dentist" })
  }

  @Test func aMoveThatWouldOverlapWaitsAndRunsAtTheFreeTimeChosen() async throws {
    let engine = try await engine()
    try event(engine, "Review", "2026-12-08T09:00", "2026-12-08T15:00")
    try event(engine, "Call with Sam", "2026-12-09T10:00", "2026-12-09T10:30")
    let move = try await engine.actions.process(
      answer: #"[CALENDAR_ACTION:{"action":"update","title":"call with sam","newStart":"2026-12-08T10:00"}]"#)[0]
    #expect(move.state == .pending)
    let choices = try #require(engine.conflictChoices(for: move))
    #expect(choices.overlaps.map(\.title) == ["Review"])
    // Half an hour, the day of the move from 15:00 (the call's own time left out of the busy ones).
    #expect(choices.slots.first?.start == LocalDateTime(parsing: "2026-12-08T15:00"))
    #expect(choices.slots.first?.end == LocalDateTime(parsing: "2026-12-08T15:30"))
    let moved = try await engine.rescheduleAction(move.id, to: choices.slots[0].start)
    #expect(moved.state == .updated)
    let call = try #require(try engine.calendar.events().first { $0.title == "Call with Sam" })
    #expect(call.start == LocalDateTime(parsing: "2026-12-08T15:00"))
    // Undo puts it back where it was before the move.
    _ = try await engine.undoAction(move.id)
    let back = try #require(try engine.calendar.events().first { $0.title == "Call with Sam" })
    #expect(back.start == LocalDateTime(parsing: "2026-12-09T10:00"))
  }

  @Test func aLongOrAllDayEventIsOfferedShorterTimes() async throws {
    let engine = try await engine()
    try event(engine, "Offsite", "2026-12-07T09:00", "2026-12-07T17:00")
    let calendar = engine.calendar
    let long = CalendarEvent(
      title: "Long read", start: LocalDateTime(parsing: "2026-12-07T09:00")!,
      end: LocalDateTime(parsing: "2026-12-07T16:00")!)
    let offered = try #require(try calendar.conflictChoices(for: long, now: Self.monday))
    #expect(offered.slots.allSatisfy { $0.end.secondsSinceEpoch - $0.start.secondsSinceEpoch == 4 * 3600 })
    var allDay = CalendarEvent(
      title: "Moving day", start: LocalDateTime(parsing: "2026-12-07T00:00")!,
      end: LocalDateTime(parsing: "2026-12-08T00:00")!)
    allDay.isAllDay = true
    allDay.isBusy = true
    let choices = try #require(try calendar.conflictChoices(for: allDay, now: Self.monday))
    #expect(choices.overlaps.map(\.allDay) == [false])
    #expect(choices.slots.allSatisfy { $0.end.secondsSinceEpoch - $0.start.secondsSinceEpoch == 2 * 3600 })
    #expect(choices.slots.first?.start == LocalDateTime(parsing: "2026-12-08T09:00"))
    // Over already: nothing to offer, though it overlaps.
    try event(engine, "Sunday brunch", "2026-12-06T09:00", "2026-12-06T11:00")
    let past = CalendarEvent(
      title: "Yesterday", start: LocalDateTime(parsing: "2026-12-06T09:00")!,
      end: LocalDateTime(parsing: "2026-12-06T10:00")!)
    #expect(try calendar.conflicts(of: past).count == 1)
    #expect(try calendar.conflictChoices(for: past, now: Self.monday) == nil)
  }

  @Test func aRenameOffersNothingAMovedRenameKeepsItsNameAndAStartFreeSinceIsTaken() async throws {
    let engine = try await engine()
    try event(engine, "Review", "2026-12-08T09:00", "2026-12-08T12:00")
    try event(engine, "Call with Sam", "2026-12-08T10:00", "2026-12-08T10:30")
    // A rename moves nothing onto anything: a plain confirmation, no conflict card.
    let rename = try await engine.actions.process(
      answer: #"[CALENDAR_ACTION:{"action":"update","title":"call with sam","newTitle":"Call with Sam and Ana"}]"#)[0]
    #expect(rename.state == .pending)
    #expect(engine.conflictChoices(for: rename) == nil)
    await #expect(throws: ActionStateError.self) {
      _ = try await engine.rescheduleAction(rename.id, to: LocalDateTime(parsing: "2026-12-08T13:00")!)
    }
    _ = try await engine.cancelAction(rename.id)
    // A move that renames too: at the free time chosen, with its new name.
    let move = try await engine.actions.process(
      answer:
        #"[CALENDAR_ACTION:{"action":"update","title":"call with sam","newTitle":"Call with Ana","newStart":"2026-12-08T11:00"}]"#
    )[0]
    let choices = try #require(engine.conflictChoices(for: move))
    #expect(choices.slots.first?.start == LocalDateTime(parsing: "2026-12-08T12:00"))
    // Not the start offered, but free all the same (a card drawn earlier may offer a quarter hour gone by).
    let moved = try await engine.rescheduleAction(move.id, to: LocalDateTime(parsing: "2026-12-08T13:15")!)
    #expect(moved.state == .updated)
    let call = try #require(try engine.calendar.events().first { $0.title == "Call with Ana" })
    #expect(call.start == LocalDateTime(parsing: "2026-12-08T13:15"))
    #expect(call.end == LocalDateTime(parsing: "2026-12-08T13:45"))
    // Settled: nothing more to move.
    await #expect(throws: ActionStateError.self) {
      _ = try await engine.rescheduleAction(move.id, to: LocalDateTime(parsing: "2026-12-08T14:00")!)
    }
  }

  @Test func aCreationWaitingForTheUserOffersNoFreeTimes() async throws {
    let engine = try await engine()
    try event(engine, "Standup", "2026-12-07T10:00", "2026-12-07T11:00")
    // Proposed after the model read a document: it waits, with no event yet to move.
    let held = try await engine.actions.process(
      answer:
        #"[CALENDAR_ACTION:{"action":"create","title":"Dentist","start":"2026-12-07T10:30","end":"2026-12-07T11:30"}]"#,
      read: "a document")[0]
    #expect(held.state == .pending)
    #expect(engine.conflictChoices(for: held) == nil)
  }
}
