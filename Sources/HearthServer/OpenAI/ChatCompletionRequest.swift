import Foundation
import HearthCore

/// The body of `POST /v1/chat/completions`, as OpenAI's clients send it. Fields Hearth does not act on
/// (`frequency_penalty`, `user`, …) are accepted and ignored, as other compatible servers do; llama.cpp's
/// sampling extensions (`top_k`, `min_p`, `repeat_penalty`, `ignore_eos`) are honoured.
struct ChatCompletionRequest: Decodable {
  var model: String?
  var messages: [Message]
  var maxTokens: Int?
  var maxCompletionTokens: Int?
  var temperature: Double?
  var topP: Double?
  var seed: Int64?
  var stop: StopSequences?
  var stream: Bool?
  var streamOptions: StreamOptions?
  var responseFormat: ResponseFormat?
  var n: Int?
  /// llama.cpp's extension: keep generating past end-of-generation tokens (for benchmarks).
  var ignoreEOS: Bool?
  /// llama.cpp's sampling extensions, sent by clients written for its server.
  var topK: Int?
  var minP: Double?
  var repeatPenalty: Double?
  /// The caller's functions the model may call, and how it may.
  var tools: [ToolPlan.Definition]?
  var toolChoice: ToolPlan.Choice?
  /// Several calls in one answer are allowed by OpenAI's default; Hearth's answers make at most one, which
  /// that allows.
  var parallelToolCalls: Bool?

  enum CodingKeys: String, CodingKey {
    case model, messages, temperature, seed, stop, stream, n, tools
    case toolChoice = "tool_choice"
    case parallelToolCalls = "parallel_tool_calls"
    case ignoreEOS = "ignore_eos"
    case maxTokens = "max_tokens"
    case maxCompletionTokens = "max_completion_tokens"
    case topP = "top_p"
    case topK = "top_k"
    case minP = "min_p"
    case repeatPenalty = "repeat_penalty"
    case streamOptions = "stream_options"
    case responseFormat = "response_format"
  }

  struct Message: Decodable {
    var role: String
    var content: Content?
    var toolCalls: [ToolCallIn]?
    var toolCallID: String?

    enum CodingKeys: String, CodingKey {
      case role, content
      case toolCalls = "tool_calls"
      case toolCallID = "tool_call_id"
    }
  }

  /// A call an earlier answer made, sent back with the conversation.
  struct ToolCallIn: Decodable {
    struct Function: Decodable {
      var name: String
      var arguments: String
    }
    var id: String?
    var function: Function
  }

  /// The tools offered, checked; `nil` when none are.
  func toolPlan() throws -> ToolPlan? { try ToolPlan(tools: tools, choice: toolChoice) }

  /// Message content: a string, or a list of parts of which only text is understood.
  struct Content: Decodable {
    var text: String
    var hasNonTextParts = false

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self.text = text
        return
      }
      let parts = try container.decode([Part].self)
      text = parts.compactMap(\.text).joined(separator: "\n")
      hasNonTextParts = parts.contains { $0.type != "text" }
    }

    struct Part: Decodable {
      var type: String
      var text: String?
    }
  }

  /// `stop`: one string or up to four.
  struct StopSequences: Decodable {
    var values: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let single = try? container.decode(String.self) {
        values = [single]
      } else {
        values = try container.decode([String].self)
      }
    }
  }

  struct StreamOptions: Decodable {
    var includeUsage: Bool?
    enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
  }

  struct ResponseFormat: Decodable {
    var type: String
    var jsonSchema: JSONSchemaFormat?
    enum CodingKeys: String, CodingKey {
      case type
      case jsonSchema = "json_schema"
    }
  }

  struct JSONSchemaFormat: Decodable {
    var name: String?
    var schema: JSONValue?
    var strict: Bool?
  }

  /// The conversation as the model sees it.
  /// - Throws: ``APIError`` for an empty conversation, an unknown role or content Hearth cannot read.
  func chatMessages() throws -> [ChatMessage] {
    guard !messages.isEmpty else { throw APIError.invalidRequest("messages must not be empty", parameter: "messages") }
    var names: [String: String] = [:]
    var converted = try messages.enumerated().map { index, message in
      let parameter = "messages[\(index)]"
      if message.content?.hasNonTextParts == true {
        throw APIError.invalidRequest(
          "\(parameter).content has non-text parts; this model reads text only", parameter: "\(parameter).content")
      }
      let text = message.content?.text ?? ""
      switch message.role {
      case "system", "developer": return ChatMessage(role: .system, content: text)
      case "user": return ChatMessage(role: .user, content: text)
      case "assistant":
        // Earlier calls go back to the model in the shape it writes them.
        let calls = (message.toolCalls ?? []).map { call -> String in
          if let id = call.id { names[id] = call.function.name }
          return "<tool_call>{\"name\":\"\(call.function.name)\",\"arguments\":\(call.function.arguments)}</tool_call>"
        }
        return ChatMessage(role: .assistant, content: ([text] + calls).filter { !$0.isEmpty }.joined(separator: "\n"))
      case "tool":
        guard let id = message.toolCallID else {
          throw APIError.invalidRequest(
            "\(parameter).tool_call_id is required for a tool message", parameter: "\(parameter).tool_call_id")
        }
        return ChatMessage(role: .user, content: "Result of \(names[id] ?? id): \(text)")
      default:
        throw APIError.invalidRequest(
          "\(parameter).role \"\(message.role)\" is not supported; use system, developer, user, assistant or tool",
          parameter: "\(parameter).role")
      }
    }
    if let plan = try toolPlan(), plan.active {
      if let first = converted.first, first.role == .system {
        converted[0] = ChatMessage(role: .system, content: first.content + "\n\n" + plan.instructions)
      } else {
        converted.insert(ChatMessage(role: .system, content: plan.instructions), at: 0)
      }
    }
    return converted
  }

  /// Generation options: the request's values over the user's saved settings.
  /// - Throws: ``APIError`` for out-of-range values or an unusable `response_format`.
  func generationOptions(defaults: ChatSettings) throws -> GenerationOptions {
    guard (n ?? 1) == 1 else { throw APIError.invalidRequest("only n = 1 is supported", parameter: "n") }
    var options = defaults.generationOptions
    if let limit = maxCompletionTokens ?? maxTokens {
      guard limit > 0 else { throw APIError.invalidRequest("max_tokens must be positive", parameter: "max_tokens") }
      options.maxNewTokens = limit
    }
    if let temperature {
      guard (0...2).contains(temperature) else {
        throw APIError.invalidRequest("temperature must be between 0 and 2", parameter: "temperature")
      }
      options.sampling.temperature = temperature
    }
    if let topP {
      guard topP > 0, topP <= 1 else { throw APIError.invalidRequest("top_p must be in (0, 1]", parameter: "top_p") }
      options.sampling.topP = topP
    }
    if let topK { options.sampling.topK = topK }
    if let minP { options.sampling.minP = minP }
    if let repeatPenalty { options.sampling.repeatPenalty = repeatPenalty }
    if let seed {
      options.sampling.seed = UInt32(truncatingIfNeeded: seed)
    }
    if let stop, stop.values.count > 4 {
      throw APIError.invalidRequest("stop takes at most 4 sequences", parameter: "stop")
    }
    options.ignoresEndOfGeneration = ignoreEOS ?? false
    options.grammar = try grammar()
    if let plan = try toolPlan(), plan.active {
      guard options.grammar == nil else {
        throw APIError.invalidRequest(
          "response_format cannot be combined with tools; use tool_choice none or drop response_format",
          parameter: "response_format")
      }
      let (grammar, trigger) = try plan.grammar()
      options.grammar = grammar
      options.grammarTrigger = trigger
    }
    do {
      try options.validate()
    } catch {
      throw APIError.invalidRequest("\(error)")
    }
    return options
  }

  private func grammar() throws -> String? {
    guard let responseFormat else { return nil }
    switch responseFormat.type {
    case "text": return nil
    case "json_object": return JSONSchemaGrammar.anyObject
    case "json_schema":
      guard let schema = responseFormat.jsonSchema?.schema else {
        throw APIError.invalidRequest(
          "response_format.json_schema.schema is required", parameter: "response_format.json_schema.schema")
      }
      do {
        return try JSONSchemaGrammar.grammar(for: schema)
      } catch {
        throw APIError.invalidRequest("\(error)", parameter: "response_format.json_schema.schema")
      }
    default:
      throw APIError.invalidRequest(
        "response_format.type \"\(responseFormat.type)\" is not supported; use text, json_object or json_schema",
        parameter: "response_format.type")
    }
  }
}
