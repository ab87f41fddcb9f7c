import Foundation
import HearthCore
import HearthStore

/// The answer to a question a block asked of the user's data. A model of at least a billion weights gets
/// the one second pass: the facts found, and the question to answer from them alone. A smaller one answers
/// with the facts as they are: the default 135M model, given the facts, invented others (a phone number when
/// no contact matched), and a wrong answer about the user's own data is worse than a plain list. The facts
/// are data either way and are never read for action blocks.
struct SecondPass {
  /// The smallest model trusted to write an answer from facts.
  static let minimumParameters: UInt64 = 1_000_000_000

  let database: HearthDatabase
  let model: any ChatModel
  let events: AsyncStream<ChatEvent>.Continuation
  let now: @Sendable () -> Date

  func answer(_ question: String, facts: [String], into message: StoredMessage) async -> StoredMessage {
    // What the data holds is shown and read as data: nothing in it opens a block, now or when the answer is
    // continued or exported.
    let facts = facts.map(ActionBlockParser.defused)
    var message = message
    var text = ""
    if (model.parameterCount ?? 0) >= Self.minimumParameters {
      text = await generated(question, facts: facts)
    }
    if text.isEmpty {
      text = "Here is what I found:\n" + facts.joined(separator: "\n")
      events.yield(.answer("\n\n" + text))
    }
    message.content += "\n\n" + text
    message.updatedAt = now()
    try? database.updateMessage(message)
    return message
  }

  /// The model's answer from the facts, streamed as it is written; empty when the generation fails.
  private func generated(_ question: String, facts: [String]) async -> String {
    let system =
      "You are Hearth, the user's assistant. Facts from the user's own data:\n" + facts.joined(separator: "\n")
      + "\nAnswer the user's question in one or two sentences from these facts only; if they do not answer it,"
      + " say so."
    let options = GenerationOptions(maxNewTokens: 200, sampling: .greedy)
    var text = ""
    do {
      for try await event in model.generate(messages: [.system(system), .user(question)], options: options) {
        guard case .token(let piece) = event else { continue }
        events.yield(.answer(text.isEmpty ? "\n\n" + piece : piece))
        text += piece
      }
    } catch {
      // The facts stand in for an answer that could not be written.
    }
    await model.settle()
    return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : text
  }
}
