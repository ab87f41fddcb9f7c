import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

@Suite("The decode executor lets go of finished work at once", .heavy)
struct DecodeExecutorTests {
  /// A long generation keeps the decode thread from ever going idle; short ones that finish meanwhile
  /// must still be released (their run, sampler and session), not kept until the thread rests.
  @Test func finishedGenerationsAreReleasedWhileAnotherKeepsTheThreadBusy() async throws {
    let model = try await SharedModels.smolLM2()
    let busy = try await LlamaSession.create(model: model, options: ContextOptions(contextSize: 1024))
    let long = GenerationOptions(maxNewTokens: 900, sampling: .greedy, ignoresEndOfGeneration: true)
    let background = Task { try await Collected.from(busy.generate(prompt: [model.warmUpToken], options: long)) }
    for _ in 0..<4 {
      weak var released: LlamaSession?
      do {
        let session = try await LlamaSession.create(model: model, options: ContextOptions(contextSize: 256))
        released = session
        let short = GenerationOptions(maxNewTokens: 6, sampling: .greedy, ignoresEndOfGeneration: true)
        let collected = try await Collected.from(session.generate(prompt: [model.warmUpToken], options: short))
        #expect(collected.stopReason == .maxTokens)
      }
      // Once a later step has run, every earlier one has left the thread.
      await DecodeExecutor.shared.perform {}
      #expect(released == nil)
    }
    background.cancel()
    _ = try? await background.value
    await busy.waitUntilIdle()
    #expect(busy.lastRecord?.stopReason == .cancelled)
  }
}
