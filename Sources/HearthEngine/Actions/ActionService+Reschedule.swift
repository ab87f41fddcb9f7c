import Foundation
import HearthActions
import HearthCore
import HearthStore

extension ActionService {
  /// The event a card adds or would move, with the times it would have: `nil` for any other card — one of
  /// another kind, one settled, a creation still waiting for the user (it has no event yet), or a change that
  /// keeps the event's times (a rename of an event that overlaps something moves nothing onto it).
  func cardEvent(_ record: ActionRecord) -> CalendarEvent? {
    guard record.itemKind == .event, record.itemID != nil, [.created, .pending].contains(record.state),
      let after = record.after, case .event(let event)? = StoredItem(kind: .event, json: after)
    else { return nil }
    if record.state == .pending {
      guard let before = record.before, case .event(let old)? = StoredItem(kind: .event, json: before),
        old.start != event.start || old.end != event.end
      else { return nil }
    }
    return event
  }

  /// Moves the event a card adds or would move to `slot`, one of its ``ConflictChoices``: a move that waited
  /// runs there instead of where it asked, with the rest of its change (a new title, a place) as asked; an
  /// added event is moved, its card still the one that undoes the addition. Made in one transaction with the
  /// record, as every action is.
  /// - Throws: ``ActionStateError`` for a card in another state or of another kind; `StoreError` when the
  ///   event of an added card is gone or the write fails.
  func reschedule(_ record: ActionRecord, to slot: ConflictChoices.Slot) throws -> ActionRecord {
    guard let itemID = record.itemID, cardEvent(record) != nil else {
      throw ActionStateError(id: record.id, state: record.state, wanted: "move to a free time")
    }
    guard case .event(let current)? = try database.item(.event, id: itemID) else {
      if record.state == .pending { return try settle(record, as: .cancelled, reason: "the event no longer exists") }
      throw StoreError.itemNotFound(kind: "event", id: itemID)
    }
    var moved = current
    if record.state == .pending {
      // The change as asked, read again from its block as a confirmation would, then at the free time.
      guard let block = ActionBlockParser.parse(record.block).blocks.first else {
        return try settle(record, as: .cancelled, reason: "the block no longer reads")
      }
      let changed: StoredItem
      do {
        changed = try planner.changed(.event(current), by: try block.validated().typed)
      } catch {
        return try settle(record, as: .cancelled, reason: "\(error)")
      }
      guard case .event(let event) = changed else { return record }
      moved = event
    }
    if moved.isAllDay {
      // A day becomes a time on the user's own clock.
      (moved.isAllDay, moved.zone) = (false, .floating)
    }
    (moved.start, moved.end) = (slot.start, slot.end)
    let prepared = try planner.prepared(.event(moved))
    guard case .event(let stored) = prepared else { return record }
    var record = record
    record.after = prepared.json
    if record.state == .pending {
      record.before = StoredItem.event(current).json
      record.summary =
        "Move “\(current.title)” from \(ActionPlanner.when(current)) to \(ActionPlanner.when(stored))"
        + (stored.title == current.title ? "" : ", as “\(stored.title)”")
      return try settle(record, as: .updated, writing: .update(prepared))
    }
    record.summary = "Added “\(stored.title)” on \(ActionPlanner.when(stored)), a free time"
    return try settle(record, as: .created, expecting: .created, writing: .update(prepared))
  }
}
