import Foundation
import HearthCore

/// OpenAI's `tools` and `tool_choice`: the caller's functions, described to the model, its calls constrained
/// by a grammar built from each function's parameter schema, and read back as `tool_calls`. These are the
/// caller's tools; Hearth's own actions never run through them.
struct ToolPlan {
  struct Definition: Decodable {
    struct Function: Decodable {
      var name: String
      var description: String?
      var parameters: JSONValue?
      var strict: Bool?
    }
    var type: String
    var function: Function
  }

  /// `tool_choice`: `"auto"`, `"none"`, `"required"` or `{"type": "function", "function": {"name": …}}`.
  enum Choice: Decodable, Equatable {
    case auto, none, required
    case named(String)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case "required": self = .required
        default:
          throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "tool_choice must be auto, none, required or a named function")
        }
        return
      }
      struct Named: Decodable {
        struct Function: Decodable { var name: String }
        var type: String
        var function: Function
      }
      let named = try container.decode(Named.self)
      self = .named(named.function.name)
    }
  }

  /// A call the model made, as OpenAI returns it.
  struct Call: Encodable {
    struct Function: Encodable {
      var name: String
      var arguments: String
    }
    var id: String
    var type = "function"
    var function: Function
  }

  let tools: [Definition]
  let choice: Choice
  /// Whether one answer may make several calls (OpenAI's `parallel_tool_calls`, Anthropic's
  /// `disable_parallel_tool_use` turned around); at most ``maximumCalls``.
  let parallel: Bool

  /// The most calls one answer makes when it may make several.
  static let maximumCalls = 8

  /// The most calls one answer may make: none when the choice is `none`.
  var callLimit: Int { active ? (parallel ? Self.maximumCalls : 1) : 0 }

  /// Checks the definitions and the choice; `nil` when no tools are offered.
  init?(tools: [Definition]?, choice: Choice?, parallel: Bool = false) throws {
    guard let tools, !tools.isEmpty else {
      if let choice, choice != .none, choice != .auto {
        throw APIError.invalidRequest("tool_choice names a tool but no tools are given", parameter: "tool_choice")
      }
      return nil
    }
    for (index, tool) in tools.enumerated() {
      guard tool.type == "function" else {
        throw APIError.invalidRequest("tools[\(index)].type must be function", parameter: "tools[\(index)].type")
      }
      guard tool.function.name.range(of: "^[A-Za-z0-9_-]{1,64}$", options: .regularExpression) != nil else {
        throw APIError.invalidRequest(
          "tools[\(index)].function.name must be 1–64 letters, digits, _ or -",
          parameter: "tools[\(index)].function.name")
      }
    }
    if Set(tools.map(\.function.name)).count != tools.count {
      throw APIError.invalidRequest("tools must have different names", parameter: "tools")
    }
    if case .named(let name) = choice, !tools.contains(where: { $0.function.name == name }) {
      throw APIError.invalidRequest("tool_choice names \(name), which is not among the tools", parameter: "tool_choice")
    }
    self.tools = tools
    self.choice = choice ?? .auto
    self.parallel = parallel
  }

  /// Whether the model may call a tool in this answer.
  var active: Bool { choice != .none }

  /// The tools the model may call now.
  private var callable: [Definition] {
    if case .named(let name) = choice { return tools.filter { $0.function.name == name } }
    return tools
  }

  /// What the model is told about the tools.
  var instructions: String {
    var lines = [
      "You can call these functions. To call one, write <tool_call>{\"name\": NAME, \"arguments\": {…}}</tool_call>"
        + (choice == .auto ? "; otherwise answer normally." : " and nothing else.")
        + (parallel ? " To call several, write one such call after another." : "")
    ]
    for tool in callable {
      let parameters = tool.function.parameters?.jsonText ?? "{}"
      lines.append("- \(tool.function.name): \(tool.function.description ?? "") Parameters: \(parameters)")
    }
    return lines.joined(separator: "\n")
  }

  /// The grammar of a call, and the pattern that starts it (`nil`: the answer must be a call).
  func grammar() throws -> (grammar: String, trigger: String?) {
    let variants: [JSONValue] = callable.map { tool in
      .object([
        ("type", .string("object")),
        (
          "properties",
          .object([
            ("name", .object([("const", .string(tool.function.name))])),
            ("arguments", tool.function.parameters ?? .object([("type", .string("object"))])),
          ])
        ),
        ("required", .array([.string("name"), .string("arguments")])),
      ])
    }
    let schema: JSONValue = variants.count == 1 ? variants[0] : .object([("anyOf", .array(variants))])
    let json: String
    do {
      json = try JSONSchemaGrammar.grammar(for: schema)
    } catch {
      throw APIError.invalidRequest("a tool's parameters cannot be used: \(error)", parameter: "tools")
    }
    let renamed = json.replacingOccurrences(of: "root ::= ", with: "tool-call-json ::= ", options: .anchored)
    let call = #""<tool_call>" tool-call-json "</tool_call>""#
    let root =
      parallel
      ? "root ::= \(call) ( call-gap \(call) ){0,\(Self.maximumCalls - 1)}\ncall-gap ::= \"\\n\"?"
      : "root ::= \(call)"
    return (root + "\n" + renamed, choice == .auto ? #"[\s\S]*?(<tool_call>[\s\S]*)"# : nil)
  }

  /// The answer's text before its calls, and the calls, when it holds any.
  static func extract(_ content: String, limit: Int) -> (text: String?, calls: [Call])? {
    guard let open = content.range(of: "<tool_call>") else { return nil }
    var calls: [Call] = []
    var rest = content[open.upperBound...]
    while true {
      let end = rest.range(of: "</tool_call>")
      let body = end.map { rest[..<$0.lowerBound] } ?? rest
      if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)),
        let name = value["name"]?.stringValue
      {
        let arguments = value["arguments"]?.jsonText ?? "{}"
        let id = "call_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
        calls.append(Call(id: String(id), function: .init(name: name, arguments: arguments)))
      }
      guard calls.count < limit, let end, let next = rest[end.upperBound...].range(of: "<tool_call>") else { break }
      rest = rest[next.upperBound...]
    }
    guard !calls.isEmpty else { return nil }
    calls = Array(calls.prefix(limit))
    let text = content[..<open.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
    return (text.isEmpty ? nil : text, calls)
  }
}
