import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// `POST /v1/embeddings` in OpenAI's shape: a string or an array of strings in, one L2-normalised vector per
/// input out (floats, or base64 of little-endian float32), with the tokens read as usage.
struct EmbeddingsRoute<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  /// Most inputs in one request, as OpenAI allows.
  static var maxInputs: Int { 2048 }

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("embeddings") { request, _ in try await self.embeddings(request) }
  }

  private func embeddings(_ request: Request) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      EmbeddingRequest.self, from: request, limit: configuration.maxBodyBytes)
    let embedder = dependencies.engine.memory.embedder
    // No model named means the one embedding model, as the llama.cpp server takes it.
    if let model = body.model, !configuration.answersAnyModelName {
      let wanted = ModelName.stem(model)
      guard !wanted.isEmpty, ModelName.stem(embedder.name).hasPrefix(wanted) else {
        throw APIError(
          .notFound, "the model \"\(model)\" is not an embedding model here; this server embeds with \(embedder.name)",
          parameter: "model", code: "model_not_found")
      }
    }
    let texts = try body.input.texts()
    guard !texts.isEmpty, texts.count <= Self.maxInputs else {
      throw APIError.invalidRequest("input must hold 1 to \(Self.maxInputs) texts", parameter: "input")
    }
    let format = body.encodingFormat ?? .float
    let (vectors, tokens) = try await embedder.embedCounting(texts)
    if let dimensions = body.dimensions, dimensions != vectors.first?.count {
      throw APIError.invalidRequest(
        "dimensions \(dimensions) is not supported: \(embedder.name) gives \(vectors.first?.count ?? 0)",
        parameter: "dimensions")
    }
    let data = vectors.enumerated().map { index, vector in
      EmbeddingList.Item(
        index: index,
        embedding: format == .float ? .floats(vector) : .base64(vector.littleEndianBytes.base64EncodedString()))
    }
    return try JSONResponse.make(
      EmbeddingList(data: data, model: embedder.name, usage: .init(promptTokens: tokens, totalTokens: tokens)))
  }
}

struct EmbeddingRequest: StrictInput {
  enum Input: Decodable {
    case one(String)
    case many([String])
    case tokens

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .one(text)
      } else if let texts = try? container.decode([String].self) {
        self = .many(texts)
      } else if (try? container.decode([Int].self)) != nil || (try? container.decode([[Int]].self)) != nil {
        self = .tokens
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "expected a string or an array of strings")
      }
    }

    func texts() throws -> [String] {
      switch self {
      case .one(let text): return [text]
      case .many(let texts): return texts
      case .tokens:
        throw APIError.invalidRequest(
          "token arrays are not accepted as input; send the text (Hearth tokenizes with the model)", parameter: "input")
      }
    }
  }

  enum Format: String, Decodable {
    case float, base64
  }

  var input: Input
  var model: String?
  var encodingFormat: Format?
  var dimensions: Int?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case input, model, dimensions
    case encodingFormat = "encoding_format"
  }
}

struct EmbeddingList: Encodable {
  enum Vector: Encodable {
    case floats([Float])
    case base64(String)

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .floats(let values): try container.encode(values)
      case .base64(let text): try container.encode(text)
      }
    }
  }

  struct Item: Encodable {
    var object = "embedding"
    var index: Int
    var embedding: Vector
  }

  struct Usage: Encodable {
    var promptTokens: Int
    var totalTokens: Int

    enum CodingKeys: String, CodingKey {
      case promptTokens = "prompt_tokens"
      case totalTokens = "total_tokens"
    }
  }

  var object = "list"
  var data: [Item]
  var model: String
  var usage: Usage
}
