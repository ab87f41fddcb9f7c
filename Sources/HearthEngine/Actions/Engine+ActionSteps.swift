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
