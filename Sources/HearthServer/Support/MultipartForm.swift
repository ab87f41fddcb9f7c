import Foundation
import MultipartKit
import NIOCore

/// A `multipart/form-data` body, read whole: its parts by field name, in order.
struct MultipartForm {
  struct Part {
    var name: String
    var filename: String?
    var contentType: String?
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
  }

  var parts: [Part]

  /// The boundary a `Content-Type` header names, when it is `multipart/form-data`.
  static func boundary(contentType: String?) -> String? {
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
  /// - Throws: ``APIError`` (400) for a body that is not well-formed multipart data.
  init(_ body: ByteBuffer, boundary: String) throws {
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
    var malformed: String?
    parser.onPartComplete = {
      defer {
        headers = []
        current = Data()
        open = false
      }
      let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
      guard let name = Self.parameter("name", in: disposition) else {
        malformed = malformed ?? "a part has no Content-Disposition name"
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
      throw APIError.invalidRequest("the multipart body is malformed")
    }
    if let malformed { throw APIError.invalidRequest("the multipart body is malformed: \(malformed)") }
    if open || parts.isEmpty {
      throw APIError.invalidRequest("the multipart body ends before its closing boundary (was the upload cut short?)")
    }
    self.parts = parts
  }

  /// The value of `key="…"` (or unquoted) in a header such as `form-data; name="file"; filename="a.wav"`.
  static func parameter(_ key: String, in header: String) -> String? {
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
