import Foundation
import NIOCore

/// The server-sent event of a chunk that carries one piece of text, written without a JSON encoder.
///
/// A stream sends one such chunk per token, and everything in it but the text is the same each time.
/// The template is made once per completion by encoding a chunk whose text is a marker and cutting the
/// result around it, so the bytes on the wire are exactly what the encoder would have written.
struct DeltaChunkTemplate: Sendable {
  enum Field: Sendable { case content, reasoning }

  private let prefix: [UInt8]
  private let suffix: [UInt8]

  /// A template for `field`, or `nil` when the encoded chunk does not have the expected shape.
  init?(identity: CompletionIdentity, index: Int, field: Field) {
    let marker = "\u{1}"
    let delta =
      switch field {
      case .content: ChatCompletionChunk.Delta(content: marker)
      case .reasoning: ChatCompletionChunk.Delta(reasoningContent: marker)
      }
    let encoded = identity.chunk(delta, index: index)
    let parts = encoded.components(separatedBy: "\"\\u0001\"")
    guard parts.count == 2 else { return nil }
    prefix = Array("data: \(parts[0])\"".utf8)
    suffix = Array("\"\(parts[1])\n\n".utf8)
  }

  /// The whole event for `text`, ready to write.
  func event(_ text: String, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
    var buffer = allocator.buffer(capacity: prefix.count + suffix.count + text.utf8.count + 16)
    buffer.writeBytes(prefix)
    JSONStringEscaping.write(text, into: &buffer)
    buffer.writeBytes(suffix)
    return buffer
  }
}

/// The inside of a JSON string literal, escaped as RFC 8259 requires (quote, backslash, control
/// characters); every other character, `/` included, is written as it is.
enum JSONStringEscaping {
  static func write(_ text: String, into buffer: inout ByteBuffer) {
    let utf8 = text.utf8
    guard utf8.contains(where: needsEscape) else {
      buffer.writeString(text)
      return
    }
    for byte in utf8 {
      guard needsEscape(byte) else {
        buffer.writeInteger(byte)
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
      case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
      case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
      case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
      case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
      case 0x08: buffer.writeStaticString("\\b")
      case 0x0C: buffer.writeStaticString("\\f")
      default:
        buffer.writeStaticString("\\u00")
        buffer.writeInteger(hexDigits[Int(byte >> 4)])
        buffer.writeInteger(hexDigits[Int(byte & 0x0F)])
      }
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }
}
