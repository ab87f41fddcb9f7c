import HTTPTypes
import Hummingbird

/// Server-sent events over a streamed body, each flushed as it is written. A failed write means the
/// client went away; callers stop their work when it throws.
extension ResponseBodyWriter {
  /// Writes `data: <text>` (and `event: <name>` when named).
  mutating func sendEvent(_ data: String, event: String? = nil) async throws {
    var text = ""
    if let event { text += "event: \(event)\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
    text += "\n"
    try await write(ByteBuffer(string: text))
  }

  /// Writes a comment line: ignored by clients, and proof that the client is still there.
  mutating func sendComment(_ text: String) async throws {
    try await write(ByteBuffer(string: ": \(text)\n\n"))
  }
}

enum EventStream {
  static let headers: HTTPFields = [
    .contentType: "text/event-stream; charset=utf-8",
    .cacheControl: "no-cache, no-store",
    HTTPField.Name("X-Accel-Buffering")!: "no",
  ]
}
