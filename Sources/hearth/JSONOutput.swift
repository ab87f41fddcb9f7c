import Foundation
import HearthCore

/// JSON as the CLI writes and reads it: snake_case keys, dates as seconds since 1970 (exact for round
/// trips), sorted keys. Stored types spell their keys in snake_case themselves, so reading needs no
/// conversion.
enum JSONOutput {
  static func encode(_ value: some Encodable, pretty: Bool = false) throws -> String {
    let encoder = SnakeCaseJSON.encoder()
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }
}
