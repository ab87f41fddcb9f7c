import Foundation
import HearthCore

/// JSON as the CLI writes and reads it: snake_case keys, dates as seconds since 1970 (exact for round
/// trips), sorted keys. Stored types spell their keys in snake_case themselves, so reading needs no
/// conversion.
enum JSONOutput {
  static func encode(_ value: some Encodable, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }

  /// A one-line explanation of a decoding failure, naming where in the document it happened.
  static func explain(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      return keys.isEmpty ? "the document" : keys
    }
    switch error {
    case .dataCorrupted(let context): return "malformed JSON at \(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context): return "missing \(key.stringValue) in \(path(context))"
    case .typeMismatch(_, let context): return "wrong type at \(path(context)): \(context.debugDescription)"
    case .valueNotFound(_, let context): return "missing value at \(path(context))"
    @unknown default: return "\(error)"
    }
  }
}
