import AsyncHTTPClient
import Foundation
import NIOCore

/// The `data:` payloads of a server-sent event stream, as they arrive.
struct ServerSentEventData: AsyncSequence {
  typealias Element = String
  let body: HTTPClientResponse.Body

  struct AsyncIterator: AsyncIteratorProtocol {
    var chunks: HTTPClientResponse.Body.AsyncIterator
    var buffer: [UInt8] = []
    var pending: [String] = []
    var ended = false

    mutating func next() async throws -> String? {
      while true {
        if !pending.isEmpty { return pending.removeFirst() }
        if ended { return nil }
        if let chunk = try await chunks.next() {
          buffer.append(contentsOf: chunk.readableBytesView)
        } else {
          ended = true
          buffer.append(UInt8(ascii: "\n"))
        }
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          var line = String(decoding: buffer[..<newline], as: UTF8.self)
          buffer.removeSubrange(...newline)
          if line.hasSuffix("\r") { line.removeLast() }
          if line.hasPrefix("data:") {
            pending.append(String(line.dropFirst(5)).trimmingCharacters(in: [" "]))
          }
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(chunks: body.makeAsyncIterator())
  }
}
