public import HearthCore

extension ActionSpec {
  /// The payload's JSON schema: the same rules ``ActionBlock/validated()`` checks, for documentation and for
  /// clients that build blocks themselves. Dates are ISO 8601 strings (`format` is advisory, as in JSON
  /// Schema).
  public var jsonSchema: JSONValue {
    var properties: [(String, JSONValue)] = []
    var required: [JSONValue] = []
    if let action {
      properties.append(("action", .object([("const", .string(action))])))
      required.append(.string("action"))
    }
    for field in fields {
      properties.append((field.name, Self.schema(field.type)))
      if field.required { required.append(.string(field.name)) }
    }
    var schema: [(String, JSONValue)] = [
      ("type", .string("object")), ("properties", .object(properties)), ("additionalProperties", .bool(false)),
    ]
    if !required.isEmpty { schema.append(("required", .array(required))) }
    if needsTarget {
      schema.append(("anyOf", .array(targetFields.map { .object([("required", .array([.string($0)]))]) })))
    }
    return .object(schema)
  }

  /// Every action of a kind: one schema per action, any of which a payload must match.
  public static func jsonSchema(of kind: ActionKind) -> JSONValue {
    if kind == .toolCall { return toolCallSchema }
    let variants = specs(of: kind).map(\.jsonSchema)
    return variants.count == 1 ? variants[0] : .object([("oneOf", .array(variants))])
  }

  /// A tool call's shape; its arguments follow the schema the tool's own server gives.
  static let toolCallSchema: JSONValue = .object([
    ("type", .string("object")),
    (
      "properties",
      .object([
        ("server", .object([("type", .string("string"))])), ("tool", .object([("type", .string("string"))])),
        ("arguments", .object([("type", .string("object"))])),
      ])
    ),
    ("required", .array([.string("server"), .string("tool"), .string("arguments")])),
    ("additionalProperties", .bool(false)),
  ])

  private static func schema(_ type: ActionField.FieldType) -> JSONValue {
    switch type {
    case .text(let limit):
      .object([("type", .string("string")), ("minLength", .number(1)), ("maxLength", .number(Double(limit)))])
    case .dateTime:
      .object([
        ("type", .string("string")), ("format", .string("date-time")),
        ("examples", .array([.string("2026-11-24T10:00")])),
      ])
    case .date: .object([("type", .string("string")), ("format", .string("date"))])
    case .dateOrDateTime:
      .object([
        (
          "anyOf",
          .array([
            .object([("type", .string("string")), ("format", .string("date"))]),
            .object([("type", .string("string")), ("format", .string("date-time"))]),
          ])
        )
      ])
    case .minutes: .object([("type", .string("integer")), ("minimum", .number(1)), ("maximum", .number(1440))])
    case .choice(let options): .object([("enum", .array(options.map { .string($0) }))])
    case .tags:
      .object([
        ("type", .string("array")), ("items", .object([("type", .string("string"))])), ("maxItems", .number(20)),
      ])
    }
  }
}
