import AsyncHTTPClient
import Foundation
import HearthCore
import NIOCore
import NIOHTTP1

/// One streamed `/v1/chat/completions` request to a server on this machine, as the benchmarks send it to
/// Hearth and to `llama-server` alike: when its first and last text arrived, what it said and how it stopped.
struct CompletionStream: Sendable {
  var start: ContinuousClock.Instant
  var firstText: ContinuousClock.Instant?
  var lastText: ContinuousClock.Instant
  /// When the stream ended.
  var end: ContinuousClock.Instant
  /// Generated tokens, as the server counted them in its usage.
  var completionTokens: Int
  var promptTokens: Int
  var text: String
  var finishReason: String?
  /// Tokens Hearth's grammar forced, from the last `timings` (asked for with `timings_per_token`).
  var forcedTokens: Int?

  /// Sends `body` (its `stream` and `stream_options` are set here) and reads the whole answer.
  static func post(port: Int, body: [(String, JSONValue)]) async throws -> CompletionStream {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/chat/completions")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    // A connection of its own for every request: a kept-alive one that the server closes while idle (llama-server
    // after five seconds) would fail the next request that picks it up at that moment.
    request.headers.add(name: "Connection", value: "close")
    let streamed: [(String, JSONValue)] = [
      ("stream", .bool(true)), ("stream_options", .object([("include_usage", .bool(true))])),
    ]
    request.body = .bytes(ByteBuffer(string: JSONValue.object(body + streamed).jsonText))
    let clock = ContinuousClock()
    let start = clock.now
    let response: HTTPClientResponse
    do {
      response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
    } catch {
      throw BenchmarkError.toolFailed(tool: "HTTP on port \(port)", reason: "\(error)")
    }
    guard response.status == .ok else {
      throw BenchmarkError.toolFailed(tool: "HTTP on port \(port)", reason: "status \(response.status.code)")
    }
    // Parsing waits until the stream has ended, so the client spends as little time as it can on the
    // cores the server decodes on while tokens are arriving.
    var arrivals: [(at: ContinuousClock.Instant, bytes: ByteBuffer)] = []
    for try await buffer in response.body { arrivals.append((clock.now, buffer)) }
    var result = CompletionStream(
      start: start, firstText: nil, lastText: start, end: clock.now, completionTokens: 0, promptTokens: 0, text: "",
      finishReason: nil)
    // Events are cut at blank lines in bytes, and each decoded whole: a character whose bytes arrive in two
    // reads stays one character.
    var pending: [UInt8] = []
    for (now, buffer) in arrivals {
      pending += buffer.readableBytesView
      while let end = Self.blankLine(in: pending) {
        let event = pending[..<end]
        pending.removeFirst(end + 2)
        guard event.starts(with: Array("data: ".utf8)),
          let chunk = try? JSONDecoder().decode(JSONValue.self, from: Data(event.dropFirst(6)))
        else { continue }
        result.read(chunk, at: now)
      }
    }
    return result
  }

  /// Where the first "\n\n" in `bytes` starts.
  private static func blankLine(in bytes: [UInt8]) -> Int? {
    guard bytes.count >= 2 else { return nil }
    return (0..<(bytes.count - 1)).first { bytes[$0] == 10 && bytes[$0 + 1] == 10 }
  }

  private mutating func read(_ chunk: JSONValue, at now: ContinuousClock.Instant) {
    if let usage = chunk["usage"], let prompt = usage["prompt_tokens"]?.numberValue {
      promptTokens = Int(prompt)
      if let generated = usage["completion_tokens"]?.numberValue { completionTokens = Int(generated) }
    }
    if let forced = chunk["timings"]?["forced_n"]?.numberValue { forcedTokens = Int(forced) }
    guard let choice = chunk["choices"]?.arrayValue?.first else { return }
    if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
    if let content = choice["delta"]?["content"]?.stringValue, !content.isEmpty {
      if firstText == nil { firstText = now }
      lastText = now
      text += content
    }
  }

  /// Tokens per second after the first, from when the first text arrived to when the last did.
  var tokensPerSecond: Double {
    let span = (lastText - (firstText ?? lastText)).seconds
    return completionTokens > 1 && span > 0 ? Double(completionTokens - 1) / span : 0
  }
}
