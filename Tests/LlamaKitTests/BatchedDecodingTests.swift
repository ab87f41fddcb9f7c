import HearthCore
import HearthTestSupport
import Synchronization
import Testing

@testable import LlamaKit

@Suite("Several generations share one context, one batch per step", .heavy)
struct BatchedDecodingTests {
  private func session(slots: Int, contextSize: Int = 512) async throws -> LlamaSession {
    try await LlamaSession.create(
      model: try await SharedModels.smolLM2(), options: ContextOptions(contextSize: contextSize, slots: slots))
  }

  private let prompts: [[ChatMessage]] = [
    [.user("What is the capital of France?")],
    [.user("Name three colours.")],
    [.user("Write a sentence about autumn leaves.")],
  ]

  /// Run side by side, each answer is the answer it gets alone, token for token.
  @Test func answersTogetherAreTheAnswersAlone() async throws {
    let options = GenerationOptions(maxNewTokens: 24, sampling: .greedy)
    let alone = try await session(slots: 1)
    var expected: [String] = []
    for prompt in prompts {
      expected.append(try await Collected.from(alone.respond(to: prompt, options: options)).text)
    }
    let shared = try await session(slots: 3)
    let together = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for (index, prompt) in prompts.enumerated() {
        group.addTask { (index, try await Collected.from(shared.respond(to: prompt, options: options)).text) }
      }
      var texts = Array(repeating: "", count: prompts.count)
      for try await (index, text) in group { texts[index] = text }
      return texts
    }
    #expect(together == expected)
    #expect(Set(expected).count == 3)
  }

  /// Each slot has the context size asked for; a prompt longer than one slot's window is refused with that
  /// size, as llama-server's per-slot `n_ctx` is.
  @Test func eachSlotHasTheContextAskedFor() async throws {
    let shared = try await session(slots: 2, contextSize: 256)
    #expect(shared.contextSize == 256)
    #expect(shared.applied.contextSize == 512)
    let long = Array(
      repeating: try shared.model.tokenize("word ", addSpecial: false, parseSpecial: false)[0], count: 300)
    let error = await #expect(throws: LlamaError.self) {
      _ = try await Collected.from(shared.generate(prompt: long, options: .init(maxNewTokens: 4)))
    }
    guard case .promptTooLong(let tokens, let context)? = error else {
      Issue.record("expected promptTooLong, got \(String(describing: error))")
      return
    }
    #expect(tokens == 300 && context == 256)
  }

  /// Stopping one generation leaves the others running to their end.
  @Test func cancellingOneLeavesTheOthers() async throws {
    let shared = try await session(slots: 2)
    let long = GenerationOptions(maxNewTokens: 48, sampling: .greedy, ignoresEndOfGeneration: true)
    let kept = Task { try await Collected.from(shared.respond(to: prompts[1], options: long)) }
    var stopped = shared.respond(to: prompts[0], options: long).makeAsyncIterator()
    var pieces = 0
    while let event = try await stopped.next() {
      if case .token = event { pieces += 1 }
      if pieces == 3 { break }
    }
    let result = try await kept.value
    #expect(result.stopReason == .maxTokens)
    #expect(result.usage?.generatedTokens == 48)
    await shared.waitUntilIdle()
    #expect(shared.unfinishedGenerations == 0)
  }

  /// A run that asks for a slot waits for that one even when another is free, and finds what the slot held;
  /// a slot the session does not have is refused by name.
  @Test func aRunAskingForASlotWaitsForThatOne() async throws {
    let shared = try await session(slots: 2)
    let order = Mutex<[String]>([])
    var pinned = GenerationOptions(maxNewTokens: 30, sampling: .greedy, ignoresEndOfGeneration: true)
    pinned.slot = 1
    var holder = shared.respond(to: prompts[0], options: pinned) { _ in order.withLock { $0.append("first") } }
      .makeAsyncIterator()
    _ = try await holder.next()
    var again = pinned
    again.maxNewTokens = 2
    let second = shared.respond(to: prompts[0], options: again) { _ in order.withLock { $0.append("second") } }
    let waiting = Task { try await Collected.from(second) }
    // The other slot is free, and an unpinned run takes it at once.
    let free = try await Collected.from(shared.respond(to: prompts[1], options: .init(maxNewTokens: 2)))
    #expect(free.stopReason == .maxTokens)
    while try await holder.next() != nil {}
    let result = try await waiting.value
    #expect(order.withLock { $0 } == ["first", "second"])
    // Slot 1 still held the first run's prompt.
    #expect((result.usage?.reusedPromptTokens ?? 0) > 0)

    var missing = pinned
    missing.slot = 2
    let refusal = await #expect(throws: LlamaError.self) {
      _ = try await Collected.from(shared.respond(to: prompts[0], options: missing))
    }
    guard case .invalidParameter(let problem)? = refusal else {
      Issue.record("expected invalidParameter, got \(String(describing: refusal))")
      return
    }
    #expect(problem.name == "slot")
  }

  /// With every slot taken, a request someone waits on gets the next free slot before background work that
  /// asked earlier.
  @Test func peopleGoBeforeBackgroundWork() async throws {
    let shared = try await session(slots: 1)
    let order = Mutex<[String]>([])
    let long = GenerationOptions(maxNewTokens: 40, sampling: .greedy, ignoresEndOfGeneration: true)
    var holder = shared.respond(to: prompts[0], options: long).makeAsyncIterator()
    _ = try await holder.next()
    var background = GenerationOptions(maxNewTokens: 4, sampling: .greedy, ignoresEndOfGeneration: true)
    background.isBackground = true
    let later = background.with { $0.isBackground = false }
    let queued = [("background", background), ("person", later)].map { name, options in
      // Asked in this order, one after the other: the background request first.
      let stream = shared.respond(to: prompts[2], options: options) { _ in order.withLock { $0.append(name) } }
      return Task { try await Collected.from(stream) }
    }
    while try await holder.next() != nil {}
    for task in queued { _ = try await task.value }
    #expect(order.withLock { $0 } == ["person", "background"])
  }
}

extension GenerationOptions {
  fileprivate func with(_ change: (inout GenerationOptions) -> Void) -> GenerationOptions {
    var copy = self
    change(&copy)
    return copy
  }
}
