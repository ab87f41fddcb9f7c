import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Conversations and configuration")
struct ConversationTests {
  private static let model = Task { try await LlamaModel.load(path: TestModels.smolLM2) }

  private func conversation(system: String? = nil) async throws -> Conversation {
    let session = try await LlamaSession.create(model: try await Self.model.value, options: .init(contextSize: 1024))
    return Conversation(session: session, systemPrompt: system)
  }

  private func answer(
    _ stream: AsyncThrowingStream<GenerationEvent, any Error>
  ) async throws -> (
    String, GenerationUsage?
  ) {
    var text = ""
    var usage: GenerationUsage?
    for try await event in stream {
      if case .token(let piece) = event { text += piece }
      if case .usage(let figures) = event { usage = figures }
    }
    return (text, usage)
  }

  @Test func keepsHistoryAndReusesTheCacheAcrossTurns() async throws {
    let chat = try await conversation(system: "You are a helpful assistant.")
    let options = GenerationOptions(maxNewTokens: 40, sampling: .greedy)
    let (first, firstUsage) = try await answer(chat.send("What is the capital of France?", options: options))
    #expect(first.contains("Paris"))
    let (_, secondUsage) = try await answer(chat.send("What about Germany?", options: options))
    #expect(chat.history.map(\.role) == [.system, .user, .assistant, .user, .assistant])
    #expect(chat.history[2].content == first)
    let usage = try #require(secondUsage)
    #expect(usage.reusedPromptTokens >= (firstUsage?.promptTokens ?? .max))
    #expect(usage.prefilledTokens == usage.promptTokens - usage.reusedPromptTokens)
  }

  @Test func keepsThePartialAnswerWhenStopped() async throws {
    let chat = try await conversation()
    let options = GenerationOptions(maxNewTokens: 200, sampling: .greedy, ignoresEndOfGeneration: true)
    var received = ""
    for try await event in chat.send("Tell me about the sea.", options: options) {
      if case .token(let piece) = event { received += piece }
      if received.count > 10 { break }
    }
    await chat.session.waitUntilIdle()
    // The relay records the answer when it winds down.
    for _ in 0..<100 where chat.history.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
    let last = try #require(chat.history.last)
    #expect(last.role == .assistant)
    #expect(last.content.hasPrefix(received))
    #expect(chat.session.lastRecord?.stopReason == .cancelled)
  }

  @Test func resetKeepsOnlyTheSystemPrompt() async throws {
    let chat = try await conversation(system: "Be brief.")
    _ = try await answer(chat.send("Hi", options: .init(maxNewTokens: 4, sampling: .greedy)))
    chat.reset()
    #expect(chat.history == [.system("Be brief.")])
  }

  @Test func resolvesModelsFromFlagEnvironmentAndDataDirectory() throws {
    let home = try TestModels.temporaryDirectory()
    let paths = HearthPaths(home: home)
    #expect(try ModelResolver(paths: paths, environment: [:]).resolve(explicit: "/a.gguf") == "/a.gguf")
    #expect(
      try ModelResolver(paths: paths, environment: ["HEARTH_MODEL": "/b.gguf"]).resolve(explicit: nil) == "/b.gguf")
    #expect(throws: ModelResolutionError.self) {
      try ModelResolver(paths: paths, environment: [:]).resolve(explicit: nil)
    }
    try FileManager.default.createDirectory(at: paths.models, withIntermediateDirectories: true)
    let installed = paths.models.appendingPathComponent(ModelResolver.defaultModelFileName).path
    #expect(FileManager.default.createFile(atPath: installed, contents: Data([1])))
    #expect(try ModelResolver(paths: paths, environment: [:]).resolve(explicit: nil) == installed)
  }

  @Test func readsTheDataDirectoryFromTheEnvironment() {
    #expect(HearthPaths(environment: ["HEARTH_HOME": "/data/h"]).home.path == "/data/h")
    #expect(HearthPaths(environment: ["HOME": "/home/u"]).home.path == "/home/u/.local/share/hearth")
  }
}
