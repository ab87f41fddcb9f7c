import Foundation

extension UUID {
  /// Parses the hexadecimal form the store writes (dashes ignored), or returns `nil`. Faster than
  /// `UUID(uuidString:)`, which matters when a long session is loaded.
  init?(storedString text: String) {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var high: UInt8?
    for character in text.utf8 {
      let nibble: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
      case UInt8(ascii: "-"): continue
      default: return nil
      }
      guard count < 16 else { return nil }
      if let first = high {
        withUnsafeMutableBytes(of: &bytes) { $0[count] = first << 4 | nibble }
        count += 1
        high = nil
      } else {
        high = nibble
      }
    }
    guard count == 16, high == nil else { return nil }
    self.init(uuid: bytes)
  }
}
