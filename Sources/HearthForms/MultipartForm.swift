public import Foundation
public import NIOCore

/// Why a body is not well-formed multipart data.
public enum MultipartFormError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A delimiter or a header line does not read.
  case malformed
  /// A part has no `Content-Disposition` name.
  case unnamedPart
  /// The body ends before its closing boundary.
  case cutShort

  public var description: String {
    switch self {
    case .malformed: "the multipart body is malformed"
    case .unnamedPart: "the multipart body is malformed: a part has no Content-Disposition name"
    case .cutShort: "the multipart body ends before its closing boundary (was the upload cut short?)"
    }
  }
}

/// A `multipart/form-data` body (RFC 7578), read whole: its parts by field name, in order. Read here rather
/// than by a library: the one at hand trapped on a header name with a byte above 127, so any client could end
/// the server with one upload.
public struct MultipartForm: Sendable {
  /// One field: a text value or a file.
  public struct Part: Sendable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  public var parts: [Part]

  /// Most header bytes one part may have, and most header lines.
  static let headerLimit = 16 << 10
  static let headerLines = 32

  /// The boundary a `Content-Type` header names, when it is `multipart/form-data`.
  public static func boundary(contentType: String?) -> String? {
    guard let contentType else { return nil }
    let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
    for piece in pieces.dropFirst() {
      let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
      let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      return value.isEmpty || value.count > 200 ? nil : value
    }
    return nil
  }

  /// Parses `body` with `boundary`.
  /// - Throws: ``MultipartFormError`` for a body that is not well-formed multipart data.
  public init(_ body: ByteBuffer, boundary: String) throws(MultipartFormError) {
    let bytes = [UInt8](body.readableBytesView)
    let delimiter = Array("--\(boundary)".utf8)
    // The first delimiter opens the body, after an optional preamble; every later one follows a line break.
    guard var cursor = Self.delimiter(delimiter, in: bytes, from: 0, atStart: true) else { throw .cutShort }
    var parts: [Part] = []
    while true {
      cursor += delimiter.count
      if bytes[cursor...].starts(with: [0x2D, 0x2D]) { break }  // "--": the closing delimiter
      cursor = Self.skipPadding(bytes, from: cursor)
      guard let afterLine = Self.lineBreakEnd(bytes, at: cursor) else {
        throw cursor >= bytes.count ? .cutShort : .malformed
      }
      let (headers, bodyStart) = try Self.headers(bytes, from: afterLine)
      guard let next = Self.delimiter(delimiter, in: bytes, from: bodyStart, atStart: false) else { throw .cutShort }
      // The line break before the delimiter belongs to it.
      var bodyEnd = next
      if bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0A { bodyEnd -= 1 }
      if bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0D { bodyEnd -= 1 }
      let disposition = headers["content-disposition"] ?? ""
      guard let name = Self.parameter("name", in: disposition) else { throw .unnamedPart }
      parts.append(
        Part(
          name: name, filename: Self.parameter("filename", in: disposition), contentType: headers["content-type"],
          body: Data(bytes[bodyStart..<bodyEnd])))
      cursor = next
    }
    guard !parts.isEmpty else { throw .cutShort }
    self.parts = parts
  }

  /// Where the next delimiter starts at or after `from`: at the very start (when allowed) or right after a
  /// line break, and followed by `--`, padding or a line break (so a longer boundary is not taken for it).
  static func delimiter(_ delimiter: [UInt8], in bytes: [UInt8], from: Int, atStart: Bool) -> Int? {
    var index = from
    while index + delimiter.count <= bytes.count {
      guard let found = bytes[index...].firstIndex(of: delimiter[0]), found + delimiter.count <= bytes.count else {
        return nil
      }
      let opensLine = found == 0 ? atStart : bytes[found - 1] == 0x0A
      if opensLine, bytes[found..<found + delimiter.count].elementsEqual(delimiter) {
        let after = found + delimiter.count
        if after == bytes.count || [0x2D, 0x20, 0x09, 0x0D, 0x0A].contains(bytes[after]) { return found }
      }
      index = found + 1
    }
    return nil
  }

  static func skipPadding(_ bytes: [UInt8], from: Int) -> Int {
    var index = from
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    return index
  }

  /// The index after a line break (CRLF or a bare LF) at `index`, if there is one.
  static func lineBreakEnd(_ bytes: [UInt8], at index: Int) -> Int? {
    if index + 1 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A { return index + 2 }
    if index < bytes.count, bytes[index] == 0x0A { return index + 1 }
    return nil
  }

  /// A part's header lines up to the empty line, by lower-cased name, and where its body starts.
  static func headers(_ bytes: [UInt8], from start: Int) throws(MultipartFormError) -> ([String: String], Int) {
    var headers: [String: String] = [:]
    var index = start
    for _ in 0...headerLines {
      guard index - start <= headerLimit else { throw .malformed }
      guard let end = bytes[index...].firstIndex(of: 0x0A) else { throw .cutShort }
      var line = bytes[index..<end]
      if line.last == 0x0D { line = line.dropLast() }
      index = end + 1
      if line.isEmpty { return (headers, index) }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[..<colon].allSatisfy({ (0x21...0x7E).contains($0) })
      else { throw .malformed }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      headers[name] = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
    throw .malformed
  }

  /// The value of `key="…"` (or unquoted) in a header such as `form-data; name="file"; filename="a.wav"`.
  public static func parameter(_ key: String, in header: String) -> String? {
    for piece in header.split(separator: ";").dropFirst() {
      let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2, pair[0].lowercased() == key else { continue }
      var value = pair[1]
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
      }
      return value
    }
    return nil
  }
}
