import Foundation

/// Any JSON value, decoded without a schema: for request fields whose shape is open (JSON schemas, tool
/// arguments) and for writing them back unchanged.
public enum JSONValue: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue], keys: [String])

  /// An object whose keys keep the order given.
  public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
    .object(Dictionary(pairs, uniquingKeysWith: { _, last in last }), keys: pairs.map(\.0))
  }

  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: AnyKey.self) {
      // Foundation's decoder does not keep the document's key order; sorted keys at least make every
      // later use (encoding, grammars) the same from run to run.
      var values: [String: JSONValue] = [:]
      for key in container.allKeys {
        values[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
      self = .object(values, keys: values.keys.sorted())
    } else if var container = try? decoder.unkeyedContainer() {
      var values: [JSONValue] = []
      while !container.isAtEnd { values.append(try container.decode(JSONValue.self)) }
      self = .array(values)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Double.self) {
        self = .number(value)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .object(let values, let keys):
      var container = encoder.container(keyedBy: AnyKey.self)
      // Under `SnakeCaseJSON` the keys are data and stay as written: marked, the key strategy keeps them.
      let mark =
        encoder.userInfo[SnakeCaseJSON.verbatimKeysMarked] as? Bool == true ? String(SnakeCaseJSON.verbatimMark) : ""
      for key in keys { try container.encode(values[key] ?? .null, forKey: AnyKey(mark + key)) }
    }
  }

  /// The member `key` of an object, or `nil`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let values, _) = self { values[key] } else { nil }
  }

  /// The string, or `nil` for any other kind of value.
  public var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The number, or `nil` for any other kind of value.
  public var numberValue: Double? {
    if case .number(let value) = self { value } else { nil }
  }

  /// The elements, or `nil` for any other kind of value.
  public var arrayValue: [JSONValue]? {
    if case .array(let values) = self { values } else { nil }
  }

  /// The members in order, or `nil` for any other kind of value.
  public var objectMembers: [(key: String, value: JSONValue)]? {
    guard case .object(let values, let keys) = self else { return nil }
    return keys.compactMap { key in values[key].map { (key, $0) } }
  }

  /// Compact JSON text of the value.
  public var jsonText: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }
}

struct AnyKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
