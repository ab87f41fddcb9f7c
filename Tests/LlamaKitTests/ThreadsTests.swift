import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Fewer threads while the machine is hot, on the real model", .heavy)
struct ThreadsTests {
  @Test func aSessionEvaluatesWithFewerThreadsAndBackWithinItsPool() async throws {
    let session = try await LlamaSession.create(
      model: try await SharedModels.smolLM2(), options: ContextOptions(contextSize: 512, threads: 2))
    #expect(session.applied.threads == 2)
    await session.useThreads(1)
    #expect(session.applied.threads == 1)
    let prompt = try session.chatPromptTokens([.user("Name a colour.")])
    let answer = try await Collected.from(
      session.generate(prompt: prompt, options: GenerationOptions(maxNewTokens: 6, sampling: .greedy)))
    #expect(!answer.text.isEmpty)
    // Never more than the pool it was made with.
    await session.useThreads(16)
    #expect(session.applied.threads == 2)
  }
}
