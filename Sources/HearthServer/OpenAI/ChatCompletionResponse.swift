import Foundation

/// `chat.completion` and `chat.completion.chunk` objects as OpenAI defines them.
struct ChatCompletion: Encodable {
  var id: String
  var object = "chat.completion"
  var created: Int
  var model: String
  var choices: [Choice]
  var usage: Usage
  var systemFingerprint: String? = nil

  struct Choice: Encodable {
    var index = 0
    var message: Message
    var finishReason: String
    var logprobs: String? = nil

    enum CodingKeys: String, CodingKey {
      case index, message, logprobs
      case finishReason = "finish_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(index, forKey: .index)
      try container.encode(message, forKey: .message)
      try container.encode(finishReason, forKey: .finishReason)
      try container.encodeNil(forKey: .logprobs)
    }
  }

  struct Message: Encodable {
    var role = "assistant"
    var content: String?
    var reasoningContent: String?
    var toolCalls: [ToolPlan.Call]?

    enum CodingKeys: String, CodingKey {
      case role, content
      case reasoningContent = "reasoning_content"
      case toolCalls = "tool_calls"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(role, forKey: .role)
      // OpenAI writes `content: null` beside tool calls.
      try container.encode(content, forKey: .content)
      try container.encodeIfPresent(reasoningContent, forKey: .reasoningContent)
      try container.encodeIfPresent(toolCalls, forKey: .toolCalls)
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, object, created, model, choices, usage
    case systemFingerprint = "system_fingerprint"
  }
}

struct ChatCompletionChunk: Encodable {
  var id: String
  var object = "chat.completion.chunk"
  var created: Int
  var model: String
  var choices: [Choice]
  var usage: Usage?

  struct Choice: Encodable {
    var index = 0
    var delta: Delta
    var finishReason: String?

    enum CodingKeys: String, CodingKey {
      case index, delta
      case finishReason = "finish_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(index, forKey: .index)
      try container.encode(delta, forKey: .delta)
      try container.encode(finishReason, forKey: .finishReason)
    }
  }

  struct Delta: Encodable {
    var role: String?
    var content: String?
    var reasoningContent: String?
    var toolCalls: [ToolCallDelta]?

    enum CodingKeys: String, CodingKey {
      case role, content
      case reasoningContent = "reasoning_content"
      case toolCalls = "tool_calls"
    }
  }

  /// A call in a stream: here whole, in one delta.
  struct ToolCallDelta: Encodable {
    var index = 0
    var id: String
    var type = "function"
    var function: ToolPlan.Call.Function
  }

  enum CodingKeys: String, CodingKey { case id, object, created, model, choices, usage }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(object, forKey: .object)
    try container.encode(created, forKey: .created)
    try container.encode(model, forKey: .model)
    try container.encode(choices, forKey: .choices)
    try container.encode(usage, forKey: .usage)
  }
}

struct Usage: Encodable {
  var promptTokens: Int
  var completionTokens: Int
  var totalTokens: Int { promptTokens + completionTokens }
  var promptTokensDetails: PromptDetails
  /// Hearth's timing figures, beside OpenAI's counts.
  var timings: Timings

  struct PromptDetails: Encodable {
    var cachedTokens: Int
    enum CodingKeys: String, CodingKey { case cachedTokens = "cached_tokens" }
  }

  struct Timings: Encodable {
    var timeToFirstTokenMs: Double?
    var promptTokensPerSecond: Double
    var generationTokensPerSecond: Double

    enum CodingKeys: String, CodingKey {
      case timeToFirstTokenMs = "time_to_first_token_ms"
      case promptTokensPerSecond = "prompt_tokens_per_second"
      case generationTokensPerSecond = "generation_tokens_per_second"
    }
  }

  enum CodingKeys: String, CodingKey {
    case promptTokens = "prompt_tokens"
    case completionTokens = "completion_tokens"
    case totalTokens = "total_tokens"
    case promptTokensDetails = "prompt_tokens_details"
    case timings
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(promptTokens, forKey: .promptTokens)
    try container.encode(completionTokens, forKey: .completionTokens)
    try container.encode(totalTokens, forKey: .totalTokens)
    try container.encode(promptTokensDetails, forKey: .promptTokensDetails)
    try container.encode(timings, forKey: .timings)
  }
}

struct ModelList: Encodable {
  var object = "list"
  var data: [Entry]

  struct Entry: Encodable {
    var id: String
    var object = "model"
    var created: Int
    var ownedBy = "hearth"

    enum CodingKeys: String, CodingKey {
      case id, object, created
      case ownedBy = "owned_by"
    }
  }
}
