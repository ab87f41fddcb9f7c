import Foundation
import HearthCore

/// A message as Anthropic's Messages API returns it: its content blocks (text, and a tool call when the model
/// made one), why it stopped and what it used.
struct MessageObject: Encodable {
  enum Block: Encodable {
    case text(String)
    case toolUse(id: String, name: String, input: JSONValue)

    enum CodingKeys: String, CodingKey { case type, text, id, name, input }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .text(let text):
        try container.encode("text", forKey: .type)
        try container.encode(text, forKey: .text)
      case .toolUse(let id, let name, let input):
        try container.encode("tool_use", forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(input, forKey: .input)
      }
    }
  }

  struct Usage: Encodable {
    var inputTokens: Int
    var outputTokens: Int

    enum CodingKeys: String, CodingKey {
      case inputTokens = "input_tokens"
      case outputTokens = "output_tokens"
    }
  }

  var id: String
  var type = "message"
  var role = "assistant"
  var model: String
  var content: [Block]
  var stopReason: String?
  var stopSequence: String?
  var usage: Usage

  enum CodingKeys: String, CodingKey {
    case id, type, role, model, content, usage
    case stopReason = "stop_reason"
    case stopSequence = "stop_sequence"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(type, forKey: .type)
    try container.encode(role, forKey: .role)
    try container.encode(model, forKey: .model)
    try container.encode(content, forKey: .content)
    // Anthropic's clients expect these keys present, null until the answer ends.
    try container.encode(stopReason, forKey: .stopReason)
    try container.encode(stopSequence, forKey: .stopSequence)
    try container.encode(usage, forKey: .usage)
  }

  /// The answer's blocks and its stop reason: each tool call (when tools were offered and the model wrote
  /// some) is a `tool_use` block, after any text before them.
  static func blocks(
    of outcome: CompletionRun.Outcome, toolCalls: Int
  ) -> (blocks: [Block], stopReason: String, stopSequence: String?) {
    if toolCalls > 0, let (text, calls) = ToolPlan.extract(outcome.content, limit: toolCalls) {
      let uses = calls.map { call -> Block in
        let input =
          (try? JSONDecoder().decode(JSONValue.self, from: Data(call.function.arguments.utf8))) ?? .object([])
        return .toolUse(id: "toolu_" + call.id.dropFirst("call_".count), name: call.function.name, input: input)
      }
      return ((text.map { [.text($0)] } ?? []) + uses, "tool_use", nil)
    }
    let reason =
      outcome.stopSequence != nil ? "stop_sequence" : outcome.finishReason == "length" ? "max_tokens" : "end_turn"
    return ([.text(outcome.content)], reason, outcome.stopSequence)
  }
}

/// One event of a streamed message, named by its `type` as the `event:` line names it.
struct MessageStreamEvent: Encodable {
  var type: String
  var message: MessageObject?
  var index: Int?
  var contentBlock: MessageObject.Block?
  var delta: Delta?
  var usage: MessageObject.Usage?

  struct Delta: Encodable {
    var type: String?
    var text: String?
    var partialJSON: String?
    var stopReason: String?
    var stopSequence: String?
    /// `message_delta` carries both keys, null or not.
    var closesMessage = false

    enum CodingKeys: String, CodingKey {
      case type, text
      case partialJSON = "partial_json"
      case stopReason = "stop_reason"
      case stopSequence = "stop_sequence"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(type, forKey: .type)
      try container.encodeIfPresent(text, forKey: .text)
      try container.encodeIfPresent(partialJSON, forKey: .partialJSON)
      if closesMessage {
        try container.encode(stopReason, forKey: .stopReason)
        try container.encode(stopSequence, forKey: .stopSequence)
      }
    }
  }

  enum CodingKeys: String, CodingKey {
    case type, message, index, delta, usage
    case contentBlock = "content_block"
  }
}

/// The body of `count_tokens`' answer.
struct TokenCount: Encodable {
  var inputTokens: Int
  enum CodingKeys: String, CodingKey { case inputTokens = "input_tokens" }
}
