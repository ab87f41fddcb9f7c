import Foundation
import HearthCore
import HearthEngine
import HearthStore
import HearthTestSupport
import Testing

@Suite("The engine: one way into a profile, one model shared in turn", .serialized, .heavy)
struct EngineTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 1024, threads: TestModels.threads))
  }

  private func configuration() throws -> EngineConfiguration {
    EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:])
  }

  @Test func opensAProfileWithoutAModelForItsData() async throws {
    let engine = try await Engine.open(configuration())
    #expect(engine.model == nil)
    #expect(throws: ChatError.modelNotReady) { try engine.requireModel() }
    await #expect(throws: ChatError.modelNotReady) { _ = try await engine.leaseModel() }
    let session = try await engine.chat.newSession(title: "Plans")
    #expect(try engine.sessions.list().map(\.id) == [session.id])
    #expect(try engine.sessions.session(matching: String(session.id.uuidString.prefix(8))).id == session.id)
  }

  @Test func loadsTheModelItIsToldToAndAnswersThroughTheChatService() async throws {
    var configuration = try configuration()
    configuration.model = .file(path: TestModels.smolLM2, contextSize: 512, threads: TestModels.threads)
    let engine = try await Engine.open(configuration)
    let model = try #require(engine.model)
    #expect(model.name == "SmolLM2-135M-Instruct.Q4_1.gguf")
    #expect(model.contextSize == 512)
    #expect(engine.systemPrompt().contains("Today is"))
    #expect(engine.systemPrompt(custom: "Be brief.") == "Be brief.")
    let session = try await engine.chat.newSession()
    var final: StoredMessage?
    let options = GenerationOptions(maxNewTokens: 16, sampling: .greedy)
    for await event in try await engine.chat.send("What is the capital of France?", to: session.id, options: options) {
      if case .finished(let message) = event { final = message }
    }
    #expect(final?.state == .complete)
    #expect(final?.content.contains("Paris") == true)
    #expect(try engine.sessions.messages(in: session.id).map(\.role) == [.user, .assistant])
    #expect(model.lastUsage?.generatedTokens == final?.generatedTokens)
  }

  /// A chat's evaluated state is written to the profile once the model goes idle; after a restart the next
  /// turn starts from it instead of reading the chat again, and deleting the chat deletes it.
  @Test func aChatResumedAfterARestartStartsFromItsSavedState() async throws {
    var configuration = try configuration()
    configuration.model = .file(path: TestModels.smolLM2, contextSize: 1024, threads: TestModels.threads)
    let options = GenerationOptions(maxNewTokens: 16, sampling: .greedy)
    func ask(_ engine: Engine, _ text: String, in session: UUID) async throws -> GenerationUsage {
      for await _ in try await engine.chat.send(text, to: session, options: options) {}
      let model = try #require(engine.model)
      await model.settle()
      return try #require(engine.lastUsage)
    }
    let first = try await Engine.open(configuration)
    let session = try await first.chat.newSession()
    let before = try await ask(first, "What is the capital of France?", in: session.id)
    let folder = first.paths.conversationStates
    let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(saved.count == 1 && saved[0].hasPrefix(session.id.uuidString.replacingOccurrences(of: "-", with: "_")))

    let restarted = try await Engine.open(configuration)
    let after = try await ask(restarted, "And of Spain?", in: session.id)
    // The whole first turn came from the file, not only the instructions' prefix.
    #expect(after.reusedPromptTokens >= before.promptTokens)

    try restarted.sessions.delete(session.id)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aMissingDefaultModelIsReportedBeforeAnythingLoads() async throws {
    var configuration = try configuration()
    configuration.model = .file(path: nil)
    await #expect(throws: ModelResolutionError.self) { _ = try await Engine.open(configuration) }
  }

  @Test func openingWithAModelRepairsWhatACrashLeft() async throws {
    let configuration = try configuration()
    let database = try HearthDatabase(path: configuration.paths.database.path)
    let session = try database.createSession(ChatSession(title: "Before the crash"))
    _ = try database.appendMessage(StoredMessage(sessionID: session.id, index: 0, role: .user, content: "Hi"))
    _ = try database.appendMessage(
      StoredMessage(sessionID: session.id, index: 0, role: .assistant, content: "Half an ans", state: .generating))
    let engine = try Engine.open(configuration, model: try await Self.model.value)
    let answer = try #require(try engine.sessions.messages(in: session.id).last)
    #expect(answer.state == .interrupted)
    #expect(answer.content == "Half an ans")
  }

  @Test func settingsAreCheckedBeforeTheyAreSaved() async throws {
    let engine = try await Engine.open(configuration())
    var settings = ChatSettings()
    settings.temperature = -1
    #expect(throws: InvalidParameterError.self) { try engine.setChatSettings(settings) }
    #expect(try engine.chatSettings() == ChatSettings())
    settings.temperature = 0.2
    try engine.setChatSettings(settings)
    #expect(try engine.chatSettings().temperature == 0.2)
  }

  /// Requests that stop listening after their first token, all sent at once: each must find the model
  /// free, because the next one is let in only when the stopped generation has really ended.
  @Test func aStoppedGenerationEndsBeforeTheNextRequestGetsTheModel() async throws {
    let engine = try Engine.open(configuration(), model: try await Self.model.value)
    let requests = 60
    let answered = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<requests {
        group.addTask {
          try await engine.withModel { model in
            let options = GenerationOptions(maxNewTokens: 64, sampling: .greedy)
            var pieces = 0
            for try await event in model.generate(messages: [.user("Count to fifty. (\(index))")], options: options) {
              if case .token = event {
                pieces += 1
                break
              }
            }
            return pieces
          }
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(answered == Array(repeating: 1, count: requests))
    #expect(await engine.queueDepth == 0)
  }
}
