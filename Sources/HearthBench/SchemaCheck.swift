public import HearthCore

/// Checks a JSON document against the part of JSON Schema the structured benchmark's schemas use: `type`
/// (one or a list; `integer` is a whole number), `properties`, `required`, `additionalProperties: false`,
/// `items`, `enum`, `const`, `minLength`/`maxLength` (in characters), `minItems`/`maxItems` and
/// `minimum`/`maximum`. A schema keyword outside that set is itself reported, so a benchmark schema cannot
/// pass on a rule nobody checked.
public enum SchemaCheck {
  static let understood: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minLength", "maxLength",
    "minItems", "maxItems", "minimum", "maximum", "description", "title",
  ]

  /// Every way `value` breaks `schema`, each with its JSON pointer; empty when it conforms.
  public static func problems(_ value: JSONValue, against schema: JSONValue, at path: String = "#") -> [String] {
    guard let members = schema.objectMembers else { return ["\(path): the schema is not an object"] }
    var found = members.map(\.0).filter { !understood.contains($0) }.map { "\(path): keyword \($0) is not checked" }
    if let constant = schema["const"], constant != value {
      found.append("\(path): not the constant \(constant.jsonText)")
    }
    if let choices = schema["enum"]?.arrayValue, !choices.contains(value) {
      found.append("\(path): \(value.jsonText) is not one of the enum")
    }
    if let types = typeNames(schema["type"]), !types.contains(where: { has(value, type: $0) }) {
      found.append("\(path): \(value.jsonText.prefix(40)) is not of type \(types.joined(separator: " or "))")
      return found
    }
    switch value {
    case .string(let text):
      let length = text.unicodeScalars.count  // JSON Schema counts code points
      if let least = schema["minLength"]?.numberValue, Double(length) < least {
        found.append("\(path): \(length) characters, fewer than \(bound(least))")
      }
      if let most = schema["maxLength"]?.numberValue, Double(length) > most {
        found.append("\(path): \(length) characters, more than \(bound(most))")
      }
    case .number(let number):
      if let least = schema["minimum"]?.numberValue, number < least { found.append("\(path): below \(bound(least))") }
      if let most = schema["maximum"]?.numberValue, number > most { found.append("\(path): above \(bound(most))") }
    case .array(let items):
      if let least = schema["minItems"]?.numberValue, Double(items.count) < least {
        found.append("\(path): \(items.count) items, fewer than \(bound(least))")
      }
      if let most = schema["maxItems"]?.numberValue, Double(items.count) > most {
        found.append("\(path): \(items.count) items, more than \(bound(most))")
      }
      if let itemSchema = schema["items"] {
        for (index, item) in items.enumerated() {
          found += problems(item, against: itemSchema, at: "\(path)/\(index)")
        }
      }
    case .object:
      let pairs = value.objectMembers ?? []
      let properties = schema["properties"]?.objectMembers ?? []
      let byName = Dictionary(properties, uniquingKeysWith: { first, _ in first })
      let present = Set(pairs.map(\.0))
      for name in (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue) where !present.contains(name) {
        found.append("\(path): \(name) is missing")
      }
      for (name, member) in pairs {
        if let memberSchema = byName[name] {
          found += problems(member, against: memberSchema, at: "\(path)/\(name)")
        } else if case .bool(false)? = schema["additionalProperties"] {
          found.append("\(path): \(name) is not allowed")
        }
      }
    default: break
    }
    return found
  }

  /// A bound as written: a whole number without its ".0".
  private static func bound(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
  }

  private static func typeNames(_ type: JSONValue?) -> [String]? {
    switch type {
    case .string(let name)?: [name]
    case .array(let names)?: names.compactMap(\.stringValue)
    default: nil
    }
  }

  private static func has(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array), ("object", .object),
      ("number", .number):
      true
    case ("integer", .number(let number)): number == number.rounded() && number.isFinite
    default: false
    }
  }
}
