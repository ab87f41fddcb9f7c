public import Foundation
import HearthCore

/// Why a reply could not quote the message it names.
public struct ReplyTargetError: Error, Sendable, Hashable, CustomStringConvertible {
  public var reference: String
  public var description: String { "there is no message \(reference) in this chat to reply to" }
}

extension Engine {
  /// `text` as a reply to a message of the chat: the message quoted first — an answer as it reads, its
  /// actions told in words rather than as blocks.
  /// - Throws: ``ReplyTargetError`` when the message is not in this chat.
  public func reply(_ text: String, quoting messageID: UUID, in sessionID: UUID) throws -> String {
    guard let message = try sessions.messages(in: sessionID).first(where: { $0.id == messageID }) else {
      throw ReplyTargetError(reference: String(messageID.uuidString.prefix(8)))
    }
    return ReplyQuote.compose(text, quoting: quoted(message))
  }

  /// `text` as a reply to the chat's message `number` (1 is the first, as `/find` numbers them).
  public func reply(_ text: String, quotingNumber number: Int, in sessionID: UUID) throws -> String {
    let messages = try sessions.messages(in: sessionID).filter { $0.role != .system }
    guard (1...max(messages.count, 1)).contains(number), number <= messages.count else {
      throw ReplyTargetError(reference: "\(number)")
    }
    return ReplyQuote.compose(text, quoting: quoted(messages[number - 1]))
  }

  private func quoted(_ message: StoredMessage) -> String {
    guard message.role == .assistant else { return ReplyQuote.split(message.content)?.reply ?? message.content }
    let records = logger.attempt("reading a quoted answer's actions") { try actions.log(message: message.id) } ?? []
    return ActionNarration.narrate(message.content, records: records)
  }
}
