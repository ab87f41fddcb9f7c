import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import LlamaKit
import Testing

@testable import HearthEngine

@Suite("Regenerate, edit and continue through the real model and database", .heavy)
struct AlternativesTests {
  private static let model = Task { try await LlamaModel.load(path: TestModels.smolLM2) }

  private func service() async throws -> (ChatService, HearthDatabase) {
    let database = try HearthDatabase(
      path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
    let model = LocalModel(
      session: try await LlamaSession.create(model: try await Self.model.value, options: .init(contextSize: 2048)),
      loadTime: .zero)
    return (ChatService(database: database, model: model), database)
  }

  /// Runs a turn of any kind to its end and returns the final message and the events.
  @discardableResult
  private func run(
    _ service: ChatService, _ kind: TurnKind, in session: UUID, options: GenerationOptions
  ) async throws -> (StoredMessage, [ChatEvent]) {
    var events: [ChatEvent] = []
    for await event in try await service.start(kind, in: session, options: options) { events.append(event) }
    guard case .finished(let message)? = events.last else { throw TestFailure("turn did not finish") }
    return (message, events)
  }

  @Test func regeneratingKeepsBothAnswersAndEitherCanBeShown() async throws {
    let (service, database) = try await service()
    let session = try await service.newSession()
    let greedy = GenerationOptions(maxNewTokens: 24, sampling: .greedy)
    let (first, _) = try await run(
      service, .message("Write one sentence about the sea."), in: session.id, options: greedy)
    #expect(!first.content.isEmpty)

    // Sampled differently, the same question gets another answer in the same place.
    let sampled = GenerationOptions(
      maxNewTokens: 24, sampling: SamplingParameters(temperature: 1.2, topK: 200, topP: 1, minP: 0, seed: 7))
    let (second, events) = try await run(service, .regenerate(first.id), in: session.id, options: sampled)
    guard case .started(let user, let assistant)? = events.first else { throw TestFailure("no start") }
    #expect(user.content == "Write one sentence about the sea.")
    #expect(assistant.index == first.index && assistant.id != first.id)
    #expect(second.state == .complete && second.content != first.content)
    #expect(try database.messages(in: session.id).map(\.id) == [user.id, second.id])
    #expect(try database.forks(in: session.id) == [MessageFork(position: 1, count: 2, current: 1)])

    let back = try await service.showAlternative(0, at: 1, in: session.id)
    #expect(back.map(\.id) == [user.id, first.id])
    #expect(back[1].content == first.content)
    // The conversation goes on from the version shown: the model reads the first answer.
    let (third, _) = try await run(service, .message("And one about the sky?"), in: session.id, options: greedy)
    #expect(third.state == .complete)
    #expect(try database.messages(in: session.id).map(\.id).prefix(2) == [user.id, first.id])
    let exported = try database.export(session.id)
    #expect(exported.branches.compactMap(\.tail).flatMap(\.messages).map(\.id) == [second.id])
  }

  @Test func editingAMessageAnswersTheNewTextAndKeepsTheOldPath() async throws {
    let (service, database) = try await service()
    let session = try await service.newSession()
    let greedy = GenerationOptions(maxNewTokens: 20, sampling: .greedy)
    let (paris, _) = try await run(service, .message("What is the capital of France?"), in: session.id, options: greedy)
    try await run(service, .message("Thanks!"), in: session.id, options: greedy)
    let question = try database.messages(in: session.id)[0]

    let (rome, events) = try await run(
      service, .edit(question.id, text: "What is the capital of Italy?"), in: session.id, options: greedy)
    guard case .started(let user, _)? = events.first else { throw TestFailure("no start") }
    #expect(user.content == "What is the capital of Italy?" && user.index == 0)
    #expect(rome.content.contains("Rome"))
    #expect(try database.messages(in: session.id).map(\.content) == [user.content, rome.content])

    let old = try await service.showAlternative(0, at: 0, in: session.id)
    #expect(old.map(\.content) == ["What is the capital of France?", paris.content, "Thanks!", old[3].content])
    #expect(try database.forks(in: session.id) == [MessageFork(position: 0, count: 2, current: 0)])
  }

  @Test func continuingCarriesOnWhereTheAnswerStopped() async throws {
    let (service, database) = try await service()
    let session = try await service.newSession()
    let question = "Write a short story about a fox who finds a key."
    let half = GenerationOptions(maxNewTokens: 16, sampling: .greedy, ignoresEndOfGeneration: true)
    let (partial, _) = try await run(service, .message(question), in: session.id, options: half)
    #expect(partial.stopReason == .maxTokens && partial.generatedTokens == 16)

    var added = ""
    var finished: StoredMessage?
    for await event in try await service.continueAnswer(partial.id, in: session.id, options: half) {
      if case .answer(let text) = event { added += text }
      if case .finished(let message) = event { finished = message }
    }
    let whole = try #require(finished)
    #expect(whole.id == partial.id)
    #expect(whole.content == partial.content + added)
    #expect(whole.generatedTokens == 32)
    #expect(try database.messages(in: session.id).count == 2)

    // The same 32 tokens in one go, in another chat: the continuation is the model going on, not starting over.
    let other = try await service.newSession()
    let (straight, _) = try await run(
      service, .message(question), in: other.id,
      options: GenerationOptions(maxNewTokens: 32, sampling: .greedy, ignoresEndOfGeneration: true))
    #expect(whole.content == straight.content)
  }

  @Test func refusesWhatCannotBeRetried() async throws {
    let (service, database) = try await service()
    let session = try await service.newSession()
    let greedy = GenerationOptions(maxNewTokens: 8, sampling: .greedy)
    let (answer, _) = try await run(service, .message("Hello"), in: session.id, options: greedy)
    let user = try database.messages(in: session.id)[0]
    await #expect(throws: ChatError.notAnAnswer) { try await service.check(.regenerate(user.id), in: session.id) }
    await #expect(throws: ChatError.notAUserMessage) {
      try await service.check(.edit(answer.id, text: "Hi"), in: session.id)
    }
    await #expect(throws: ChatError.emptyMessage) {
      try await service.check(.edit(user.id, text: "  "), in: session.id)
    }
    if answer.stopReason != .maxTokens {
      await #expect(throws: ChatError.cannotContinue("the answer is finished")) {
        try await service.check(.continueAnswer(answer.id), in: session.id)
      }
    }
    await #expect(throws: StoreError.self) { try await service.check(.regenerate(UUID()), in: session.id) }
    await #expect(throws: StoreError.self) { _ = try await service.showAlternative(0, at: 1, in: session.id) }

    // While the chat answers, nothing else starts in it and its versions stay as they are.
    let long = GenerationOptions(maxNewTokens: 200, sampling: .greedy, ignoresEndOfGeneration: true)
    let events = try await service.send("Count to one hundred.", to: session.id, options: long)
    await #expect(throws: ChatError.alreadyGenerating(sessionID: session.id)) {
      try await service.check(.regenerate(answer.id), in: session.id)
    }
    await #expect(throws: ChatError.alreadyGenerating(sessionID: session.id)) {
      _ = try await service.showAlternative(0, at: 1, in: session.id)
    }
    await service.stop(session.id)
    for await _ in events {}
    #expect(try database.messages(in: session.id).count == 4)
  }
}
