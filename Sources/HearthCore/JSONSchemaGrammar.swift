/// Turns a JSON schema into a GBNF grammar whose every sentence is a JSON document valid against it, so
/// that generation constrained by the grammar can only produce conforming output.
///
/// Covered: `type` (single or a list), `properties` with `required`, `items` (one schema, or a list for a
/// tuple, as `prefixItems` is too), `enum`, `const`, `anyOf` and
/// `oneOf`, and local `$ref`s to `#/$defs/…` or `#/definitions/…`. An object's properties are all written,
/// required ones first in their listed order, then the others by name. Keywords that only narrow a value
/// (`pattern`, `minLength`, `format`, …) are not enforced.
public struct JSONSchemaGrammar: Sendable {
  /// Why a schema cannot be turned into a grammar.
  public struct UnsupportedSchema: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the schema, as a JSON pointer.
    public var path: String
    /// What is wrong there.
    public var reason: String
    public var description: String { "unsupported JSON schema at \(path): \(reason)" }
  }

  private var rules: [(name: String, body: String)] = []
  private var ruleNames: Set<String> = []
  private let definitions: [String: JSONValue]

  /// The grammar for any JSON object (`response_format` of type `json_object`).
  public static var anyObject: String {
    (["root ::= object"] + primitives.map { "\($0.name) ::= \($0.body)" }).joined(separator: "\n")
  }

  /// The grammar for documents valid against `schema`.
  /// - Throws: ``UnsupportedSchema`` for a schema it cannot express, such as a remote `$ref`.
  public static func grammar(for schema: JSONValue) throws(UnsupportedSchema) -> String {
    var builder = JSONSchemaGrammar(schema: schema)
    let root = try builder.rule(for: schema, path: "#", name: "root-value")
    builder.rules.insert(("root", root), at: 0)
    return (builder.rules + primitives).map { "\($0.name) ::= \($0.body)" }.joined(separator: "\n")
  }

  private init(schema: JSONValue) {
    var definitions: [String: JSONValue] = [:]
    for key in ["$defs", "definitions"] {
      for (name, value) in schema[key]?.objectMembers ?? [] { definitions["#/\(key)/\(name)"] = value }
    }
    self.definitions = definitions
    ruleNames = Set(Self.primitives.map(\.name) + ["root"])
  }

  private static let primitives: [(name: String, body: String)] = [
    ("value", "object | array | string | number | boolean | null"),
    ("object", #""{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* )? ws "}""#),
    ("array", #""[" ws ( value ( ws "," ws value )* )? ws "]""#),
    ("string", #""\"" ( [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} ) )* "\"""#),
    ("number", #"integer ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?"#),
    ("integer", #""-"? ( "0" | [1-9] [0-9]{0,15} )"#),
    ("boolean", #""true" | "false""#),
    ("null", #""null""#),
    ("ws", #"| " " | "\n" [ \t]{0,20}"#),
  ]

  /// The body of a rule for `schema`; nested schemas get rules of their own named after `name`.
  private mutating func rule(for schema: JSONValue, path: String, name: String) throws(UnsupportedSchema) -> String {
    if case .bool(true) = schema { return "value" }
    guard schema.objectMembers != nil else { throw UnsupportedSchema(path: path, reason: "a schema must be an object") }
    if let reference = schema["$ref"]?.stringValue {
      return try referenceRule(reference, path: path)
    }
    if let constant = schema["const"] { return Self.literal(constant) }
    if let choices = schema["enum"] {
      guard let values = choices.arrayValue, !values.isEmpty else {
        throw UnsupportedSchema(path: path + "/enum", reason: "enum must be a non-empty array")
      }
      return values.map(Self.literal).joined(separator: " | ")
    }
    for keyword in ["anyOf", "oneOf"] {
      if let options = schema[keyword] {
        guard let options = options.arrayValue, !options.isEmpty else {
          throw UnsupportedSchema(path: "\(path)/\(keyword)", reason: "\(keyword) must be a non-empty array")
        }
        var alternatives: [String] = []
        for (index, option) in options.enumerated() {
          alternatives.append(try addRule(for: option, path: "\(path)/\(keyword)/\(index)", name: "\(name)-\(index)"))
        }
        return alternatives.joined(separator: " | ")
      }
    }
    switch schema["type"] {
    case .string(let type)?:
      return try typeRule(type, schema: schema, path: path, name: name)
    case .array(let types)?:
      var alternatives: [String] = []
      for type in types {
        guard let type = type.stringValue else {
          throw UnsupportedSchema(path: path + "/type", reason: "types must be strings")
        }
        alternatives.append(try typeRule(type, schema: schema, path: path, name: "\(name)-\(type)"))
      }
      return alternatives.map { "( \($0) )" }.joined(separator: " | ")
    case nil:
      if schema["properties"] != nil { return try typeRule("object", schema: schema, path: path, name: name) }
      if schema["items"] != nil || schema["prefixItems"] != nil {
        return try typeRule("array", schema: schema, path: path, name: name)
      }
      return "value"
    default:
      throw UnsupportedSchema(path: path + "/type", reason: "type must be a string or a list of strings")
    }
  }

  private mutating func typeRule(
    _ type: String, schema: JSONValue, path: String, name: String
  ) throws(UnsupportedSchema) -> String {
    switch type {
    case "string", "number", "integer", "boolean", "null": return type
    case "array":
      // A list of schemas (`prefixItems`, or `items` in the older drafts) describes a tuple, one per place.
      let (tupleKey, tuple) = schema["prefixItems"].map { ("prefixItems", $0) } ?? ("items", schema["items"])
      if let places = tuple?.arrayValue {
        var members: [String] = []
        for (index, place) in places.enumerated() {
          members.append(try addRule(for: place, path: "\(path)/\(tupleKey)/\(index)", name: "\(name)-\(index)"))
        }
        return #""[" ws \#(members.joined(separator: #" ws "," ws "#)) ws "]""#
      }
      guard let items = schema["items"] else { return "array" }
      let item = try addRule(for: items, path: path + "/items", name: name + "-item")
      return #""[" ws ( \#(item) ( ws "," ws \#(item) )* )? ws "]""#
    case "object":
      guard let properties = schema["properties"]?.objectMembers, !properties.isEmpty else { return "object" }
      let required = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
      let byName = Dictionary(properties, uniquingKeysWith: { first, _ in first })
      let order = required.filter { byName[$0] != nil } + byName.keys.filter { !required.contains($0) }.sorted()
      var members: [String] = []
      for key in order {
        let value = try addRule(for: byName[key]!, path: "\(path)/properties/\(key)", name: "\(name)-\(key)")
        members.append(#"\#(Self.literal(.string(key))) ws ":" ws \#(value)"#)
      }
      return #""{" ws \#(members.joined(separator: #" ws "," ws "#)) ws "}""#
    default:
      throw UnsupportedSchema(path: path + "/type", reason: "unknown type \"\(type)\"")
    }
  }

  private mutating func referenceRule(_ reference: String, path: String) throws(UnsupportedSchema) -> String {
    let name = "ref-" + Self.sanitize(String(reference.split(separator: "/").last ?? ""))
    if ruleNames.contains(name) { return name }
    guard let target = definitions[reference] else {
      throw UnsupportedSchema(
        path: path + "/$ref", reason: "only local references to $defs are supported (\(reference))")
    }
    ruleNames.insert(name)
    let index = rules.count
    rules.append((name, "value"))
    rules[index].body = try rule(for: target, path: reference, name: name)
    return name
  }

  /// Adds a rule for a nested schema and returns its name.
  private mutating func addRule(for schema: JSONValue, path: String, name: String) throws(UnsupportedSchema) -> String {
    var unique = Self.sanitize(name)
    var suffix = 2
    while ruleNames.contains(unique) {
      unique = "\(Self.sanitize(name))-\(suffix)"
      suffix += 1
    }
    ruleNames.insert(unique)
    let index = rules.count
    rules.append((unique, "value"))
    rules[index].body = try rule(for: schema, path: path, name: unique)
    return unique
  }

  /// A grammar literal matching exactly the JSON text of `value`.
  private static func literal(_ value: JSONValue) -> String {
    var escaped = ""
    for scalar in value.jsonText.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return "\"\(escaped)\""
  }

  private static func sanitize(_ name: String) -> String {
    let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    return cleaned.isEmpty ? "rule" : cleaned
  }
}
