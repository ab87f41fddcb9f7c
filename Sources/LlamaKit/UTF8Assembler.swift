/// Joins the byte pieces of tokens into text without ever cutting a character in half: bytes that start a
/// multi-byte character are held back until the character is complete.
public struct UTF8Assembler: Sendable {
  private var pending: [UInt8] = []

  /// Creates an empty assembler.
  public init() {}

  /// Adds bytes and returns the text that is now complete (possibly empty). Invalid bytes become U+FFFD.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> String {
    pending.append(contentsOf: bytes)
    let cut = completePrefixLength(pending)
    guard cut > 0 else { return "" }
    let text = String(decoding: pending[..<cut], as: UTF8.self)
    pending.removeFirst(cut)
    return text
  }

  /// Returns whatever is held back; an unfinished character becomes U+FFFD.
  public mutating func flush() -> String {
    defer { pending.removeAll() }
    return String(decoding: pending, as: UTF8.self)
  }

  /// Whether bytes are held back waiting for the rest of a character.
  public var hasPendingBytes: Bool { !pending.isEmpty }

  /// Length of the prefix that does not end inside a character.
  private func completePrefixLength(_ bytes: [UInt8]) -> Int {
    // A character is at most 4 bytes, so only the last 3 can belong to an unfinished one.
    var index = bytes.count - 1
    while index >= max(0, bytes.count - 3) {
      let byte = bytes[index]
      if byte & 0b1100_0000 != 0b1000_0000 {
        let expected =
          byte & 0b1000_0000 == 0
          ? 1
          : byte & 0b1110_0000 == 0b1100_0000
            ? 2
            : byte & 0b1111_0000 == 0b1110_0000
              ? 3
              : byte & 0b1111_1000 == 0b1111_0000 ? 4 : 1
        return bytes.count - index < expected ? index : bytes.count
      }
      index -= 1
    }
    return bytes.count
  }
}
