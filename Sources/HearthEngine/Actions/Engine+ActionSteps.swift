public import Foundation
public import HearthCore
import HearthStore
import Logging

/// The user's steps on a card: confirm, decline, take back. Each runs through the action service, then the chat
/// the card belongs to is remembered again, so that the memory of past chats tells what became of the action
/// ("Deleted “Dentist” …"), not what it was when the turn ended ("Waiting for your confirmation: …").
extension Engine {
  /// Runs a pending change or deletion the user agreed to.
  public func confirmAction(_ id: UUID) async throws -> ActionRecord {
    let record = try await actions.confirm(id)
    await rememberChat(of: record)
    return record
  }

  /// Declines a pending change or deletion.
  public func cancelAction(_ id: UUID) async throws -> ActionRecord {
    let record = try actions.cancel(id)
    await rememberChat(of: record)
    return record
  }

  /// The conflict card's choices for `record`: the events the event it adds (as it stands now) or would move
  /// overlaps, and free times to move it to; `nil` when it overlaps nothing, is over, or the card is of another
  /// kind or state (a failure to read is logged and offers nothing).
  public func conflictChoices(for record: ActionRecord) -> ConflictChoices? {
    logger.attempt("finding an event's overlaps and free times") { try cardChoices(for: record)?.choices } ?? nil
  }

  /// The card's event as it stands and its choices; `nil` when the card has none to offer.
  private func cardChoices(for record: ActionRecord) throws -> (event: CalendarEvent, choices: ConflictChoices)? {
    guard var event = actions.cardEvent(record) else { return nil }
    let now = configuration.clock()
    if record.state == .created, let id = record.itemID {
      // An added event may have been moved or removed since.
      guard case .event(let current)? = try database.item(.event, id: id) else { return nil }
      event = current
    }
    // Most cards in a log are of events long over: nothing more to read for them.
    let zone = calendar.timeZone
    guard event.end.instant(in: event.isAllDay ? zone : event.zone.resolved(local: zone)) > now else {
      return nil
    }
    return try calendar.conflictChoices(for: event, now: now).map { (event, $0) }
  }

  /// Moves the event a conflict card adds or would move to the free time starting at `start`: one its
  /// ``conflictChoices(for:)`` offer, or another start within the same free stretches.
  /// - Throws: ``ActionStateError`` for a card that adds or moves no event (or no longer can);
  ///   ``RescheduleError`` when its event overlaps nothing now or `start` is not free; `StoreError` when the
  ///   action or its event is gone or a read or write fails.
  public func rescheduleAction(_ id: UUID, to start: LocalDateTime) async throws -> ActionRecord {
    guard let record = try database.action(id) else { throw StoreError.itemNotFound(kind: "action", id: id.uuidString) }
    guard actions.cardEvent(record) != nil else {
      throw ActionStateError(id: id, state: record.state, wanted: "move to a free time")
    }
    if record.state == .created, let itemID = record.itemID, try database.item(.event, id: itemID) == nil {
      throw StoreError.itemNotFound(kind: "event", id: itemID)
    }
    guard let (event, choices) = try cardChoices(for: record) else { throw RescheduleError.overlapsNothing(id) }
    let offered = choices.slots.first { $0.start == start }
    guard let slot = try offered ?? calendar.freeSlot(for: event, startingAt: start, now: configuration.clock()) else {
      throw RescheduleError.notOffered(start, offered: choices.slots.map(\.start))
    }
    let moved = try actions.reschedule(record, to: slot)
    await rememberChat(of: moved)
    return moved
  }

  /// Takes back what an action did.
  public func undoAction(_ id: UUID) async throws -> ActionRecord {
    let record = try actions.undo(id)
    await rememberChat(of: record)
    return record
  }

  private func rememberChat(of record: ActionRecord) async {
    guard let sessionID = record.sessionID,
      let session = logger.attempt("reading the session of an action", { try database.session(sessionID) })
    else { return }
    await Self.remember(session, in: memory, logger: logger)
  }

  /// Indexes a chat in the memory when it is available. What was said or done stands whatever becomes of this: a
  /// chat that cannot be indexed now is indexed with its next turn or step.
  static func remember(_ session: ChatSession, in memory: MemoryService, logger: Logger) async {
    guard memory.isAvailable else { return }
    do {
      try await memory.remember(session: session)
    } catch {
      logger.warning("a chat could not be added to the memory", metadata: ["error": "\(ErrorKind.of(error))"])
    }
  }
}
