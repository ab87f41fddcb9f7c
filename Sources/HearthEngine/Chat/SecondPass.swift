import Foundation
import HearthCore
import HearthStore

/// The answer to a question a block asked of the user's data: the facts found, written as they are. A
/// second free generation over them was tried with the default 135M model and invented facts (a phone
/// number when no contact matched), so the facts are the answer; they are data and are never read for
/// action blocks.
struct SecondPass {
  let database: HearthDatabase
  let events: AsyncStream<ChatEvent>.Continuation
  let now: @Sendable () -> Date

  func answer(facts: [String], into message: StoredMessage) -> StoredMessage {
    var message = message
    let text = "\n\nHere is what I found:\n" + facts.joined(separator: "\n")
    events.yield(.answer(text))
    message.content += text
    message.updatedAt = now()
    try? database.updateMessage(message)
    return message
  }
}
