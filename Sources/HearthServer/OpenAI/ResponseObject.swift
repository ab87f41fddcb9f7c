import Foundation

/// A `response` object of OpenAI's Responses API, with one assistant message of text as its output.
struct ResponseObject: Encodable {
  var id: String
  var object = "response"
  var createdAt: Int
  var status: String
  var incompleteReason: String?
  var instructions: String?
  var maxOutputTokens: Int?
  var model: String
  var output: [OutputMessage]
  var previousResponseID: String?
  var store: Bool
  var temperature: Double
  var topP: Double
  var format: JSONFormat
  var usage: ResponseUsage?

  /// `text.format` as it was asked for, echoed back.
  enum JSONFormat: Encodable {
    case text
    case jsonObject
    case jsonSchema(ResponsesRequest.Format)

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: FieldName.self)
      switch self {
      case .text: try container.encode("text", forKey: FieldName("type"))
      case .jsonObject: try container.encode("json_object", forKey: FieldName("type"))
      case .jsonSchema(let format):
        try container.encode("json_schema", forKey: FieldName("type"))
        try container.encodeIfPresent(format.name, forKey: FieldName("name"))
        try container.encodeIfPresent(format.schema, forKey: FieldName("schema"))
        try container.encodeIfPresent(format.strict, forKey: FieldName("strict"))
        try container.encodeIfPresent(format.description, forKey: FieldName("description"))
      }
    }

    init(_ format: ResponsesRequest.Format?) {
      switch format?.type {
      case "json_object": self = .jsonObject
      case "json_schema": self = format.map(JSONFormat.jsonSchema) ?? .text
      default: self = .text
      }
    }
  }

  struct OutputMessage: Encodable {
    var type = "message"
    var id: String
    var status: String
    var role = "assistant"
    var content: [OutputText]
  }

  struct OutputText: Encodable {
    var type = "output_text"
    var text: String
    var annotations: [String] = []
  }

  struct ResponseUsage: Encodable {
    var inputTokens: Int
    var cachedTokens: Int
    var outputTokens: Int

    enum CodingKeys: String, CodingKey {
      case inputTokens = "input_tokens"
      case inputTokensDetails = "input_tokens_details"
      case outputTokens = "output_tokens"
      case outputTokensDetails = "output_tokens_details"
      case totalTokens = "total_tokens"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(inputTokens, forKey: .inputTokens)
      try container.encode(["cached_tokens": cachedTokens], forKey: .inputTokensDetails)
      try container.encode(outputTokens, forKey: .outputTokens)
      try container.encode(["reasoning_tokens": 0], forKey: .outputTokensDetails)
      try container.encode(inputTokens + outputTokens, forKey: .totalTokens)
    }
  }

  private struct Incomplete: Encodable { var reason: String }
  private struct TextOptions: Encodable { var format: JSONFormat }

  enum CodingKeys: String, CodingKey {
    case id, object, status, error, instructions, model, output, store, temperature, text, tools, truncation
    case usage, metadata
    case createdAt = "created_at"
    case incompleteDetails = "incomplete_details"
    case maxOutputTokens = "max_output_tokens"
    case parallelToolCalls = "parallel_tool_calls"
    case previousResponseID = "previous_response_id"
    case toolChoice = "tool_choice"
    case topP = "top_p"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(object, forKey: .object)
    try container.encode(createdAt, forKey: .createdAt)
    try container.encode(status, forKey: .status)
    try container.encodeNil(forKey: .error)
    try container.encode(incompleteReason.map(Incomplete.init), forKey: .incompleteDetails)
    try container.encode(instructions, forKey: .instructions)
    try container.encode(maxOutputTokens, forKey: .maxOutputTokens)
    try container.encode(model, forKey: .model)
    try container.encode(output, forKey: .output)
    try container.encode(false, forKey: .parallelToolCalls)
    try container.encode(previousResponseID, forKey: .previousResponseID)
    try container.encode(store, forKey: .store)
    try container.encode(temperature, forKey: .temperature)
    try container.encode(TextOptions(format: format), forKey: .text)
    try container.encode("none", forKey: .toolChoice)
    try container.encode([String](), forKey: .tools)
    try container.encode(topP, forKey: .topP)
    try container.encode("disabled", forKey: .truncation)
    try container.encode(usage, forKey: .usage)
    try container.encode([String: String](), forKey: .metadata)
  }
}

/// One event of a streamed response, as OpenAI documents them: `type`, `sequence_number` and the event's
/// own fields.
struct ResponseEvent: Encodable {
  var type: String
  var sequenceNumber: Int
  var response: ResponseObject?
  var outputIndex: Int?
  var contentIndex: Int?
  var itemID: String?
  var item: ResponseObject.OutputMessage?
  var part: ResponseObject.OutputText?
  var delta: String?
  var text: String?
  /// Text events carry an empty list: log probabilities are not offered through this API.
  var logprobs: [String]?

  enum CodingKeys: String, CodingKey {
    case type, response, item, part, delta, text, logprobs
    case sequenceNumber = "sequence_number"
    case outputIndex = "output_index"
    case contentIndex = "content_index"
    case itemID = "item_id"
  }
}
