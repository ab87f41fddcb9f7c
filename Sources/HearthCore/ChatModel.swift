/// A model a conversation can be sent to: a local GGUF model now, a remote server later.
public protocol ChatModel: Sendable {
  /// A short name for the model (its file name for a local model).
  var name: String { get }
  /// The context window in tokens.
  var contextSize: Int { get }
  /// Tokens of the prompt `messages` render to, counted with the model's own tokenizer and template.
  func countTokens(_ messages: [ChatMessage]) throws -> Int
  /// Streams the assistant's answer to `messages`; stopping the iteration cancels the generation.
  func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<
    GenerationEvent, any Error
  >
  /// Streams a continuation of `prompt`, the model's own token ids with no chat template around them
  /// (OpenAI's text completions).
  func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error>
  /// Returns once the generation started last has really ended, including one whose consumer stopped
  /// listening early (a stop sequence, a client that left): only then may the next one start.
  func settle() async
  /// The number of weights, when known.
  var parameterCount: UInt64? { get }
  /// Makes the model ready to count tokens and generate (loads it when it was unloaded); turns call it first,
  /// so a load's failure is the turn's error and the wait shows as the model loading.
  func prepare() async throws
  /// The model's own vocabulary and template, when it is on this machine (a remote model's is not known).
  var vocabulary: (any ModelVocabulary)? { get }
  /// Whether the model that would answer next is trusted to write an answer from facts found in the user's
  /// data (the look-up's second pass): by default, a model of at least a billion weights.
  func writesFromFacts() async -> Bool
}

/// The smallest local model trusted to write an answer from facts: the 135M default, given facts, invented
/// others (a phone number when no contact matched).
public let factWriterParameters: UInt64 = 1_000_000_000

extension ChatModel {
  public func writesFromFacts() async -> Bool {
    (parameterCount ?? 0) >= factWriterParameters
  }
}

/// A model's own tokenizer and chat template, for clients that work in tokens (`/tokenize`, logit bias).
public protocol ModelVocabulary: Sendable {
  /// How many tokens the vocabulary has; ids run from 0 below this.
  var tokenCount: Int { get }
  /// The tokens of `text`; `addSpecial` adds what starts a sequence (BOS), `parseSpecial` reads special-token
  /// text such as `<|im_start|>` as those tokens.
  func tokenize(_ text: String, addSpecial: Bool, parseSpecial: Bool) throws -> [Int32]
  /// The bytes a token stands for (part of a character, for some).
  func pieceBytes(of token: Int32) -> [UInt8]
  /// The prompt text `messages` render to with the model's chat template, ending where the answer starts.
  func prompt(for messages: [ChatMessage]) throws -> String
  /// Checks that `grammar` is GBNF llama.cpp can read (root rule `root`).
  func checkGrammar(_ grammar: String) throws
}

extension ChatModel {
  /// A model whose generations end when their streams do has nothing to wait for.
  public func settle() async {}

  /// Unknown unless the model says.
  public var parameterCount: UInt64? { nil }

  /// A model that is always ready has nothing to prepare.
  public func prepare() async throws {}

  /// Unknown unless the model says.
  public var vocabulary: (any ModelVocabulary)? { nil }

  /// Tokens of `text` alone (no template, no start-of-sequence), counted with the model's own tokenizer;
  /// `nil` when its vocabulary is not on this machine (a remote model), so the caller's estimate stands. Every
  /// wrapper of a local model (the router, the measuring one, a lane) reaches the tokenizer through it.
  public func countTokens(in text: String) -> Int? {
    guard let vocabulary else { return nil }
    do {
      return try vocabulary.tokenize(text, addSpecial: false, parseSpecial: false).count
    } catch {
      return nil
    }
  }

  /// The whole answer to `messages` as text, returned once its generation has really ended (``settle()``):
  /// the one collector for every caller that needs the text rather than its pieces as they come (a drafted
  /// block, a plain answer, a summary, a benchmark's reply).
  /// - Throws: what the generation throws, once it has settled.
  public func wholeAnswer(to messages: [ChatMessage], options: GenerationOptions) async throws -> String {
    var text = ""
    do {
      for try await event in generate(messages: messages, options: options) {
        if case .token(let piece) = event { text += piece }
      }
    } catch {
      await settle()
      throw error
    }
    await settle()
    return text
  }

  /// A model that only holds conversations cannot continue a raw prompt.
  public func complete(
    prompt: [Int32], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    AsyncThrowingStream { $0.finish(throwing: RawPromptUnsupported(model: name)) }
  }
}

/// A model that cannot continue a raw prompt (a remote one speaks in conversations).
public struct RawPromptUnsupported: Error, Sendable, CustomStringConvertible {
  /// The model's name.
  public var model: String
  public var description: String { "\(model) continues conversations only, not raw prompts" }
}

/// Which model answered: the one on this machine or a remote server.
public enum Provider: String, Sendable, Hashable, Codable, CaseIterable {
  case local
  case remote
}
