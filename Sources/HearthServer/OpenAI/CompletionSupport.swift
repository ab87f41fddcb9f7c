import Foundation
import HTTPTypes
import HearthCore
import HearthEngine
import NIOCore

/// The events of one choice's text chunks: the templates' fast path for the usual chunk of one kind of
/// text, the encoder for the rare one that carries both, or log probabilities.
struct PieceEvents {
  let identity: CompletionIdentity
  let index: Int
  let content: DeltaChunkTemplate?
  let reasoning: DeltaChunkTemplate?

  init(identity: CompletionIdentity, index: Int) {
    self.identity = identity
    self.index = index
    content = DeltaChunkTemplate(identity: identity, index: index, field: .content)
    reasoning = DeltaChunkTemplate(identity: identity, index: index, field: .reasoning)
  }

  /// - Parameters:
  ///   - logprobs: whether they were asked for (then the piece's tokens go with it, even none).
  ///   - timings: the speed so far, when asked for.
  func event(_ piece: CompletionRun.Piece, logprobs: Bool, timings: StreamTimings? = nil) -> ByteBuffer {
    if !logprobs, timings == nil {
      if piece.reasoning.isEmpty, let content { return content.event(piece.content) }
      if piece.content.isEmpty, let reasoning { return reasoning.event(piece.reasoning) }
    }
    let chunk = identity.chunk(
      .init(
        content: piece.content.isEmpty ? nil : piece.content,
        reasoningContent: piece.reasoning.isEmpty ? nil : piece.reasoning),
      index: index, logprobs: logprobs ? ChoiceLogprobs(piece.logprobs) : nil, timings: timings)
    return ByteBuffer(string: "data: \(chunk)\n\n")
  }
}

/// The `{"error": …}` object sent inside a stream when generation fails after it started.
struct ErrorEnvelope: Encodable {
  struct Detail: Encodable {
    var message: String
    var type: String
    var code: String?
  }
  var error: Detail

  init(_ error: APIError) {
    self.error = Detail(message: error.message, type: error.type, code: error.code)
  }
}

/// What every chunk and the final object of one completion share.
struct CompletionIdentity {
  let id: String
  let created = Int(Date().timeIntervalSince1970)
  let model: String
  let promptTokens: Int
  let fingerprint: String

  /// - Parameter prefix: `chatcmpl` for chat completions, `cmpl` for text completions.
  init(prefix: String = "chatcmpl", model: String, promptTokens: Int, fingerprint: String) {
    id = prefix + "-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    self.model = model
    self.promptTokens = promptTokens
    self.fingerprint = fingerprint
  }

  init(prefix: String = "chatcmpl", model: any ChatModel, promptTokens: Int) {
    self.init(
      prefix: prefix, model: model.name, promptTokens: promptTokens, fingerprint: SystemFingerprint.of(model))
  }

  func chunk(
    _ delta: ChatCompletionChunk.Delta, index: Int = 0, finishReason: String? = nil, logprobs: ChoiceLogprobs? = nil,
    timings: StreamTimings? = nil, progress: PromptProgress? = nil
  ) -> String {
    JSONResponse.encodedLine(
      ChatCompletionChunk(
        id: id, created: created, model: model,
        choices: [.init(index: index, delta: delta, finishReason: finishReason, logprobs: logprobs)], usage: nil,
        systemFingerprint: fingerprint, timings: timings,
        promptProgress: progress.map(ChatCompletionChunk.ProgressReport.init)))
  }

  func usageChunk(_ outcomes: [CompletionRun.Outcome], timings: StreamTimings? = nil) -> String {
    JSONResponse.encodedLine(
      ChatCompletionChunk(
        id: id, created: created, model: model, choices: [], usage: usage(outcomes), systemFingerprint: fingerprint,
        timings: timings))
  }

  /// The figures of every choice together: the prompt once, the tokens of all answers, the first one's speed.
  func usage(_ outcomes: [CompletionRun.Outcome]) -> Usage {
    let figures = outcomes.first?.usage
    return Usage(
      promptTokens: figures?.promptTokens ?? promptTokens,
      completionTokens: outcomes.reduce(0) { $0 + ($1.usage?.generatedTokens ?? $1.pieces) },
      promptTokensDetails: .init(cachedTokens: figures?.reusedPromptTokens ?? 0),
      timings: .init(
        timeToFirstTokenMs: figures?.timeToFirstToken?.milliseconds,
        promptTokensPerSecond: figures?.prefillTokensPerSecond ?? 0,
        generationTokensPerSecond: figures?.generationTokensPerSecond ?? 0))
  }
}

/// `system_fingerprint`: which model file, context and server answered, so a client can tell when the
/// configuration behind the same model name changed. It starts with `b` (for build), as the llama.cpp
/// server's does.
enum SystemFingerprint {
  static func of(_ model: any ChatModel) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "hearth|\(model.name)|\(model.contextSize)|\(model.parameterCount ?? 0)".utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "b" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// How requests name models: case-insensitive, with or without the file's `.gguf`, by any leading part.
enum ModelName {
  static func stem(_ name: String) -> String {
    name.lowercased().replacingOccurrences(of: ".gguf", with: "")
  }
}

/// The checks every completion route (chat, text, Responses) makes before it answers, and how their failures
/// are told.
enum CompletionChecks {
  /// Refuses a prompt that leaves no room for an answer, with the figures clients branch on.
  static func checkFits(_ promptTokens: Int, model: any ChatModel, parameter: String) throws {
    guard promptTokens < model.contextSize else {
      throw APIError.contextLengthExceeded(
        promptTokens: promptTokens, contextSize: model.contextSize, parameter: parameter)
    }
  }

  /// Refuses what the model's vocabulary cannot honour — a grammar llama.cpp cannot read, a logit bias on a
  /// token it does not have — before anything is sent, rather than failing the answer.
  static func checkOptions(_ options: GenerationOptions, model: any ChatModel) throws {
    guard let vocabulary = model.vocabulary else { return }
    if let token = options.logitBias.keys.sorted().first(where: { Int($0) >= vocabulary.tokenCount }) {
      throw APIError.invalidRequest(
        "logit_bias names token \(token); this model's token ids run from 0 to \(vocabulary.tokenCount - 1)",
        parameter: "logit_bias")
    }
    guard let grammar = options.grammar else { return }
    do {
      try vocabulary.checkGrammar(grammar)
    } catch {
      throw APIError.invalidRequest("the grammar is not valid GBNF: \(error)", parameter: "grammar")
    }
  }

  /// The prompt's tokens, once the conversation fits the model's context (`parameter` names it when not) and
  /// the options are ones the model can honour.
  static func admit(
    _ messages: [ChatMessage], options: GenerationOptions, model: any ChatModel, parameter: String
  ) async throws -> Int {
    let promptTokens = try await countTokens(messages, model: model)
    try checkFits(promptTokens, model: model, parameter: parameter)
    try checkOptions(options, model: model)
    return promptTokens
  }

  static func countTokens(_ messages: [ChatMessage], model: any ChatModel) async throws -> Int {
    do {
      return try model.countTokens(messages)
    } catch {
      throw APIError.invalidRequest(
        "the conversation cannot be formatted for this model: \(error)", parameter: "messages")
    }
  }

  static func apiError(_ error: any Error) -> APIError {
    if let error = error as? APIError { return error }
    if error is CancellationError { return APIError(.init(code: 499), "the request was cancelled", code: "cancelled") }
    return APIError(.internalServerError, "generation failed: \(error)", code: "generation_failed")
  }
}
