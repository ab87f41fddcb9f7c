import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("A conversation's state kept on disk between sessions", .heavy)
struct ConversationStateTests {
  private let first: [ChatMessage] = [.user("Name three colours and describe each one.")]
  private let options = GenerationOptions(maxNewTokens: 24, sampling: .greedy)

  private func folder() throws -> URL { try TestModels.temporaryDirectory() }

  private func files(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".kv") }
  }

  /// The chat so far and its next question.
  private func followUp(_ answer: String) -> [ChatMessage] {
    first + [.assistant(answer), .user("Which of them is the warmest?")]
  }

  /// The first turn, answered in a session that writes its state once idle.
  private func firstTurn(_ key: ConversationStateKey, contextSize: Int = 1024) async throws -> String {
    let session = try await SharedModels.session(contextSize: contextSize)
    var options = options
    options.conversationState = key
    let answer = try await Collected.from(session.respond(to: first, options: options)).text
    await session.waitUntilIdle()
    return answer
  }

  /// A fresh session (as after a restart) starts the next turn from the saved state, and answers exactly as
  /// one that read the whole chat.
  @Test func aFreshSessionResumesFromTheSavedState() async throws {
    let folder = try folder()
    let key = ConversationStateKey(directory: folder, name: "chat-1")
    let answer = try await firstTurn(key)
    #expect(files(in: folder).count == 1)

    var resumedOptions = options
    resumedOptions.conversationState = key
    let resumed = try await Collected.from(
      try await SharedModels.session().respond(to: followUp(answer), options: resumedOptions))
    let reread = try await Collected.from(
      try await SharedModels.session().respond(to: followUp(answer), options: options))
    let firstPrompt = try await SharedModels.session().chatPromptTokens(first).count
    #expect((resumed.usage?.reusedPromptTokens ?? 0) >= firstPrompt)
    #expect(reread.usage?.reusedPromptTokens == 0)
    #expect(resumed.text == reread.text)
    #expect(!resumed.text.isEmpty)
  }

  /// A damaged file is removed and the chat is read again; a context of another size does not use it.
  @Test func aDamagedOrForeignFileIsNotUsed() async throws {
    let folder = try folder()
    let key = ConversationStateKey(directory: folder, name: "chat-2")
    let answer = try await firstTurn(key)
    let file = folder.appendingPathComponent(try #require(files(in: folder).first))
    var keyed = options
    keyed.conversationState = key

    // Another window: another file name, so nothing is restored (and the saved one stays).
    let other = try await Collected.from(
      try await SharedModels.session(contextSize: 512).respond(to: followUp(answer), options: keyed))
    #expect(other.usage?.reusedPromptTokens == 0)

    var bytes = try Data(contentsOf: file)
    bytes[bytes.count / 2] ^= 0xFF
    try bytes.write(to: file)
    let session = try await SharedModels.session()
    let damaged = try await Collected.from(session.respond(to: followUp(answer), options: keyed))
    #expect(damaged.usage?.reusedPromptTokens == 0)
    #expect(!damaged.text.isEmpty)
    await session.waitUntilIdle()
    // Removed, then written anew once the session went idle: whole again.
    #expect(SavedPrefix(try Data(contentsOf: file)) != nil)
  }

  /// Beyond the folder's budget the least recently written file goes.
  @Test func theOldestFileGoesBeyondTheBudget() async throws {
    let folder = try folder()
    _ = try await firstTurn(ConversationStateKey(directory: folder, name: "old"))
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files(in: folder)[0]).path)[.size]
        as? NSNumber
    ).uint64Value
    _ = try await firstTurn(ConversationStateKey(directory: folder, name: "new", budgetBytes: size + size / 2))
    let kept = files(in: folder)
    #expect(kept.count == 1)
    #expect(kept.first?.hasPrefix("new-") == true)
  }
}
