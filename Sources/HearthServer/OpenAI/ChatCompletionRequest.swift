import Foundation
import HearthCore

/// The body of `POST /v1/chat/completions`, as OpenAI's clients send it, with the llama.cpp server's
/// extensions (``SamplingRequest``). A field Hearth does not act on is refused by name, never ignored.
struct ChatCompletionRequest: StrictInput {
  var model: String?
  var messages: [Message]
  var sampling: SamplingRequest
  var stream: Bool?
  var streamOptions: StreamOptions?
  var responseFormat: ResponseFormat?
  /// Report each token's log probability; `top_logprobs` alternatives with it (0 to 20).
  var logprobs: Bool?
  var topLogprobs: Int?
  /// The caller's functions the model may call, and how it may.
  var tools: [ToolPlan.Definition]?
  var toolChoice: ToolPlan.Choice?
  /// Several calls in one answer are allowed by OpenAI's default; Hearth's answers make at most one, which
  /// that allows.
  var parallelToolCalls: Bool?
  /// Whether the prompt ends by opening the assistant's turn (the default), or, with
  /// `continue_final_message`, by continuing the final assistant message (vLLM's and transformers' names).
  var addGenerationPrompt: Bool?
  var continueFinalMessage: Bool?
  /// The llama.cpp server's `verbose`: the whole answer also carries the prompt as the model saw it.
  var verbose: Bool?
  /// The llama.cpp server's `timings_per_token`: every streamed chunk carries the speed so far.
  var timingsPerToken: Bool?
  /// The llama.cpp server's `return_progress`: the stream reports how far reading the prompt has come.
  var returnProgress: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case model, messages, stream, tools, logprobs, verbose
    case timingsPerToken = "timings_per_token"
    case returnProgress = "return_progress"
    case topLogprobs = "top_logprobs"
    case toolChoice = "tool_choice"
    case parallelToolCalls = "parallel_tool_calls"
    case streamOptions = "stream_options"
    case responseFormat = "response_format"
    case addGenerationPrompt = "add_generation_prompt"
    case continueFinalMessage = "continue_final_message"
  }

  static var fields: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)).union(SamplingRequest.fields) }
  static var nested: [String: Set<String>] {
    ["stream_options": ["include_usage"], "response_format": ["type", "json_schema", "schema"]]
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    model = try container.decodeIfPresent(String.self, forKey: .model)
    messages = try container.decode([Message].self, forKey: .messages)
    sampling = try SamplingRequest(from: decoder)
    stream = try container.decodeIfPresent(Bool.self, forKey: .stream)
    streamOptions = try container.decodeIfPresent(StreamOptions.self, forKey: .streamOptions)
    responseFormat = try container.decodeIfPresent(ResponseFormat.self, forKey: .responseFormat)
    logprobs = try container.decodeIfPresent(Bool.self, forKey: .logprobs)
    topLogprobs = try container.decodeIfPresent(Int.self, forKey: .topLogprobs)
    tools = try container.decodeIfPresent([ToolPlan.Definition].self, forKey: .tools)
    toolChoice = try container.decodeIfPresent(ToolPlan.Choice.self, forKey: .toolChoice)
    parallelToolCalls = try container.decodeIfPresent(Bool.self, forKey: .parallelToolCalls)
    addGenerationPrompt = try container.decodeIfPresent(Bool.self, forKey: .addGenerationPrompt)
    continueFinalMessage = try container.decodeIfPresent(Bool.self, forKey: .continueFinalMessage)
    verbose = try container.decodeIfPresent(Bool.self, forKey: .verbose)
    timingsPerToken = try container.decodeIfPresent(Bool.self, forKey: .timingsPerToken)
    returnProgress = try container.decodeIfPresent(Bool.self, forKey: .returnProgress)
  }

  struct Message: Decodable {
    var role: String
    var content: Content?
    var toolCalls: [ToolCallIn]?
    var toolCallID: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case role, content
      case toolCalls = "tool_calls"
      case toolCallID = "tool_call_id"
    }

    /// Refuses a field the message may not have (`name`, `refusal`, …) by its place in the conversation.
    init(from decoder: any Decoder) throws {
      try FieldName.refuseUnknown(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), place: "messages")
      let container = try decoder.container(keyedBy: CodingKeys.self)
      role = try container.decode(String.self, forKey: .role)
      content = try container.decodeIfPresent(Content.self, forKey: .content)
      toolCalls = try container.decodeIfPresent([ToolCallIn].self, forKey: .toolCalls)
      toolCallID = try container.decodeIfPresent(String.self, forKey: .toolCallID)
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
  func toolPlan() throws -> ToolPlan? {
    try ToolPlan(tools: tools, choice: toolChoice, parallel: parallelToolCalls ?? true)
  }

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

  struct StreamOptions: Decodable {
    var includeUsage: Bool?
    enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
  }

  /// OpenAI's `response_format`; `schema` beside `json_object` is the llama.cpp server's shorthand.
  struct ResponseFormat: Decodable {
    var type: String
    var jsonSchema: JSONSchemaFormat?
    var schema: JSONValue?
    enum CodingKeys: String, CodingKey {
      case type, schema
      case jsonSchema = "json_schema"
    }
  }

  struct JSONSchemaFormat: Decodable {
    var name: String?
    var schema: JSONValue?
    var strict: Bool?
  }

  /// The conversation as the model sees it. A final assistant message is continued (an assistant prefill),
  /// as the llama.cpp server and vLLM do.
  /// - Throws: ``APIError`` for an empty conversation, an unknown role, content Hearth cannot read, two
  ///   assistant messages in a row, or `add_generation_prompt`/`continue_final_message` that contradict.
  func chatMessages() throws -> [ChatMessage] {
    guard !messages.isEmpty else { throw APIError.invalidRequest("messages must not be empty", parameter: "messages") }
    for index in messages.indices.dropFirst()
    where messages[index].role == "assistant" && messages[index - 1].role == "assistant" {
      throw APIError.invalidRequest(
        "messages[\(index)] is a second assistant message in a row; merge it with the one before",
        parameter: "messages[\(index)].role")
    }
    try checkContinuation()
    var converted = try Self.conversation(messages)
    if let plan = try toolPlan(), plan.active {
      if let first = converted.first, first.role == .system {
        converted[0] = ChatMessage(role: .system, content: first.content + "\n\n" + plan.instructions)
      } else {
        converted.insert(ChatMessage(role: .system, content: plan.instructions), at: 0)
      }
    }
    return converted
  }

  /// `messages` as the model sees them.
  /// - Throws: ``APIError`` for an unknown role, content Hearth cannot read or a tool result without its call.
  static func conversation(_ messages: [Message]) throws -> [ChatMessage] {
    var names: [String: String] = [:]
    return try messages.enumerated().map { index, message in
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
  }

  /// The prompt either opens the assistant's turn or continues a final assistant message, never neither.
  private func checkContinuation() throws {
    let endsWithAssistant = messages.last?.role == "assistant"
    if continueFinalMessage == true {
      guard addGenerationPrompt != true else {
        throw APIError.invalidRequest(
          "add_generation_prompt and continue_final_message cannot both be true", parameter: "continue_final_message")
      }
      guard endsWithAssistant else {
        throw APIError.invalidRequest(
          "continue_final_message needs the last message to be the assistant's", parameter: "continue_final_message")
      }
    } else if addGenerationPrompt == false, !endsWithAssistant {
      throw APIError.invalidRequest(
        "add_generation_prompt false only continues a final assistant message; the last message here is not one",
        parameter: "add_generation_prompt")
    } else if continueFinalMessage == false, endsWithAssistant {
      throw APIError.invalidRequest(
        "a final assistant message is always continued; continue_final_message false cannot be honoured",
        parameter: "continue_final_message")
    }
  }

  /// How many alternatives to report per token, `nil` when log probabilities are not asked for.
  func logprobAlternatives() throws -> Int? {
    guard logprobs == true else {
      if topLogprobs != nil {
        throw APIError.invalidRequest("top_logprobs needs logprobs: true", parameter: "top_logprobs")
      }
      return nil
    }
    let count = topLogprobs ?? 0
    guard (0...GenerationOptions.maxTopLogprobs).contains(count) else {
      throw APIError.invalidRequest(
        "top_logprobs must be from 0 to \(GenerationOptions.maxTopLogprobs)", parameter: "top_logprobs")
    }
    return count
  }

  /// Generation options: the request's values over the user's saved settings.
  /// - Throws: ``APIError`` for out-of-range values or an unusable `response_format`.
  func generationOptions(defaults: ChatSettings) throws -> GenerationOptions {
    let lastUserText = messages.last { $0.role == "user" }?.content?.text ?? ""
    var options = try sampling.generationOptions(
      defaults: defaults, logprobs: try logprobAlternatives(), givenText: lastUserText)
    options.reportsPromptProgress = returnProgress == true
    if let format = try formatGrammar() {
      guard options.grammar == nil else {
        throw APIError.invalidRequest(
          "response_format cannot be combined with grammar or json_schema", parameter: "response_format")
      }
      options.grammar = format
    }
    if let plan = try toolPlan(), plan.active {
      guard options.grammar == nil else {
        throw APIError.invalidRequest(
          "response_format, grammar and json_schema cannot be combined with tools; use tool_choice none or drop them",
          parameter: "tools")
      }
      guard try sampling.choices() == 1 else {
        throw APIError.invalidRequest("n above 1 cannot be combined with tools", parameter: "n")
      }
      let (grammar, trigger) = try plan.grammar()
      options.grammar = grammar
      options.grammarTrigger = trigger
    }
    return options
  }

  private func formatGrammar() throws -> String? {
    guard let responseFormat else { return nil }
    switch responseFormat.type {
    case "text":
      guard responseFormat.schema == nil, responseFormat.jsonSchema == nil else {
        throw APIError.invalidRequest(
          "response_format of type text takes no schema", parameter: "response_format.type")
      }
      return nil
    case "json_object":
      guard let schema = responseFormat.schema else { return JSONSchemaGrammar.anyObject }
      return try SamplingRequest.schemaGrammar(schema, parameter: "response_format.schema")
    case "json_schema":
      guard let schema = responseFormat.jsonSchema?.schema else {
        throw APIError.invalidRequest(
          "response_format.json_schema.schema is required", parameter: "response_format.json_schema.schema")
      }
      return try SamplingRequest.schemaGrammar(schema, parameter: "response_format.json_schema.schema")
    default:
      throw APIError.invalidRequest(
        "response_format.type \"\(responseFormat.type)\" is not supported; use text, json_object or json_schema",
        parameter: "response_format.type")
    }
  }
}
