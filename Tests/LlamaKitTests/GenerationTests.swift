import HearthCore
import HearthTestSupport
import LlamaKit
import Synchronization
import Testing

@Suite("Generation through the real model", .heavy)
struct GenerationTests {
  private let question: [ChatMessage] = [.user("What is the capital of France?")]

  @Test func answersAFactualQuestion() async throws {
    let session = try await SharedModels.session()
    let result = try await Collected.from(session.respond(to: question, options: .init(sampling: .greedy)))
    #expect(result.text.contains("Paris"))
    #expect(result.stopReason == .endOfGeneration)
    #expect(result.usage?.generatedTokens ?? 0 > 0)
  }

  @Test func greedyOutputIsDeterministic() async throws {
    let options = GenerationOptions(maxNewTokens: 40, sampling: .greedy)
    let prompt: [ChatMessage] = [.user("Write a sentence about autumn leaves.")]
    let first = try await Collected.from(try await SharedModels.session().respond(to: prompt, options: options))
    let second = try await Collected.from(try await SharedModels.session().respond(to: prompt, options: options))
    #expect(!first.text.isEmpty)
    #expect(first.text == second.text)
  }

  @Test func seededSamplingIsReproducible() async throws {
    let sampling = SamplingParameters(temperature: 1.0, seed: 42)
    let options = GenerationOptions(maxNewTokens: 24, sampling: sampling)
    let session = try await SharedModels.session()
    let first = try await Collected.from(session.respond(to: question, options: options))
    let second = try await Collected.from(session.respond(to: question, options: options))
    #expect(first.text == second.text)
  }

  @Test func stopsAtTheTokenLimit() async throws {
    let session = try await SharedModels.session()
    let result = try await Collected.from(
      session.respond(
        to: [.user("Count from one to one hundred in words.")], options: .init(maxNewTokens: 3, sampling: .greedy)))
    #expect(result.stopReason == .maxTokens)
    #expect(result.usage?.generatedTokens == 3)
  }

  @Test func stopsWhenTheContextIsFull() async throws {
    let session = try await SharedModels.session(contextSize: 48)
    let prompt = try session.chatPromptTokens(question)
    let options = GenerationOptions(maxNewTokens: 1000, sampling: .greedy, ignoresEndOfGeneration: true)
    let result = try await Collected.from(session.generate(prompt: prompt, options: options))
    #expect(result.stopReason == .contextFull)
    #expect(result.usage.map { $0.promptTokens + $0.generatedTokens } == 48 + 1)
  }

  @Test func stopsAtTheTimeLimitKeepingThePartialAnswer() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(
      maxNewTokens: 100_000, sampling: .greedy, timeout: .seconds(5), ignoresEndOfGeneration: true)
    let result = try await Collected.from(session.respond(to: question, options: options))
    #expect(result.stopReason == .timeout)
    let generated = try #require(result.usage?.generatedTokens)
    #expect(generated < 100_000)
    // What was generated before the limit is delivered, whole.
    #expect(result.text.isEmpty == (generated == 0))
  }

  /// `make test` runs one test at a time, so five seconds always produce text there; under a parallel run on two
  /// cores they may produce none, so this runs only then.
  @Test(.enabled(if: TestLoad.runsSerially, "needs the machine to itself: HEARTH_TESTS_SERIAL=1"))
  func aTimeLimitDeliversWhatWasGenerated() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(
      maxNewTokens: 100_000, sampling: .greedy, timeout: .seconds(5), ignoresEndOfGeneration: true)
    let result = try await Collected.from(session.respond(to: question, options: options))
    #expect(result.stopReason == .timeout)
    #expect(try #require(result.usage?.generatedTokens) > 0)
    #expect(!result.text.isEmpty)
  }

  @Test func stopsWithinOneTokenWhenTheConsumerLeaves() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(maxNewTokens: 500, sampling: .greedy, ignoresEndOfGeneration: true)
    var received = 0
    for try await event in session.respond(to: question, options: options) {
      if case .token = event { received += 1 }
      if received == 5 { break }
    }
    await session.waitUntilIdle()
    let record = try #require(session.lastRecord)
    #expect(record.stopReason == .cancelled)
    #expect(record.tokensAfterCancellation.map { $0 <= 1 } == true)
    #expect(record.usage.generatedTokens < 500)
  }

  @Test func stopsWithinOneTokenWhenTheTaskIsCancelled() async throws {
    let session = try await SharedModels.session()
    let options = GenerationOptions(maxNewTokens: 500, sampling: .greedy, ignoresEndOfGeneration: true)
    let stream = session.respond(to: question, options: options)
    let (streaming, streamingSignal) = AsyncStream.makeStream(of: Void.self)
    let consumer = Task {
      var count = 0
      for try await event in stream {
        if case .token = event { count += 1 }
        if count == 5 { streamingSignal.finish() }
      }
      return count
    }
    for await _ in streaming {}  // five tokens in: well into the answer
    consumer.cancel()
    _ = try? await consumer.value
    await session.waitUntilIdle()
    let record = try #require(session.lastRecord)
    #expect(record.stopReason == .cancelled)
    #expect(record.tokensAfterCancellation.map { $0 <= 1 } == true)
  }

  @Test func reportsADecodeFailureAsATypedError() async throws {
    let session = try await SharedModels.session()
    let vocabulary = Int32(session.model.metadata.vocabularySize)
    let stream = session.generate(prompt: [session.model.warmUpToken, vocabulary + 100], options: .init())
    await #expect(throws: LlamaError.self) { _ = try await Collected.from(stream) }
    // The session stays usable afterwards.
    let result = try await Collected.from(session.respond(to: question, options: .init(sampling: .greedy)))
    #expect(result.text.contains("Paris"))
  }

  @Test func rejectsAPromptLongerThanTheContext() async throws {
    let session = try await SharedModels.session(contextSize: 64)
    let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)
    let error = await #expect(throws: LlamaError.self) {
      _ = try await Collected.from(session.respond(to: [.user(long)], options: .init()))
    }
    guard case .promptTooLong(let tokens, let context) = error else {
      Issue.record("expected .promptTooLong, got \(String(describing: error))")
      return
    }
    #expect(tokens > 64 && context == 64)
  }

  @Test func rejectsInvalidSampling() async throws {
    let session = try await SharedModels.session()
    let bad: [GenerationOptions] = [
      .init(sampling: .init(temperature: -1)), .init(sampling: .init(topP: 0)), .init(sampling: .init(topK: -3)),
      .init(sampling: .init(minP: 2)), .init(sampling: .init(repeatPenalty: 0)), .init(maxNewTokens: 0),
      .init(sampling: .init(temperature: .nan)),
    ]
    for options in bad {
      await #expect(throws: LlamaError.self) {
        _ = try await Collected.from(session.respond(to: question, options: options))
      }
    }
  }

  /// A session with one slot runs one generation at a time: a second waits for the slot, then answers.
  @Test func aSecondGenerationOnAOneSlotSessionWaitsItsTurn() async throws {
    let session = try await SharedModels.session()
    let events = Mutex<[String]>([])
    let long = GenerationOptions(maxNewTokens: 60, sampling: .greedy, ignoresEndOfGeneration: true)
    var first = session.respond(to: question, options: long) { _ in events.withLock { $0.append("first ended") } }
      .makeAsyncIterator()
    _ = try await first.next()  // running: it holds the slot
    let second = Task {
      var collected = Collected()
      for try await event in session.respond(to: question, options: .init(sampling: .greedy)) {
        if case .token(let piece) = event {
          if collected.pieces.isEmpty { events.withLock { $0.append("second's first token") } }
          collected.pieces.append(piece)
        }
      }
      return collected
    }
    while try await first.next() != nil {}
    let answer = try await second.value
    #expect(answer.text.contains("Paris"))
    #expect(events.withLock { $0 } == ["first ended", "second's first token"])
  }
}
