import Foundation
public import HearthCore

/// A tool of an MCP server the user added, as the model is offered it: where it lives, what it does and the
/// JSON Schema of its arguments.
public struct CallableTool: Sendable, Hashable {
  public var server: String
  public var tool: String
  public var description: String
  public var schema: JSONValue

  public init(server: String, tool: String, description: String, schema: JSONValue) {
    self.server = server
    self.tool = tool
    self.description = description
    self.schema = schema
  }

  var serverJSON: String { JSONValue.string(server).jsonText }
  var toolJSON: String { JSONValue.string(tool).jsonText }

  /// The block that calls it with `arguments`.
  public func block(arguments: JSONValue) -> String {
    // Written by hand: the fields in the grammar's order, whatever order an encoder would choose.
    "[\(ActionKind.toolCall.rawValue):{\"server\":\(serverJSON),\"tool\":\(toolJSON),\"arguments\":\(arguments.jsonText)}]"
  }

  /// The arguments' names, with whether each is required, in the schema's order.
  public var parameters: [(name: String, schema: JSONValue, required: Bool)] {
    let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    return (schema["properties"]?.objectMembers ?? []).map { ($0.key, $0.value, required.contains($0.key)) }
  }

  /// The schema with `pinned` arguments fixed to their values (and required).
  /// A required text argument left to the model is held to 1 to ``writtenTextLimit`` characters where the
  /// schema gives no length: a tiny model may otherwise close it at once, or run on to its token budget.
  /// Required arguments keep the schema's order (the grammar writes them in it), the pinned ones after.
  func schema(pinning pinned: [String: JSONValue]) -> JSONValue {
    guard let members = schema.objectMembers else { return schema }
    let listed = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let requiredOrder = listed + pinned.keys.sorted().filter { !listed.contains($0) }
    let required = Set(requiredOrder)
    var pairs: [(String, JSONValue)] = []
    for (key, value) in members {
      switch key {
      case "properties":
        let properties = (value.objectMembers ?? []).map { name, property in
          if let value = pinned[name] { return (name, JSONValue.object([("const", value)])) }
          return (name, required.contains(name) ? Self.bounded(property) : property)
        }
        pairs.append((key, .object(properties)))
      case "required":
        continue
      default:
        pairs.append((key, value))
      }
    }
    pairs.append(("required", .array(requiredOrder.map(JSONValue.string))))
    return .object(pairs)
  }

  /// Most characters of a text argument the model writes, when the tool's schema gives no limit.
  static let writtenTextLimit = 200

  /// `property` with a length when it is a plain string without one.
  private static func bounded(_ property: JSONValue) -> JSONValue {
    guard property["type"]?.stringValue == "string", property["minLength"] == nil, property["maxLength"] == nil,
      property["enum"] == nil, property["const"] == nil, let members = property.objectMembers
    else { return property }
    return .object(members + [("minLength", .number(1)), ("maxLength", .number(Double(writtenTextLimit)))])
  }
}
