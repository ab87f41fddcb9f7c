import Foundation
import HearthCore
import MCP

extension JSONValue {
  /// The same JSON as the MCP library's value.
  var mcpValue: Value {
    switch self {
    case .null: .null
    case .bool(let value): .bool(value)
    case .number(let value):
      value.rounded() == value && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    case .string(let value): .string(value)
    case .array(let values): .array(values.map(\.mcpValue))
    case .object(let fields, _): .object(fields.mapValues(\.mcpValue))
    }
  }

  /// The MCP library's value as Hearth's JSON; bytes become their base64 text, as JSON carries them.
  init(_ value: Value) {
    switch value {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .int(let value): self = .number(Double(value))
    case .double(let value): self = .number(value)
    case .string(let value): self = .string(value)
    case .data(_, let data): self = .string(data.base64EncodedString())
    case .array(let values): self = .array(values.map(JSONValue.init))
    case .object(let fields):
      self = .object(fields.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
    }
  }
}
