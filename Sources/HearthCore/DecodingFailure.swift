import Foundation

/// A decoding failure as one line that names the field at fault, for any JSON a user or a file gives:
/// `malformed JSON`, `missing field title in events[2]`, `events[0].start should be a string`,
/// `models[1] is malformed: unknown field sha`.
public enum DecodingFailure {
  /// The line for `error`; an error that is not a `DecodingError` is described as it describes itself.
  public static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context):
      // Foundation's own wording for a syntax error says nothing a user can act on; a decoder's own does.
      let reason =
        context.debugDescription.hasPrefix("The given data was not valid JSON") ? nil : context.debugDescription
      guard !context.codingPath.isEmpty else { return reason.map { "malformed JSON: \($0)" } ?? "malformed JSON" }
      return "\(path(context.codingPath)) is malformed" + (reason.map { ": \($0)" } ?? "")
    case .keyNotFound(let key, let context):
      let parent = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
      return "missing field \(key.stringValue)\(parent)"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath, root: "the document")) should be \(typeName(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath, root: "the document")) should be \(typeName(type)), not null"
    @unknown default:
      return "malformed JSON"
    }
  }

  /// The field at fault, as `describe` names it (`events[2].start`; a missing field by its own path), or `nil`
  /// when the document as a whole is wrong.
  public static func field(_ error: any Error) -> String? {
    guard let error = error as? DecodingError else { return nil }
    let keys: [any CodingKey]
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
      keys = context.codingPath
    case .keyNotFound(let key, let context): keys = context.codingPath + [key]
    @unknown default: return nil
    }
    return keys.isEmpty ? nil : path(keys)
  }

  /// `events[2].start`.
  static func path(_ keys: [any CodingKey], root: String = "") -> String {
    let joined = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    guard !joined.isEmpty else { return root }
    return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type, is UInt32.Type, is Int64.Type, is UInt64.Type: "an integer"
    case is Double.Type: "a number"
    case is Bool.Type: "true or false"
    default: "a \(String(describing: type).lowercased().replacingOccurrences(of: "swift.", with: ""))"
    }
  }
}
