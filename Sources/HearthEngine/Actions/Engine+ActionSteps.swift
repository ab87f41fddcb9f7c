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
  /// overlaps, and free times to move it to; `nil` when it overlaps nothing or the card is of another kind.
  public func conflictChoices(for record: ActionRecord) -> ConflictChoices? {
    guard var event = actions.cardEvent(record) else { return nil }
    if record.state == .created, let id = record.itemID {
      // An added event may have been moved or removed since.
      guard
        case .event(let current)? = logger.attempt("reading an added event", { try database.item(.event, id: id) })
          ?? nil
      else { return nil }
      event = current
    }
    return logger.attempt("finding an event's overlaps and free times") {
      try calendar.conflictChoices(for: event, now: configuration.clock())
    } ?? nil
  }

  /// Moves the event a conflict card adds or would move to the free time starting at `start`, one its
  /// ``conflictChoices(for:)`` offer now.
  /// - Throws: ``RescheduleError`` when the card has no such choice; ``ActionStateError`` for a card that can
  ///   no longer move; `StoreError` when the write fails.
  public func rescheduleAction(_ id: UUID, to start: LocalDateTime) async throws -> ActionRecord {
    guard let record = try database.action(id) else { throw StoreError.itemNotFound(kind: "action", id: id.uuidString) }
    guard let choices = conflictChoices(for: record) else { throw RescheduleError.overlapsNothing(id) }
    guard let slot = choices.slots.first(where: { $0.start == start }) else {
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
