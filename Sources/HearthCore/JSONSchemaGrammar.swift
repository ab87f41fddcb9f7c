/// Turns a JSON schema into a GBNF grammar whose every sentence is a JSON document valid against it, so
/// that generation constrained by the grammar can only produce conforming output.
///
/// Covered: `type` (single or a list), `properties` with `required`, `items` (one schema, or a list for a
/// tuple, as `prefixItems` is too), `enum`, `const`, `anyOf` and
/// `oneOf`, and local `$ref`s to `#/$defs/…` or `#/definitions/…`. An object's properties are all written,
/// required ones first in their listed order, then the others by name, in one ``Layout`` (`{"a": 1, "b": 2}`
/// as Python's `json.dumps` writes it, or compact inside action blocks): with no choice of white space, a
/// schema's keys and punctuation are the only way on, and generation evaluates them in one batch
/// (``GrammarFollower``). A string's `minLength`/`maxLength` and
/// an array's `minItems`/`maxItems` are enforced up to ``maxCount`` (llama.cpp writes each counted place out
/// as a rule of its own); an integer's `minimum` and `maximum` are, and a number's when they are whole and not
/// negative (``NumberRangeGrammar``). Larger bounds, other decimal ranges and other keywords that only narrow a
/// value (`pattern`, `format`, `exclusiveMinimum` …) are not.
///
/// The work is linear in the schema's size, and bounded: at most ``maxRules`` rules, schemas nested at most
/// ``maxDepth`` deep, and a grammar within ``GrammarLimits/maxBytes``; each refusal names its limit.
public struct JSONSchemaGrammar: Sendable {
  /// Most rules (one per nested schema) a grammar may have.
  public static let maxRules = 4096
  /// Deepest nesting of schemas (properties, items, alternatives, references).
  public static let maxDepth = 32
  /// Largest length or item count enforced; a larger bound is left to the reader of the answer.
  public static let maxCount = 1000
  /// Longest part of a rule name taken from a property's name.
  static let maxNameLength = 48

  /// Why a schema cannot be turned into a grammar.
  public struct UnsupportedSchema: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the schema, as a JSON pointer.
    public var path: String
    /// What is wrong there.
    public var reason: String
    public var description: String { "unsupported JSON schema at \(path): \(reason)" }
  }

  /// Where white space goes between a document's parts: nowhere else, so the grammar leaves no choice of it.
  public enum Layout: Sendable {
    /// `{"a": 1, "b": [2, 3]}`: a space after each colon and comma, as Python's `json.dumps` writes.
    case spaced
    /// `{"a":1,"b":[2,3]}`, as action blocks are written.
    case compact

    var colon: String { self == .spaced ? #"": ""# : #"":""# }
    var comma: String { self == .spaced ? #"", ""# : #"",""# }
  }

  private var rules: [(name: String, body: String)] = []
  private var ruleNames: Set<String> = []
  /// For each base name, the suffix to try next, so names that clash cost no rescans.
  private var nextSuffix: [String: Int] = [:]
  /// The rule of each `$ref` already met.
  private var referenceNames: [String: String] = [:]
  private var grammarBytes = 0
  private let definitions: [String: JSONValue]
  private let layout: Layout

  /// The grammar for any JSON object (`response_format` of type `json_object`).
  public static var anyObject: String { anyObject(layout: .spaced) }

  /// The grammar for any JSON object in `layout`.
  public static func anyObject(layout: Layout) -> String {
    (["root ::= object"] + primitives(layout).map { "\($0.name) ::= \($0.body)" }).joined(separator: "\n")
  }

  /// The grammar for documents valid against `schema`.
  /// - Throws: ``UnsupportedSchema`` for a schema it cannot express, such as a remote `$ref`.
  public static func grammar(for schema: JSONValue, layout: Layout = .spaced) throws(UnsupportedSchema) -> String {
    var builder = JSONSchemaGrammar(schema: schema, layout: layout)
    let root = try builder.rule(for: schema, path: "#", name: "root-value", depth: 0)
    builder.rules.insert(("root", root), at: 0)
    let grammar = (builder.rules + primitives(layout)).map { "\($0.name) ::= \($0.body)" }.joined(separator: "\n")
    do {
      try GrammarLimits.check(grammar)
    } catch {
      throw UnsupportedSchema(path: "#", reason: error.description)
    }
    return grammar
  }

  private init(schema: JSONValue, layout: Layout) {
    self.layout = layout
    var definitions: [String: JSONValue] = [:]
    for key in ["$defs", "definitions"] {
      for (name, value) in schema[key]?.objectMembers ?? [] { definitions["#/\(key)/\(name)"] = value }
    }
    self.definitions = definitions
    ruleNames = Set(Self.primitives(layout).map(\.name) + ["root"])
  }

  private static func primitives(_ layout: Layout) -> [(name: String, body: String)] {
    let (colon, comma) = (layout.colon, layout.comma)
    return [
      ("value", "object | array | string | number | boolean | null"),
      ("object", #""{" ( string \#(colon) value ( \#(comma) string \#(colon) value )* )? "}""#),
      ("array", #""[" ( value ( \#(comma) value )* )? "]""#),
      ("string", #""\"" char* "\"""#),
      ("char", #"[^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} )"#),
      ("number", #"integer ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?"#),
      ("integer", #""-"? ( "0" | [1-9] [0-9]{0,15} )"#),
      ("boolean", #""true" | "false""#),
      ("null", #""null""#),
    ]
  }

  /// The body of a rule for `schema`; nested schemas get rules of their own named after `name`.
  private mutating func rule(
    for schema: JSONValue, path: String, name: String, depth: Int
  ) throws(UnsupportedSchema) -> String {
    guard depth <= Self.maxDepth else {
      throw UnsupportedSchema(path: path, reason: "schemas nested more than \(Self.maxDepth) deep")
    }
    if case .bool(true) = schema { return "value" }
    guard schema.objectMembers != nil else { throw UnsupportedSchema(path: path, reason: "a schema must be an object") }
    if let reference = schema["$ref"]?.stringValue {
      return try referenceRule(reference, path: path, depth: depth)
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
          alternatives.append(
            try addRule(for: option, path: "\(path)/\(keyword)/\(index)", name: "\(name)-\(index)", depth: depth))
        }
        return alternatives.joined(separator: " | ")
      }
    }
    switch schema["type"] {
    case .string(let type)?:
      return try typeRule(type, schema: schema, path: path, name: name, depth: depth)
    case .array(let types)?:
      var alternatives: [String] = []
      for type in types {
        guard let type = type.stringValue else {
          throw UnsupportedSchema(path: path + "/type", reason: "types must be strings")
        }
        alternatives.append(try typeRule(type, schema: schema, path: path, name: "\(name)-\(type)", depth: depth))
      }
      return alternatives.map { "( \($0) )" }.joined(separator: " | ")
    case nil:
      if schema["properties"] != nil {
        return try typeRule("object", schema: schema, path: path, name: name, depth: depth)
      }
      if schema["items"] != nil || schema["prefixItems"] != nil {
        return try typeRule("array", schema: schema, path: path, name: name, depth: depth)
      }
      return "value"
    default:
      throw UnsupportedSchema(path: path + "/type", reason: "type must be a string or a list of strings")
    }
  }

  private mutating func typeRule(
    _ type: String, schema: JSONValue, path: String, name: String, depth: Int
  ) throws(UnsupportedSchema) -> String {
    switch type {
    case "string":
      guard let (least, most) = try Self.bounds(schema, "minLength", "maxLength", path: path) else { return type }
      return #""\"" \#(Self.repeated("char", separator: nil, least: least, most: most)) "\"""#
    case "integer", "number":
      let least = try Self.limit(schema, "minimum", path: path)
      let most = try Self.limit(schema, "maximum", path: path)
      guard least != nil || most != nil else { return type }
      if let least, let most, least > most {
        throw UnsupportedSchema(path: path, reason: "minimum \(least) is more than maximum \(most)")
      }
      if type == "number" { return NumberRangeGrammar.number(least: least, most: most) ?? type }
      let whole = (least.map { $0.rounded(.up) }, most.map { $0.rounded(.down) })
      guard (whole.0.map { abs($0) <= Double(NumberRangeGrammar.largest) } ?? true),
        (whole.1.map { abs($0) <= Double(NumberRangeGrammar.largest) } ?? true)
      else { return type }
      if let low = whole.0, let high = whole.1, low > high {
        throw UnsupportedSchema(path: path, reason: "no whole number lies between \(low) and \(high)")
      }
      return NumberRangeGrammar.integer(least: whole.0.map { Int($0) }, most: whole.1.map { Int($0) }) ?? type
    case "boolean", "null": return type
    case "array":
      // A list of schemas (`prefixItems`, or `items` in the older drafts) describes a tuple, one per place.
      let (tupleKey, tuple) = schema["prefixItems"].map { ("prefixItems", $0) } ?? ("items", schema["items"])
      if let places = tuple?.arrayValue {
        var members: [String] = []
        for (index, place) in places.enumerated() {
          members.append(
            try addRule(for: place, path: "\(path)/\(tupleKey)/\(index)", name: "\(name)-\(index)", depth: depth))
        }
        return #""[" \#(members.joined(separator: " \(layout.comma) ")) "]""#
      }
      let counted = try Self.bounds(schema, "minItems", "maxItems", path: path)
      guard let items = schema["items"] else {
        guard let (least, most) = counted else { return "array" }
        return #""[" \#(Self.repeated("value", separator: layout.comma, least: least, most: most)) "]""#
      }
      let item = try addRule(for: items, path: path + "/items", name: name + "-item", depth: depth)
      let (least, most) = counted ?? (0, nil)
      return #""[" \#(Self.repeated(item, separator: layout.comma, least: least, most: most)) "]""#
    case "object":
      guard let properties = schema["properties"]?.objectMembers, !properties.isEmpty else { return "object" }
      let byName = Dictionary(properties, uniquingKeysWith: { first, _ in first })
      var required: [String] = []
      var seen: Set<String> = []
      for key in (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
      where byName[key] != nil && seen.insert(key).inserted {
        required.append(key)
      }
      let order = required + byName.keys.filter { !seen.contains($0) }.sorted()
      var members: [String] = []
      for key in order {
        let value = try addRule(
          for: byName[key]!, path: "\(path)/properties/\(key)", name: "\(name)-\(key.prefix(Self.maxNameLength))",
          depth: depth)
        members.append("\(Self.literal(.string(key))) \(layout.colon) \(value)")
      }
      return #""{" \#(members.joined(separator: " \(layout.comma) ")) "}""#
    default:
      throw UnsupportedSchema(path: path + "/type", reason: "unknown type \"\(type)\"")
    }
  }

  private mutating func referenceRule(
    _ reference: String, path: String, depth: Int
  ) throws(UnsupportedSchema) -> String {
    if let known = referenceNames[reference] { return known }
    guard let target = definitions[reference] else {
      throw UnsupportedSchema(
        path: path + "/$ref", reason: "only local references to $defs are supported (\(reference))")
    }
    let name = uniqueName("ref-" + String((reference.split(separator: "/").last ?? "").prefix(Self.maxNameLength)))
    // Known before its body is built, so a schema that refers to itself ends.
    referenceNames[reference] = name
    let index = try reserve(name, path: path)
    rules[index].body = try rule(for: target, path: reference, name: name, depth: depth + 1)
    grammarBytes += rules[index].body.utf8.count
    return name
  }

  /// Adds a rule for a nested schema and returns its name.
  private mutating func addRule(
    for schema: JSONValue, path: String, name: String, depth: Int
  ) throws(UnsupportedSchema) -> String {
    let unique = uniqueName(name)
    let index = try reserve(unique, path: path)
    rules[index].body = try rule(for: schema, path: path, name: unique, depth: depth + 1)
    grammarBytes += rules[index].body.utf8.count
    return unique
  }

  /// `name` made a rule name no other rule has: sanitised, with the next free suffix of its base when taken.
  private mutating func uniqueName(_ name: String) -> String {
    let base = Self.sanitize(name)
    var unique = base
    if ruleNames.contains(unique) {
      var suffix = nextSuffix[base] ?? 2
      repeat {
        unique = "\(base)-\(suffix)"
        suffix += 1
      } while ruleNames.contains(unique)
      nextSuffix[base] = suffix
    }
    ruleNames.insert(unique)
    return unique
  }

  /// Adds a rule to fill in, once the limits allow one more.
  private mutating func reserve(_ name: String, path: String) throws(UnsupportedSchema) -> Int {
    guard rules.count < Self.maxRules else {
      throw UnsupportedSchema(path: path, reason: "more than \(Self.maxRules) nested schemas")
    }
    grammarBytes += name.utf8.count + 5
    guard grammarBytes <= GrammarLimits.maxBytes else {
      throw UnsupportedSchema(path: path, reason: "the grammar would be longer than \(GrammarLimits.maxBytes) bytes")
    }
    rules.append((name, "value"))
    return rules.count - 1
  }

  /// A schema's lower and upper count (`minLength` and `maxLength`, or `minItems` and `maxItems`) when either
  /// is given and both are within ``maxCount``; `nil` when neither is, or one is larger (then neither is
  /// enforced, so the grammar never admits less than the schema).
  private static func bounds(
    _ schema: JSONValue, _ lower: String, _ upper: String, path: String
  ) throws(UnsupportedSchema) -> (least: Int, most: Int?)? {
    func count(_ key: String) throws(UnsupportedSchema) -> Int? {
      guard let value = schema[key] else { return nil }
      guard let number = value.numberValue, number >= 0, number == number.rounded() else {
        throw UnsupportedSchema(path: "\(path)/\(key)", reason: "\(key) must be a whole number of 0 or more")
      }
      return number > Double(maxCount) ? Int.max : Int(number)
    }
    let least = try count(lower)
    let most = try count(upper)
    guard least != nil || most != nil else { return nil }
    if let least, let most, least > most {
      throw UnsupportedSchema(path: path, reason: "\(lower) \(least) is more than \(upper) \(most)")
    }
    guard (least ?? 0) <= maxCount, (most ?? 0) <= maxCount else { return nil }
    return (least ?? 0, most)
  }

  /// A numeric bound of the schema (`minimum` or `maximum`).
  private static func limit(_ schema: JSONValue, _ key: String, path: String) throws(UnsupportedSchema) -> Double? {
    guard let value = schema[key] else { return nil }
    guard let number = value.numberValue, number.isFinite else {
      throw UnsupportedSchema(path: "\(path)/\(key)", reason: "\(key) must be a number")
    }
    return number
  }

  /// `item` between `least` and `most` times (no upper bound when `nil`), with `separator` between two.
  private static func repeated(_ item: String, separator: String?, least: Int, most: Int?) -> String {
    func times(_ least: Int, _ most: Int?) -> String {
      switch (least, most) {
      case (0, nil): "*"
      case (1, nil): "+"
      case (0, 1?): "?"
      default: "{\(least),\(most.map(String.init) ?? "")}"
      }
    }
    if most == 0 { return "" }
    guard let separator else { return item + times(least, most) }
    let rest = "( \(separator) \(item) )\(times(max(least - 1, 0), most.map { $0 - 1 }))"
    return least == 0 ? "( \(item) \(rest) )?" : "\(item) \(rest)"
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
