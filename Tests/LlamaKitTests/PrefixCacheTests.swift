import Foundation
import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Instruction prefixes kept on disk between sessions (SmolLM2, real llama.cpp)", .heavy)
struct PrefixCacheTests {
  private static let instructions =
    "You are a careful assistant. Answer in one short sentence. Never invent facts; say when you do not know. "
    + "Prefer plain words. When asked for a list, give at most three items. Dates are written as YYYY-MM-DD."

  private func session(keepingPrefixesIn folder: URL) async throws -> LlamaSession {
    try await LlamaSession.create(
      model: try await SharedModels.smolLM2(), options: ContextOptions(contextSize: 1024, prefixCacheDirectory: folder))
  }

  private func options(prefix: String? = instructions) -> GenerationOptions {
    var options = GenerationOptions(maxNewTokens: 12, sampling: .greedy)
    options.reusablePrefix = prefix
    return options
  }

  private func kept(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "kv" }
  }

  @Test func aNewSessionStartsAfterTheSavedPrefixAndAnswersTheSame() async throws {
    let folder = try TestModels.temporaryDirectory()
    let messages: [ChatMessage] = [.system(Self.instructions + "\n\nToday is Thursday."), .user("Name a colour.")]
    let first = try await Collected.from(session(keepingPrefixesIn: folder).respond(to: messages, options: options()))
    #expect(first.usage?.reusedPromptTokens == 0)
    #expect(try kept(in: folder).count == 1)

    // Another session (as another process would have) on another day's volatile part.
    let later: [ChatMessage] = [.system(Self.instructions + "\n\nToday is Friday."), .user("Name a colour.")]
    let fresh = try await session(keepingPrefixesIn: folder)
    let second = try await Collected.from(fresh.respond(to: later, options: options()))
    let usage = try #require(second.usage)
    #expect(usage.reusedPromptTokens > 30, "\(usage)")
    #expect(usage.prefilledTokens == usage.promptTokens - usage.reusedPromptTokens)
    // The restored state is the state the text gives: the answer is the one a session without the file gives
    // (evaluating the prompt in the same two parts, since batch boundaries move the last bits of a float).
    let computed = try await Collected.from(
      session(keepingPrefixesIn: try TestModels.temporaryDirectory()).respond(to: later, options: options()))
    #expect(computed.usage?.reusedPromptTokens == 0)
    #expect(second.text == computed.text)
    #expect(!second.text.isEmpty)
  }

  @Test func aDamagedFileIsRemovedAndThePrefixReadAgain() async throws {
    let folder = try TestModels.temporaryDirectory()
    let messages: [ChatMessage] = [.system(Self.instructions), .user("What is two and two?")]
    let first = try await Collected.from(session(keepingPrefixesIn: folder).respond(to: messages, options: options()))
    let file = try #require(try kept(in: folder).first)
    let bytes = try Data(contentsOf: file)
    try bytes.prefix(bytes.count / 3).write(to: file)

    let second = try await Collected.from(session(keepingPrefixesIn: folder).respond(to: messages, options: options()))
    #expect(second.usage?.reusedPromptTokens == 0)
    #expect(second.text == first.text)
    // Written again whole by the run that could not use it.
    #expect(try Data(contentsOf: file).count == bytes.count)
  }

  @Test func noFileIsKeptWithoutAPrefixOrForAPrefixThePromptDoesNotHold() async throws {
    let folder = try TestModels.temporaryDirectory()
    let session = try await session(keepingPrefixesIn: folder)
    let messages: [ChatMessage] = [.system(Self.instructions), .user("Hello")]
    _ = try await Collected.from(session.respond(to: messages, options: options(prefix: nil)))
    _ = try await Collected.from(session.respond(to: messages, options: options(prefix: "Text the prompt lacks.")))
    #expect(try kept(in: folder).isEmpty)
  }
}
