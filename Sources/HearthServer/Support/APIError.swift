import Foundation
public import HTTPTypes
import HearthCore
public import Hummingbird
import NIOCore

/// An error answered in the shape OpenAI's clients understand:
/// `{"error": {"message": …, "type": …, "param": …, "code": …}}`. Every route of the server uses it.
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
  public var status: HTTPResponse.Status
  public var message: String
  public var type: String
  public var parameter: String?
  public var code: String?
  /// Figures a client may branch on besides the code, written into the error object (the prompt's tokens and
  /// the context's size for `context_length_exceeded`, as the llama.cpp server sends them).
  public var figures: [String: Int] = [:]
  /// Seconds after which the same request may succeed, sent as `Retry-After`.
  public var retryAfter: Int?

  public init(
    _ status: HTTPResponse.Status, _ message: String, type: String? = nil, parameter: String? = nil,
    code: String? = nil
  ) {
    self.status = status
    self.message = message
    self.type = type ?? Self.defaultType(for: status)
    self.parameter = parameter
    self.code = code
  }

  public var description: String { "\(status.code) \(message)" }

  /// A request whose content is wrong.
  public static func invalidRequest(_ message: String, parameter: String? = nil) -> APIError {
    APIError(.badRequest, message, parameter: parameter)
  }

  /// A prompt longer than the model's context: OpenAI's code, the llama.cpp server's type and figures.
  public static func contextLengthExceeded(promptTokens: Int, contextSize: Int, parameter: String) -> APIError {
    var error = APIError(
      .badRequest, "the prompt is \(promptTokens) tokens; the model's context holds \(contextSize)",
      type: "exceed_context_size_error", parameter: parameter, code: "context_length_exceeded")
    error.figures = ["n_prompt_tokens": promptTokens, "n_ctx": contextSize]
    return error
  }

  /// Too many requests already wait for the model.
  public static var queueFull: APIError {
    APIError(
      .tooManyRequests, "too many requests are waiting for the model; try again shortly", code: "rate_limit_exceeded")
  }

  /// Something that does not exist.
  public static func notFound(_ message: String) -> APIError {
    APIError(.notFound, message, code: "not_found")
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    if AnthropicErrorBody.applies(to: request.uri.path) {
      var response = try JSONResponse.make(AnthropicErrorBody(self), status: status)
      if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
      return response
    }
    let body = Body(
      error: .init(message: message, type: type, param: parameter, code: code, figures: figures))
    var response = try JSONResponse.make(body, status: status)
    if status == .unauthorized {
      // A calendar app asks for a user name and password only when challenged for them.
      response.headers[.wwwAuthenticate] =
        DAVPath.applies(to: request.uri.path) || (request.uri.path == "/" && request.method.rawValue == "PROPFIND")
        ? "Basic realm=\"Hearth\", charset=\"UTF-8\"" : "Bearer"
    }
    if let retryAfter { response.headers[.retryAfter] = "\(retryAfter)" }
    return response
  }

  private struct Body: Encodable {
    struct Detail: Encodable {
      var message: String
      var type: String
      var param: String?
      var code: String?
      var figures: [String: Int]

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldName.self)
        try container.encode(message, forKey: FieldName("message"))
        try container.encode(type, forKey: FieldName("type"))
        // OpenAI's clients expect these keys present, null when unused.
        try container.encode(param, forKey: FieldName("param"))
        try container.encode(code, forKey: FieldName("code"))
        for (name, value) in figures.sorted(by: { $0.key < $1.key }) {
          try container.encode(value, forKey: FieldName(name))
        }
      }
    }
    var error: Detail
  }

  private static func defaultType(for status: HTTPResponse.Status) -> String {
    switch status.code {
    case 401: "authentication_error"
    case 403: "permission_error"
    case 404: "not_found_error"
    case 429: "rate_limit_error"
    case 400..<500: "invalid_request_error"
    default: "server_error"
    }
  }
}

/// JSON bodies out, for the OpenAI and Anthropic APIs: their types spell each key as those APIs do.
enum JSONResponse {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }()

  static func make(
    _ value: some Encodable, status: HTTPResponse.Status = .ok, encoder: JSONEncoder = encoder
  ) throws -> Response {
    let data = try encoder.encode(value)
    return Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  static func encodedLine(_ value: some Encodable, encoder: JSONEncoder = encoder) -> String {
    (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}

/// JSON bodies out for the web app's own API (`/api/…`): every key in snake_case, as the CLI's `--json`
/// writes them, whatever the Swift names of the types carried; data inside them (a payload, a tool's schema)
/// keeps its keys as written.
enum AppJSON {
  static let encoder: JSONEncoder = {
    let encoder = SnakeCaseJSON.encoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }()

  static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    try JSONResponse.make(value, status: status, encoder: encoder)
  }

  static func encodedLine(_ value: some Encodable) -> String {
    JSONResponse.encodedLine(value, encoder: encoder)
  }
}

/// Reading a request body within the size limit and decoding it.
enum RequestReader {
  /// The whole body, refused with 413 beyond `limit` bytes.
  static func bytes(of request: Request, limit: Int) async throws -> Data {
    Data(try await body(request, limit: limit).readableBytesView)
  }

  /// The whole body as NIO bytes, refused with 413 beyond `limit` bytes.
  static func buffer(of request: Request, limit: Int) async throws -> ByteBuffer {
    try await body(request, limit: limit)
  }

  private static func body(_ request: Request, limit: Int) async throws -> ByteBuffer {
    do {
      return try await request.body.collect(upTo: limit)
    } catch is NIOTooManyBytesError {
      throw APIError(
        .contentTooLarge, "the request body is larger than the limit of \(limit) bytes", code: "body_too_large")
    }
  }

  /// - Parameter what: how a body that does not decode is named in the error.
  static func decode<Value: Decodable>(
    _ type: Value.Type, from request: Request, limit: Int, what: String = "the request body is not valid"
  ) async throws -> Value {
    try decode(type, from: try await bytes(of: request, limit: limit), what: what)
  }

  /// Decodes a JSON body already read, refusing an empty one.
  static func decode<Value: Decodable>(
    _ type: Value.Type, from data: Data, what: String = "the request body is not valid"
  ) throws -> Value {
    guard !data.isEmpty else {
      throw APIError.invalidRequest("the request body is empty; JSON was expected")
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    do {
      return try decoder.decode(Value.self, from: data)
    } catch let error as DecodingError {
      // A number that does not fit its field is named too (Foundation calls it malformed JSON, naming nothing).
      let placed = DecodingFailure.located(error, decoding: Value.self, from: data, with: decoder)
      throw APIError.invalidRequest(
        "\(what): \(DecodingFailure.describe(placed))", parameter: DecodingFailure.field(placed))
    }
  }
}

/// A JSON field named at run time.
struct FieldName: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }

  /// Refuses an object with a field not among `known`, naming it by its place (`messages[2].name`).
  static func refuseUnknown(in decoder: any Decoder, known: Set<String>, place: String) throws {
    let keys = try decoder.container(keyedBy: FieldName.self).allKeys.map(\.stringValue)
    if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
      let index = decoder.codingPath.last?.intValue.map { "[\($0)]" } ?? ""
      throw APIError.invalidRequest(
        "\(place)\(index).\(unknown) is not supported here", parameter: "\(place)\(index).\(unknown)")
    }
  }
}

extension APIError {
  /// Refuses (409) a change to a setting whose `source` is the environment: a value saved through the API would
  /// be passed over at the next start, so the variable that set it is named instead.
  static func refuseChangeOfEnvironmentSetting(_ setting: String, source: String, variable: String) throws {
    guard source == "environment" else { return }
    throw APIError(.conflict, "\(setting) is set by \(variable); unset it to choose one here")
  }
}
