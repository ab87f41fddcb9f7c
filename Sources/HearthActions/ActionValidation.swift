import Foundation
public import HearthCore

/// A field's checked value.
public enum ActionValue: Sendable, Hashable {
  case text(String)
  case dateTime(LocalDateTime)
  case date(LocalDate)
  case minutes(Int)
  case tags([String])
}

/// Why a block cannot run; names the field at fault.
public struct ActionValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  public var field: String?
  public var message: String

  public init(field: String?, _ message: String) {
    self.field = field
    self.message = message
  }

  public var description: String { field.map { "\($0): \(message)" } ?? message }
}

/// A block whose payload matches its spec: every field known, every required one present, every value of
/// its type; ``typed`` is what it asks for.
public struct ValidatedAction: Sendable, Hashable {
  public var spec: ActionSpec
  /// Each field's checked value, by name.
  public var values: [String: ActionValue]
  /// What the block asks for, as a value the planner switches over.
  public var typed: Action

  public var kind: ActionKind { spec.kind }
  /// The payload's `action` verb; `nil` for kinds that do one thing.
  public var action: String? { spec.action }
}

extension ActionBlock {
  /// Checks the payload against its kind's specs.
  public func validated() throws(ActionValidationError) -> ValidatedAction {
    guard let members = payload.objectMembers else {
      throw ActionValidationError(field: nil, "the payload is not an object")
    }
    let specs = ActionSpec.specs(of: kind)
    let spec: ActionSpec
    if specs.count == 1, specs[0].action == nil {
      spec = specs[0]
    } else {
      guard let name = payload["action"]?.stringValue else {
        throw ActionValidationError(
          field: "action", "is required: one of \(specs.compactMap(\.action).joined(separator: ", "))")
      }
      guard let found = specs.first(where: { $0.action == name }) else {
        throw ActionValidationError(
          field: "action", "\(name) is not one of \(specs.compactMap(\.action).joined(separator: ", "))")
      }
      spec = found
    }
    var values: [String: ActionValue] = [:]
    for (key, value) in members where !(key == "action" && spec.action != nil) {
      guard let field = spec.fields.first(where: { $0.name == key }) else {
        throw ActionValidationError(
          field: key,
          "is not a field of \(kind.rawValue) \(spec.action ?? "") (\(spec.fields.map(\.name).joined(separator: ", ")))"
        )
      }
      if case .null = value { continue }
      values[key] = try Self.check(value, as: field)
    }
    for field in spec.fields where field.required && values[field.name] == nil {
      throw ActionValidationError(field: field.name, "is required")
    }
    if spec.needsTarget, spec.targetFields.allSatisfy({ values[$0] == nil }) {
      throw ActionValidationError(
        field: spec.targetFields.last,
        "name the \(Self.noun(kind)) to act on (\(spec.targetFields.joined(separator: " or ")))")
    }
    return ValidatedAction(
      spec: spec, values: values, typed: try Action(spec: spec, values: ValidatedValues(values: values)))
  }

  /// What an action of this kind acts on: "event", "reminder", …
  public static func noun(_ kind: ActionKind) -> String {
    switch kind {
    case .calendar: "event"
    case .reminder: "reminder"
    case .note: "note"
    case .habit: "habit"
    case .contactsSearch: "contact"
    case .webSearch: "search"
    case .memory: "fact"
    case .toolCall: "tool"
    }
  }

  private static func check(_ value: JSONValue, as field: ActionField) throws(ActionValidationError) -> ActionValue {
    func text() throws(ActionValidationError) -> String {
      guard let text = value.stringValue else { throw ActionValidationError(field: field.name, "must be a string") }
      return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    switch field.type {
    case .text(let limit):
      let value = try text()
      guard !value.isEmpty else { throw ActionValidationError(field: field.name, "is empty") }
      guard value.count <= limit else {
        throw ActionValidationError(field: field.name, "is longer than \(limit) characters")
      }
      return .text(value)
    case .dateTime:
      let value = try text()
      guard value.count > 10, let time = LocalDateTime(parsing: value) else {
        throw ActionValidationError(field: field.name, "\(value) is not a date-time such as 2026-11-24T10:00")
      }
      return .dateTime(time)
    case .date:
      let value = try text()
      guard let date = LocalDate(parsing: value) else {
        throw ActionValidationError(field: field.name, "\(value) is not a date such as 2026-11-24")
      }
      return .date(date)
    case .dateOrDateTime:
      let value = try text()
      if let date = LocalDate(parsing: value) { return .date(date) }
      guard value.count > 10, let time = LocalDateTime(parsing: value) else {
        throw ActionValidationError(
          field: field.name, "\(value) is not a date (2026-11-24) or date-time (2026-11-24T10:00)")
      }
      return .dateTime(time)
    case .minutes:
      guard let number = value.numberValue, number == number.rounded(), (1...1440).contains(number) else {
        throw ActionValidationError(field: field.name, "must be a whole number of minutes from 1 to 1440")
      }
      return .minutes(Int(number))
    case .choice(let options):
      let value = try text()
      guard options.contains(value) else {
        throw ActionValidationError(field: field.name, "\(value) is not one of \(options.joined(separator: ", "))")
      }
      return .text(value)
    case .tags:
      guard let items = value.arrayValue, items.count <= 20, items.allSatisfy({ $0.stringValue != nil }) else {
        throw ActionValidationError(field: field.name, "must be a list of at most 20 strings")
      }
      return .tags(items.compactMap(\.stringValue))
    }
  }
}
