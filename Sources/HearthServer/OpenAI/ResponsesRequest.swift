import Foundation
import HearthCore

/// The body of `POST /v1/responses` (OpenAI's Responses API): text input or messages, `instructions`,
/// `max_output_tokens`, `temperature`, `top_p`, `text.format`, `stream`, `store` and `previous_response_id`.
/// Anything else (tools, reasoning, images, metadata, …) is refused by name.
struct ResponsesRequest: StrictInput {
  var model: String?
  var input: JSONValue
  var instructions: String?
  var maxOutputTokens: Int?
  var temperature: Double?
  var topP: Double?
  var stream: Bool?
  var store: Bool?
  var previousResponseID: String?
  var text: TextOptions?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case model, input, instructions, temperature, stream, store, text
    case maxOutputTokens = "max_output_tokens"
    case topP = "top_p"
    case previousResponseID = "previous_response_id"
  }

  static var nested: [String: Set<String>] { ["text": ["format"]] }

  struct TextOptions: Decodable {
    var format: Format?
  }

  /// `text.format`: `text`, `json_object`, or `json_schema` with the schema beside the type.
  struct Format: Decodable {
    var type: String
    var name: String?
    var schema: JSONValue?
    var strict: Bool?
    var description: String?
  }

  /// Whether the response is kept for a later `previous_response_id` (OpenAI's default: yes).
  var keeps: Bool { store ?? true }

  /// The new turn's messages: a text is one user message; a list holds messages whose content is text or
  /// `input_text`/`output_text` parts.
  /// - Throws: ``APIError`` naming the item or part that is not text, or an unknown role.
  func inputMessages() throws -> [ChatMessage] {
    if let text = input.stringValue {
      guard !text.isEmpty else { throw APIError.invalidRequest("input is empty", parameter: "input") }
      return [.user(text)]
    }
    guard let items = input.arrayValue, !items.isEmpty else {
      throw APIError.invalidRequest("input must be a text or a non-empty list of messages", parameter: "input")
    }
    return try items.enumerated().map { index, item in try Self.message(item, place: "input[\(index)]") }
  }

  private static func message(_ item: JSONValue, place: String) throws -> ChatMessage {
    let allowed: Set<String> = ["type", "role", "content", "id", "status"]
    guard let members = item.objectMembers else {
      throw APIError.invalidRequest("\(place) must be a message object", parameter: place)
    }
    if let unknown = members.map(\.key).sorted().first(where: { !allowed.contains($0) }) {
      throw APIError.invalidRequest("\(place).\(unknown) is not supported", parameter: "\(place).\(unknown)")
    }
    if let type = item["type"]?.stringValue, type != "message" {
      throw APIError.invalidRequest(
        "\(place).type \"\(type)\" is not supported: only messages (tools are not offered here)",
        parameter: "\(place).type")
    }
    let role: ChatMessage.Role
    switch item["role"]?.stringValue {
    case "user": role = .user
    case "assistant": role = .assistant
    case "system", "developer": role = .system
    default:
      throw APIError.invalidRequest(
        "\(place).role must be user, assistant, system or developer", parameter: "\(place).role")
    }
    return ChatMessage(role: role, content: try text(of: item["content"], place: "\(place).content"))
  }

  private static func text(of content: JSONValue?, place: String) throws -> String {
    if let text = content?.stringValue { return text }
    guard let parts = content?.arrayValue else {
      throw APIError.invalidRequest("\(place) must be a text or a list of text parts", parameter: place)
    }
    return try parts.enumerated().map { index, part in
      guard ["input_text", "output_text"].contains(part["type"]?.stringValue ?? ""),
        let text = part["text"]?.stringValue
      else {
        throw APIError.invalidRequest(
          "\(place)[\(index)] is not a text part; this model reads text only", parameter: "\(place)[\(index)]")
      }
      return text
    }.joined(separator: "\n")
  }

  /// Generation options: the request's values over the user's saved settings.
  /// - Throws: ``APIError`` naming an out-of-range value or an unusable `text.format`.
  func generationOptions(defaults: ChatSettings) throws -> GenerationOptions {
    var options = defaults.generationOptions
    try options.apply(maxTokens: maxOutputTokens, named: "max_output_tokens", temperature: temperature, topP: topP)
    if let format = text?.format {
      switch format.type {
      case "text": break
      case "json_object": options.grammar = JSONSchemaGrammar.anyObject
      case "json_schema":
        guard let schema = format.schema else {
          throw APIError.invalidRequest("text.format.schema is required", parameter: "text.format.schema")
        }
        options.grammar = try SamplingRequest.schemaGrammar(schema, parameter: "text.format.schema")
      default:
        throw APIError.invalidRequest(
          "text.format.type \"\(format.type)\" is not supported; use text, json_object or json_schema",
          parameter: "text.format.type")
      }
    }
    do {
      try options.validate()
    } catch {
      throw APIError.invalidRequest("\(error)")
    }
    return options
  }
}
