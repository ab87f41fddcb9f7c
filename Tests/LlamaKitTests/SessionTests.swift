import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Sessions: cache reuse and models side by side", .heavy)
struct SessionTests {
  @Test func secondTurnEvaluatesOnlyTheNewTokens() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(maxNewTokens: 30, sampling: .greedy)
    var history: [ChatMessage] = [.user("What is the capital of France?")]
    let firstPrompt = try session.chatPromptTokens(history)
    let first = try await Collected.from(session.generate(prompt: firstPrompt, options: options))
    #expect(first.usage?.reusedPromptTokens == 0)
    #expect(first.usage?.prefilledTokens == firstPrompt.count)

    history += [.assistant(first.text), .user("And of Italy?")]
    let secondPrompt = try session.chatPromptTokens(history)
    let second = try await Collected.from(session.generate(prompt: secondPrompt, options: options))
    let usage = try #require(second.usage)
    #expect(usage.reusedPromptTokens >= firstPrompt.count)
    #expect(usage.prefilledTokens == secondPrompt.count - usage.reusedPromptTokens)
    #expect(usage.prefilledTokens < secondPrompt.count / 2)
  }

  @Test func anIdenticalPromptReevaluatesOnlyItsLastToken() async throws {
    let session = try await SharedModels.session()
    let prompt = try session.chatPromptTokens([.user("Name a colour.")])
    let options = GenerationOptions(maxNewTokens: 4, sampling: .greedy)
    let first = try await Collected.from(session.generate(prompt: prompt, options: options))
    let again = try await Collected.from(session.generate(prompt: prompt, options: options))
    #expect(again.usage?.prefilledTokens == 1)
    #expect(again.text == first.text)
  }

  @Test func clearingTheCacheStartsOver() async throws {
    let session = try await SharedModels.session()
    let prompt = try session.chatPromptTokens([.user("Name a colour.")])
    let options = GenerationOptions(maxNewTokens: 4, sampling: .greedy)
    _ = try await Collected.from(session.generate(prompt: prompt, options: options))
    await session.clearCache()
    let again = try await Collected.from(session.generate(prompt: prompt, options: options))
    #expect(again.usage?.prefilledTokens == prompt.count)
  }

  @Test func twoModelsGenerateAtTheSameTime() async throws {
    let smol = try await SharedModels.session()
    let gemma = try await LlamaSession.create(model: try await SharedModels.gemma3(), options: .init(contextSize: 512))
    #expect(gemma.model.metadata.architecture == "gemma3")
    let options = GenerationOptions(maxNewTokens: 16, sampling: .greedy, ignoresEndOfGeneration: true)
    let gemmaPrompt = try gemma.model.tokenize("The capital of France is", addSpecial: true, parseSpecial: false)
    async let chat = Collected.from(smol.respond(to: [.user("What is the capital of France?")], options: options))
    async let completion = Collected.from(gemma.generate(prompt: gemmaPrompt, options: options))
    let (a, b) = try await (chat, completion)
    #expect(a.usage?.generatedTokens == 16)
    #expect(b.usage?.generatedTokens == 16)
    #expect(a.text.contains("Paris"))
    #expect(!b.text.isEmpty)
  }

  @Test func theSecondArchitectureReusesItsCacheToo() async throws {
    let gemma = try await LlamaSession.create(model: try await SharedModels.gemma3(), options: .init(contextSize: 512))
    let options = GenerationOptions(maxNewTokens: 8, sampling: .greedy, ignoresEndOfGeneration: true)
    let prompt = try gemma.model.tokenize("Paris is a city in", addSpecial: true, parseSpecial: false)
    let first = try await Collected.from(gemma.generate(prompt: prompt, options: options))
    let extended = prompt + (try gemma.model.tokenize(first.text + " It is", addSpecial: false, parseSpecial: false))
    let second = try await Collected.from(gemma.generate(prompt: extended, options: options))
    let usage = try #require(second.usage)
    #expect(usage.reusedPromptTokens >= prompt.count)
    #expect(usage.prefilledTokens == extended.count - usage.reusedPromptTokens)
  }
}
