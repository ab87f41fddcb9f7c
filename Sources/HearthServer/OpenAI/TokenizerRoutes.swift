import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The llama.cpp server's tokenizer routes, with the model's own vocabulary and template: `POST /tokenize`,
/// `/detokenize`, `/apply-template` and `/chat/completions/input_tokens` (each also under `/v1`).
struct TokenizerRoutes<Context: ChannelRequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("tokenize") { request, context in try await self.tokenize(request, context: context) }
    router.post("detokenize") { request, context in
      try await self.detokenize(request, context: context)
    }
    router.post("apply-template") { request, context in
      try await self.applyTemplate(request, context: context)
    }
    router.post("chat/completions/input_tokens") { request, context in
      try await self.inputTokens(request, context: context)
    }
  }

  private func tokenize(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      TokenizeInput.self, from: request, limit: configuration.maxBodyBytes)
    let vocabulary = try await self.vocabulary(context: context)
    let tokens: [Int32]
    do {
      tokens = try vocabulary.tokenize(
        body.content, addSpecial: body.addSpecial ?? false, parseSpecial: body.parseSpecial ?? true)
    } catch {
      throw APIError.invalidRequest("the text cannot be tokenized: \(error)", parameter: "content")
    }
    guard body.withPieces == true else { return try JSONResponse.make(TokenList(tokens: tokens.map(Int.init))) }
    let pieces = tokens.map { token in
      let bytes = vocabulary.pieceBytes(of: token)
      let text = String(validating: bytes, as: UTF8.self)
      return TokenPiece(id: Int(token), piece: text.map(PieceText.text) ?? .bytes(bytes))
    }
    return try JSONResponse.make(PieceList(tokens: pieces))
  }

  private func detokenize(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      DetokenizeInput.self, from: request, limit: configuration.maxBodyBytes)
    let vocabulary = try await self.vocabulary(context: context)
    if let (index, token) = body.tokens.enumerated().first(where: { $0.1 < 0 || $0.1 >= vocabulary.tokenCount }) {
      throw APIError.invalidRequest(
        "tokens[\(index)] is \(token); this model's token ids run from 0 to \(vocabulary.tokenCount - 1)",
        parameter: "tokens[\(index)]")
    }
    let bytes = body.tokens.flatMap { vocabulary.pieceBytes(of: Int32($0)) }
    return try JSONResponse.make(DetokenizedText(content: String(decoding: bytes, as: UTF8.self)))
  }

  private func applyTemplate(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      TemplateInput.self, from: request, limit: configuration.maxBodyBytes)
    let messages = try ChatCompletionRequest.conversation(body.messages)
    let vocabulary = try await self.vocabulary(context: context)
    do {
      return try JSONResponse.make(RenderedPrompt(prompt: try vocabulary.prompt(for: messages)))
    } catch {
      throw APIError.invalidRequest(
        "the conversation cannot be formatted for this model: \(error)", parameter: "messages")
    }
  }

  private func inputTokens(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      TemplateInput.self, from: request, limit: configuration.maxBodyBytes)
    let messages = try ChatCompletionRequest.conversation(body.messages)
    let vocabulary = try await self.vocabulary(context: context)
    do {
      let count = try vocabulary.tokenize(
        try vocabulary.prompt(for: messages), addSpecial: true, parseSpecial: true
      ).count
      return try JSONResponse.make(InputTokens(inputTokens: count))
    } catch {
      throw APIError.invalidRequest(
        "the conversation cannot be formatted for this model: \(error)", parameter: "messages")
    }
  }

  /// The chosen model's vocabulary: at once when the model (or its tokenizer) is in memory; else the request
  /// waits its turn for the model to be loaded.
  private func vocabulary(context: Context) async throws -> any ModelVocabulary {
    let engine = dependencies.engine
    if let vocabulary = try engine.requireModel().vocabulary { return vocabulary }
    guard await engine.queueDepth < configuration.maxQueuedRequests else { throw APIError.queueFull }
    let loaded = try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
      try await engine.withModel { $0.vocabulary }
    }
    guard let vocabulary = loaded else {
      throw APIError(
        .notImplemented, "the model in use has no local vocabulary to tokenize with", code: "not_supported")
    }
    return vocabulary
  }
}

struct TokenizeInput: StrictInput {
  var content: String
  var addSpecial: Bool?
  var parseSpecial: Bool?
  var withPieces: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case content
    case addSpecial = "add_special"
    case parseSpecial = "parse_special"
    case withPieces = "with_pieces"
  }
}

struct DetokenizeInput: StrictInput {
  var tokens: [Int]
  enum CodingKeys: String, CodingKey, CaseIterable { case tokens }
}

struct TemplateInput: StrictInput {
  var messages: [ChatCompletionRequest.Message]
  enum CodingKeys: String, CodingKey, CaseIterable { case messages }
}

struct TokenList: Encodable { var tokens: [Int] }
struct PieceList: Encodable { var tokens: [TokenPiece] }

/// A token with its text, or its bytes when they are not whole UTF-8 characters, as the llama.cpp server
/// writes them.
struct TokenPiece: Encodable {
  var id: Int
  var piece: PieceText
}

enum PieceText: Encodable {
  case text(String)
  case bytes([UInt8])

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let text): try container.encode(text)
    case .bytes(let bytes): try container.encode(bytes)
    }
  }
}

struct DetokenizedText: Encodable { var content: String }
struct RenderedPrompt: Encodable { var prompt: String }

struct InputTokens: Encodable {
  var inputTokens: Int
  enum CodingKeys: String, CodingKey { case inputTokens = "input_tokens" }
}
