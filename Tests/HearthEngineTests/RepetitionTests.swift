import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

/// The shipped model at temperature 0 with no repeat penalty (the Precise preset) loops on a poem and a song:
/// the turn stops at the loop, and what the answer said once is what is shown and kept. The system prompt is
/// one of the user's own, with no dates in it, and the model runs on one thread, so the greedy answer is the
/// same on every day and in every lane.
@Suite("An answer that loops is stopped at its first repeat (SmolLM2, real)", .serialized, .heavy)
struct RepetitionTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: 1))
  }

  @Test(arguments: ["Write a poem about the sea.", "Write a song about the rain."])
  func aLoopingAnswerIsCutAndSaidOnce(_ request: String) async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let engine = try Engine.open(
      EngineConfiguration(paths: HearthPaths(home: home), environment: [:]), model: try await Self.model.value)
    let session = try await engine.chat.newSession()
    var streamed = ""
    var replacements: [(String, Replacement)] = []
    var finished: StoredMessage?
    let options = GenerationOptions(maxNewTokens: 400, sampling: .greedy)
    let turn = TurnRequest(
      session: session.id, kind: .message(request), systemPrompt: "You are a helpful assistant.", options: options)
    try await engine.runTurn(turn) { event in
      switch event {
      case .chat(.answer(let text)): streamed += text
      case .chat(.replaced(let text, let reason)): replacements.append((text, reason))
      case .chat(.finished(let message)): finished = message
      case .failed(let error): throw error
      default: break
      }
    }
    let message = try #require(finished)
    #expect(message.stopReason == .repetition, "\(message.stopReason.map(String.init(describing:)) ?? "none")")
    #expect(message.state == .complete)
    #expect(replacements.map(\.1) == [.repeating])
    // What was shown first ran on into the loop; what stands is its beginning, up to the first repeat.
    #expect(streamed.hasPrefix(message.content) && streamed.count > message.content.count)
    #expect(replacements.first?.0 == message.content)
    #expect(RepetitionGuard.repeatsStart(in: message.content) == nil)
    #expect(message.content.count > 20, "\(message.content)")
    // Well before the token limit: the loop ended the generation.
    #expect((message.generatedTokens ?? 0) < 300, "\(message.generatedTokens ?? 0) tokens")
    let stored = try #require(try engine.database.messages(in: session.id).last)
    #expect(stored.content == message.content && stored.stopReason == .repetition)
    // Diagnostics counts the cut as a replaced answer, by its reason alone.
    let counted = try engine.database.telemetry(kinds: [.answerReplaced])
    #expect(counted.map(\.detail) == ["repeating"])
  }
}
