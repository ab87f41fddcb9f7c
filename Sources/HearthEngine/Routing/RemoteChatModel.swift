import AsyncHTTPClient
import Foundation
public import HearthCore
import NIOCore
import NIOHTTP1

/// A model on a remote server, streamed over HTTP: an OpenAI-compatible server or Gemini.
public final class RemoteChatModel: ChatModel {
  public let settings: RemoteSettings
  /// Tokens are counted with a local model's tokenizer when one is given, else estimated from characters.
  private let counter: (any ChatModel)?

  /// A model at `settings`; `counter` counts tokens (the remote's own tokenizer is not reachable).
  public init(settings: RemoteSettings, counter: (any ChatModel)? = nil) {
    self.settings = settings
    self.counter = counter
  }

  /// A client of its own per request, with a short connect timeout: a server that went away must fail the
  /// turn in seconds (so the local model can answer), and no pooled connection may outlive it.
  private func withClient<Result>(_ body: (HTTPClient) async throws -> Result) async throws -> Result {
    var configuration = HTTPClient.Configuration()
    configuration.timeout = .init(connect: .seconds(3), read: .seconds(120))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
      let result = try await body(client)
      try? await client.shutdown()
      return result
    } catch {
      try? await client.shutdown()
      throw error
    }
  }

  public var name: String { settings.model }
  public func writesFromFacts() async -> Bool { settings.writesFromFacts }
  public var contextSize: Int { counter?.contextSize ?? 8192 }

  public func countTokens(_ messages: [ChatMessage]) throws -> Int {
    if let counter { return try counter.countTokens(messages) }
    return messages.reduce(0) { $0 + $1.content.count / 4 + 4 }
  }

  /// Asks the server whether it answers (`GET …/models`), within `timeout`.
  public func probe(timeout: Duration = .seconds(2)) async -> Bool {
    var request = HTTPClientRequest(url: modelsURL)
    authorize(&request)
    let ok = try? await withClient { client in
      let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout.milliseconds)))
      _ = try await response.body.collect(upTo: 1 << 20)
      return (200..<300).contains(Int(response.status.code))
    }
    return ok ?? false
  }

  public func generate(
    messages: [ChatMessage], options: GenerationOptions
  ) -> AsyncThrowingStream<GenerationEvent, any Error> {
    .producing { continuation in
      do {
        try await self.withClient { client in
          try await self.stream(messages: messages, options: options, client: client, into: continuation)
        }
      } catch is CancellationError {
        continuation.yield(.done(.cancelled))
      }
    }
  }

  private func stream(
    messages: [ChatMessage], options: GenerationOptions, client: HTTPClient,
    into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
  ) async throws {
    let clock = ContinuousClock()
    let started = clock.now
    var request = HTTPClientRequest(url: generateURL)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    authorize(&request)
    request.body = .bytes(ByteBuffer(bytes: try body(messages: messages, options: options)))
    let response: HTTPClientResponse
    do {
      response = try await client.execute(
        request, timeout: .milliseconds(Int64((options.timeout ?? .seconds(600)).milliseconds)))
    } catch {
      throw RemoteError.unreachable("\(error)")
    }
    guard (200..<300).contains(Int(response.status.code)) else {
      let text = (try? await response.body.collect(upTo: 1 << 16)).map { String(buffer: $0) } ?? ""
      throw RemoteError.server(status: Int(response.status.code), message: Self.errorMessage(text))
    }
    var firstToken: ContinuousClock.Instant?
    var generated = 0
    var promptTokens: Int?
    var stop = StopReason.endOfGeneration
    do {
      for try await data in ServerSentEventData(body: response.body) {
        if data == "[DONE]" { break }
        guard let chunk = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
          throw RemoteError.malformed("a chunk is not JSON: \(data.prefix(120))")
        }
        if let message = chunk["error"] { throw RemoteError.server(status: 200, message: Self.describe(message)) }
        let piece = settings.kind == .openai ? Self.openAIPiece(chunk) : Self.geminiPiece(chunk)
        if let text = piece.text, !text.isEmpty {
          if firstToken == nil { firstToken = clock.now }
          generated += 1
          continuation.yield(.token(text))
        }
        if let reason = piece.stop { stop = reason }
        if let prompt = piece.promptTokens { promptTokens = prompt }
        if let completion = piece.completionTokens { generated = completion }
      }
    } catch let error as RemoteError {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw RemoteError.unreachable("the stream broke: \(error)")
    }
    let end = clock.now
    continuation.yield(
      .usage(
        GenerationUsage(
          promptTokens: promptTokens ?? 0, reusedPromptTokens: 0, prefilledTokens: promptTokens ?? 0,
          generatedTokens: generated, prefillDuration: (firstToken ?? end) - started,
          timeToFirstToken: firstToken.map { $0 - started }, generationDuration: end - (firstToken ?? end),
          provider: .remote)))
    continuation.yield(.done(stop))
  }

  // MARK: Wire formats

  private var base: String {
    settings.url.absoluteString.hasSuffix("/")
      ? String(settings.url.absoluteString.dropLast()) : settings.url.absoluteString
  }

  private var generateURL: String {
    switch settings.kind {
    case .openai: "\(base)/chat/completions"
    case .gemini: "\(base)/models/\(settings.model):streamGenerateContent?alt=sse"
    }
  }

  private var modelsURL: String { "\(base)/models" }

  private func authorize(_ request: inout HTTPClientRequest) {
    guard let key = settings.apiKey else { return }
    switch settings.kind {
    case .openai: request.headers.add(name: "Authorization", value: "Bearer \(key)")
    case .gemini: request.headers.add(name: "x-goog-api-key", value: key)
    }
  }

  private func body(messages: [ChatMessage], options: GenerationOptions) throws -> [UInt8] {
    let sampling = options.sampling
    var object: [String: Any]
    switch settings.kind {
    case .openai:
      object = [
        "model": settings.model, "stream": true, "max_tokens": options.maxNewTokens,
        "temperature": sampling.temperature, "top_p": sampling.topP,
        "stream_options": ["include_usage": true],
        "messages": messages.map { ["role": $0.role.rawValue, "content": $0.content] },
      ]
      if let seed = sampling.seed { object["seed"] = seed }
    case .gemini:
      let system = messages.filter { $0.role == .system }.map(\.content).joined(separator: "\n\n")
      object = [
        "contents": messages.filter { $0.role != .system }.map {
          ["role": $0.role == .assistant ? "model" : "user", "parts": [["text": $0.content]]]
        },
        "generationConfig": [
          "temperature": sampling.temperature, "topP": sampling.topP, "topK": sampling.topK,
          "maxOutputTokens": options.maxNewTokens,
        ],
      ]
      if !system.isEmpty { object["systemInstruction"] = ["parts": [["text": system]]] }
    }
    return Array(try JSONSerialization.data(withJSONObject: object))
  }

  struct Piece {
    var text: String?
    var stop: StopReason?
    var promptTokens: Int?
    var completionTokens: Int?
  }

  static func openAIPiece(_ chunk: [String: Any]) -> Piece {
    let choice = (chunk["choices"] as? [[String: Any]])?.first
    let usage = chunk["usage"] as? [String: Any]
    return Piece(
      text: (choice?["delta"] as? [String: Any])?["content"] as? String,
      stop: (choice?["finish_reason"] as? String).map(stopReason),
      promptTokens: usage?["prompt_tokens"] as? Int, completionTokens: usage?["completion_tokens"] as? Int)
  }

  static func geminiPiece(_ chunk: [String: Any]) -> Piece {
    let candidate = (chunk["candidates"] as? [[String: Any]])?.first
    let parts = ((candidate?["content"] as? [String: Any])?["parts"] as? [[String: Any]]) ?? []
    let usage = chunk["usageMetadata"] as? [String: Any]
    return Piece(
      text: parts.compactMap { $0["text"] as? String }.joined(),
      stop: (candidate?["finishReason"] as? String).map(stopReason),
      promptTokens: usage?["promptTokenCount"] as? Int, completionTokens: usage?["candidatesTokenCount"] as? Int)
  }

  static func stopReason(_ text: String) -> StopReason {
    switch text.lowercased() {
    case "length", "max_tokens": .maxTokens
    default: .endOfGeneration
    }
  }

  /// An error body's message: OpenAI's `{"error": {"message": …}}`, Gemini's `{"error": "…"}` or
  /// `{"error": {"message": …}}`, or the text itself.
  static func errorMessage(_ text: String) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let error = object["error"]
    else { return String(text.prefix(300)) }
    return describe(error)
  }

  static func describe(_ error: Any) -> String {
    if let text = error as? String { return text }
    if let object = error as? [String: Any], let message = object["message"] as? String { return message }
    return "\(error)"
  }
}
