import Foundation
import HearthCore

/// The body of Anthropic's `POST /v1/messages` (and of `count_tokens`, which takes the same conversation).
/// Every field is honoured or refused by name: images, documents, thinking (and `output_config.effort`),
/// citations, MCP servers, containers and service tiers are refused; `cache_control` is accepted because the
/// prefix a conversation shares with the one before is always reused.
struct MessagesRequest: StrictInput {
  var model: String
  var maxTokens: Int?
  var messages: [Message]
  var system: TextContent?
  var stopSequences: [String]?
  var temperature: Double?
  var topP: Double?
  var topK: Int?
  var stream: Bool?
  var tools: [Tool]?
  var toolChoice: ToolChoice?
  var outputConfig: OutputConfig?
  var cacheControl: CacheControl?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case model, messages, system, temperature, stream, tools
    case maxTokens = "max_tokens"
    case stopSequences = "stop_sequences"
    case topP = "top_p"
    case topK = "top_k"
    case toolChoice = "tool_choice"
    case outputConfig = "output_config"
    case cacheControl = "cache_control"
  }

  static let nested: [String: Set<String>] = [
    "tool_choice": ["type", "name", "disable_parallel_tool_use"], "output_config": ["format"],
    "cache_control": ["type", "ttl"],
  ]

  /// `output_config`: a `format` of type `json_schema` holds the answer to the schema (by a grammar); `effort`
  /// belongs to thinking, which is refused.
  struct OutputConfig: Decodable {
    struct Format: Decodable {
      var type: String
      var schema: JSONValue?
    }
    var format: Format?
  }

  /// A cache breakpoint: accepted as `ephemeral`, since the prefix shared with the request before is always
  /// reused.
  struct CacheControl: Decodable {
    var type: String
    var ttl: String?
  }

  /// A tool the model may call, as Anthropic describes one.
  struct Tool: Decodable {
    var name: String
    var description: String?
    var inputSchema: JSONValue

    enum CodingKeys: String, CodingKey, CaseIterable {
      case name, description
      case inputSchema = "input_schema"
      case type, cacheControl = "cache_control"
    }

    init(from decoder: any Decoder) throws {
      try FieldName.refuseUnknown(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), place: "tools")
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let type = try container.decodeIfPresent(String.self, forKey: .type), type != "custom" {
        // Anthropic's server tools (web search, code execution, …) run on Anthropic's servers.
        throw APIError.invalidRequest(
          "tools of type \(type) are not available here; only your own (custom) tools are",
          parameter: "tools.type")
      }
      name = try container.decode(String.self, forKey: .name)
      description = try container.decodeIfPresent(String.self, forKey: .description)
      inputSchema = try container.decode(JSONValue.self, forKey: .inputSchema)
    }
  }

  /// `tool_choice`: `auto`, `any` (some tool), `tool` (the one named) or `none`; with
  /// `disable_parallel_tool_use` an answer makes at most one call, without it up to ``ToolPlan/maximumCalls``.
  struct ToolChoice: Decodable {
    var type: String
    var name: String?
    var disableParallelToolUse: Bool?

    enum CodingKeys: String, CodingKey {
      case type, name
      case disableParallelToolUse = "disable_parallel_tool_use"
    }

    var plan: ToolPlan.Choice {
      get throws {
        switch type {
        case "auto": return .auto
        case "any": return .required
        case "none": return .none
        case "tool":
          guard let name else {
            throw APIError.invalidRequest("tool_choice of type tool needs a name", parameter: "tool_choice.name")
          }
          return .named(name)
        default:
          throw APIError.invalidRequest(
            "tool_choice.type must be auto, any, tool or none", parameter: "tool_choice.type")
        }
      }
    }
  }

  /// Text given as a string or as text blocks (`system`, a tool result's content).
  struct TextContent: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self.text = text
        return
      }
      let blocks = try container.decode([Block].self)
      if let other = blocks.first(where: { $0.type != "text" }) {
        throw APIError.invalidRequest(
          "a block of type \(other.type) is not supported here; this model reads text only", parameter: "content")
      }
      text = blocks.compactMap(\.text).joined(separator: "\n")
    }
  }

  /// One message: its role and its content, a string or a list of blocks.
  struct Message: Decodable {
    var role: String
    var blocks: [Block]

    enum CodingKeys: String, CodingKey, CaseIterable { case role, content }

    init(from decoder: any Decoder) throws {
      try FieldName.refuseUnknown(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), place: "messages")
      let container = try decoder.container(keyedBy: CodingKeys.self)
      role = try container.decode(String.self, forKey: .role)
      if let text = try? container.decode(String.self, forKey: .content) {
        blocks = [Block(type: "text", text: text)]
      } else {
        blocks = try container.decode([Block].self, forKey: .content)
      }
    }
  }

  /// A content block: text, a tool call the assistant made, or a tool's result.
  struct Block: Decodable {
    var type: String
    var text: String?
    var id: String?
    var name: String?
    var input: JSONValue?
    var toolUseID: String?
    var content: TextContent?
    var isError: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case type, text, id, name, input, content, citations
      case toolUseID = "tool_use_id"
      case isError = "is_error"
      case cacheControl = "cache_control"
    }

    init(type: String, text: String) {
      self.type = type
      self.text = text
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      type = try container.decode(String.self, forKey: .type)
      guard ["text", "tool_use", "tool_result"].contains(type) else {
        throw APIError.invalidRequest(
          "content blocks of type \(type) are not supported; this model reads text, tool_use and tool_result",
          parameter: "messages.content.type")
      }
      try FieldName.refuseUnknown(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), place: "content")
      if container.contains(.citations), try !container.decodeNil(forKey: .citations) {
        throw APIError.invalidRequest("citations in a request are not supported", parameter: "content.citations")
      }
      text = try container.decodeIfPresent(String.self, forKey: .text)
      id = try container.decodeIfPresent(String.self, forKey: .id)
      name = try container.decodeIfPresent(String.self, forKey: .name)
      input = try container.decodeIfPresent(JSONValue.self, forKey: .input)
      toolUseID = try container.decodeIfPresent(String.self, forKey: .toolUseID)
      content = try container.decodeIfPresent(TextContent.self, forKey: .content)
      isError = try container.decodeIfPresent(Bool.self, forKey: .isError)
    }
  }

  /// The tools offered, as the OpenAI routes check and constrain them; `nil` when none are.
  func toolPlan() throws -> ToolPlan? {
    let definitions = tools?.map { tool in
      ToolPlan.Definition(
        type: "function",
        function: .init(name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: nil))
    }
    return try ToolPlan(
      tools: definitions, choice: toolChoice.map { try $0.plan },
      parallel: toolChoice?.disableParallelToolUse != true)
  }

  /// The conversation as the model sees it: the system text first, earlier tool calls in the shape the model
  /// writes them, tool results as text for the model to read. A final assistant message is continued.
  func chatMessages() throws -> [ChatMessage] {
    guard !messages.isEmpty else { throw APIError.invalidRequest("messages must not be empty", parameter: "messages") }
    guard messages.first?.role == "user" else {
      throw APIError.invalidRequest("the first message must be the user's", parameter: "messages[0].role")
    }
    var names: [String: String] = [:]
    var converted: [ChatMessage] = []
    for (index, message) in messages.enumerated() {
      let place = "messages[\(index)]"
      var parts: [String] = []
      for block in message.blocks {
        switch (message.role, block.type) {
        case (_, "text"): parts.append(block.text ?? "")
        case ("assistant", "tool_use"):
          guard let id = block.id, let name = block.name else {
            throw APIError.invalidRequest("a tool_use block needs its id and name", parameter: "\(place).content")
          }
          names[id] = name
          let input = (block.input ?? .object([])).jsonText
          parts.append("<tool_call>{\"name\":\(try Self.quoted(name)),\"arguments\":\(input)}</tool_call>")
        case ("user", "tool_result"):
          guard let id = block.toolUseID else {
            throw APIError.invalidRequest(
              "a tool_result block needs its tool_use_id", parameter: "\(place).content.tool_use_id")
          }
          let outcome = block.isError == true ? " (it failed)" : ""
          parts.append("Result of \(names[id] ?? id)\(outcome): \(block.content?.text ?? "")")
        default:
          throw APIError.invalidRequest(
            "a \(block.type) block cannot be in a \(message.role) message", parameter: "\(place).content")
        }
      }
      let role: ChatMessage.Role
      switch message.role {
      case "user": role = .user
      case "assistant": role = .assistant
      default:
        throw APIError.invalidRequest(
          "\(place).role must be user or assistant (the system text goes in system)", parameter: "\(place).role")
      }
      let text = parts.filter { !$0.isEmpty }.joined(separator: "\n")
      // Consecutive messages of one role are one turn, as Anthropic reads them.
      if let last = converted.last, last.role == role {
        converted[converted.count - 1] = ChatMessage(role: role, content: last.content + "\n\n" + text)
      } else {
        converted.append(ChatMessage(role: role, content: text))
      }
    }
    var systemText = system?.text ?? ""
    if let plan = try toolPlan(), plan.active {
      systemText += (systemText.isEmpty ? "" : "\n\n") + plan.instructions
    }
    return (systemText.isEmpty ? [] : [ChatMessage(role: .system, content: systemText)]) + converted
  }

  /// Generation options: the request's values over the user's saved settings; `max_tokens` is required, as
  /// Anthropic's API requires it.
  func generationOptions(defaults: ChatSettings) throws -> GenerationOptions {
    guard let maxTokens else { throw APIError.invalidRequest("max_tokens is required", parameter: "max_tokens") }
    var options = defaults.generationOptions
    try options.apply(maxTokens: maxTokens, named: "max_tokens", temperature: temperature, topP: topP)
    if let topK {
      guard topK >= 0 else { throw APIError.invalidRequest("top_k must not be negative", parameter: "top_k") }
      options.sampling.topK = topK
    }
    if let cacheControl, cacheControl.type != "ephemeral" {
      throw APIError.invalidRequest("cache_control.type must be ephemeral", parameter: "cache_control.type")
    }
    if let format = outputConfig?.format {
      guard format.type == "json_schema", let schema = format.schema else {
        throw APIError.invalidRequest(
          "output_config.format must be of type json_schema, with its schema", parameter: "output_config.format")
      }
      options.grammar = try SamplingRequest.schemaGrammar(schema, parameter: "output_config.format.schema")
    }
    if let plan = try toolPlan(), plan.active {
      guard options.grammar == nil else {
        throw APIError.invalidRequest(
          "output_config.format cannot be combined with tools; use tool_choice none or drop it",
          parameter: "output_config.format")
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

  private static func quoted(_ text: String) throws -> String {
    String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  }
}
