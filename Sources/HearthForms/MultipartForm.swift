public import Foundation
import MultipartKit
public import NIOCore

/// Why a body is not well-formed multipart data.
public enum MultipartFormError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The parser stopped on it.
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

/// A `multipart/form-data` body, read whole: its parts by field name, in order.
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
    let parser = MultipartParser(boundary: boundary)
    var parts: [Part] = []
    var headers: [(String, String)] = []
    var current = Data()
    var open = false
    parser.onHeader = { name, value in
      headers.append((name.lowercased(), value))
      open = true
    }
    parser.onBody = { buffer in
      current.append(contentsOf: buffer.readableBytesView)
      open = true
    }
    var unnamed = false
    parser.onPartComplete = {
      defer {
        headers = []
        current = Data()
        open = false
      }
      let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
      guard let name = Self.parameter("name", in: disposition) else {
        unnamed = true
        return
      }
      parts.append(
        Part(
          name: name, filename: Self.parameter("filename", in: disposition),
          contentType: headers.first { $0.0 == "content-type" }?.1, body: current))
    }
    do {
      try parser.execute(body)
    } catch {
      throw .malformed
    }
    if unnamed { throw .unnamedPart }
    if open || parts.isEmpty { throw .cutShort }
    self.parts = parts
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
