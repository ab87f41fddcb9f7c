import Foundation
import HearthCore
import HearthEngine
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// `POST /v1/chat/completions` and `GET /v1/models`.
struct OpenAIRoutes<Context: ChannelRequestContext> {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration
  let metrics: ServerMetrics

  func register(on router: Router<Context>) {
    router.get("/v1/models") { _, _ in try self.models() }
    router.post("/v1/chat/completions") { request, context in
      try await self.chatCompletions(request, context: context)
    }
  }

  private func models() throws -> Response {
    let created = Int(dependencies.startedAt.timeIntervalSince1970)
    let entries = dependencies.engine.servedModels().map { ModelList.Entry(id: $0.file, created: created) }
    return try JSONResponse.make(ModelList(data: entries))
  }

  private func chatCompletions(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decode(
      ChatCompletionRequest.self, from: request, limit: configuration.maxBodyBytes)
    let engine = dependencies.engine
    _ = try engine.requireModel()
    let messages = try body.chatMessages()
    let characters = messages.reduce(0) { $0 + $1.content.count }
    guard characters <= configuration.maxPromptCharacters else {
      throw APIError(
        .contentTooLarge, "the prompt has \(characters) characters; the limit is \(configuration.maxPromptCharacters)",
        code: "prompt_too_large")
    }
    let options = try body.generationOptions(defaults: try engine.chatSettings())
    let callsTools = try body.toolPlan()?.active == true
    guard await engine.queueDepth < configuration.maxQueuedRequests else {
      throw APIError(
        .tooManyRequests, "too many requests are waiting for the model; try again shortly", code: "queue_full")
    }
    // The request waits its turn before anything is counted: the model it names may need loading first,
    // and nothing may load under another request's generation. A client that leaves gives up its place.
    let reservation = HeldReservation(
      engine: engine,
      reservation: try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
        try await engine.reserveModel(named: body.model)
      })
    let model = reservation.model
    let promptTokens: Int
    do {
      promptTokens = try await Self.countTokens(messages, model: model)
      guard promptTokens < model.contextSize else {
        throw APIError.invalidRequest(
          "the prompt is \(promptTokens) tokens; the model's context holds \(model.contextSize)", parameter: "messages")
      }
    } catch {
      await reservation.release()
      throw error
    }
    let run = CompletionRun(model: model, messages: messages, options: options, stopSequences: body.stop?.values ?? [])
    let identity = CompletionIdentity(model: model.name, promptTokens: promptTokens)
    if body.stream == true {
      return stream(
        run, reservation: reservation, identity: identity, includeUsage: body.streamOptions?.includeUsage == true,
        callsTools: callsTools)
    }
    let outcome: CompletionRun.Outcome
    do {
      outcome = try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
        do {
          return try await run.run { _, _ in }
        } catch {
          throw Self.apiError(error)
        }
      }
      await reservation.release()
    } catch {
      await reservation.release()
      throw error
    }
    record(outcome, identity)
    let reasoning = outcome.reasoning.isEmpty ? nil : outcome.reasoning
    var message = ChatCompletion.Message(content: outcome.content, reasoningContent: reasoning)
    var finishReason = outcome.finishReason
    if callsTools, let (text, call) = ToolPlan.extract(outcome.content) {
      message = .init(content: text, reasoningContent: reasoning, toolCalls: [call])
      finishReason = "tool_calls"
    }
    let completion = ChatCompletion(
      id: identity.id, created: identity.created, model: identity.model,
      choices: [.init(message: message, finishReason: finishReason)], usage: identity.usage(outcome))
    return try JSONResponse.make(completion)
  }

  /// Streams the completion. With tools on offer the answer is held back until it ends, because a call
  /// cannot be told from text before it is complete; it then goes out as one content delta or one
  /// `tool_calls` delta.
  private func stream(
    _ run: CompletionRun, reservation: HeldReservation, identity: CompletionIdentity, includeUsage: Bool,
    callsTools: Bool
  ) -> Response {
    Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        var failure: APIError?
        do {
          try await writer.sendEvent(identity.chunk(.init(role: "assistant", content: "")))
          let pieces = PieceEvents(identity: identity)
          let outcome = try await run.run { content, reasoning in
            guard !callsTools || !reasoning.isEmpty else { return }
            try await writer.write(pieces.event(content: callsTools ? "" : content, reasoning: reasoning))
          }
          record(outcome, identity)
          var finishReason = outcome.finishReason
          if callsTools {
            if let (text, call) = ToolPlan.extract(outcome.content) {
              if let text { try await writer.sendEvent(identity.chunk(.init(content: text))) }
              let delta = ChatCompletionChunk.ToolCallDelta(id: call.id, function: call.function)
              try await writer.sendEvent(identity.chunk(.init(toolCalls: [delta])))
              finishReason = "tool_calls"
            } else if !outcome.content.isEmpty {
              try await writer.sendEvent(identity.chunk(.init(content: outcome.content)))
            }
          }
          try await writer.sendEvent(identity.chunk(.init(), finishReason: finishReason))
          if includeUsage { try await writer.sendEvent(identity.usageChunk(outcome)) }
          try await writer.sendEvent("[DONE]")
        } catch {
          failure = Self.apiError(error)
        }
        await reservation.release()
        if let failure {
          // The client may still be there (a generation failure); if it is, it learns why.
          try? await writer.sendEvent(JSONResponse.encodedLine(ErrorEnvelope(failure)))
          try? await writer.finish(nil)
          return
        }
        try await writer.finish(nil)
      })
  }

  private func record(_ outcome: CompletionRun.Outcome, _ identity: CompletionIdentity) {
    let usage = outcome.usage
    metrics.recordGeneration(
      api: "openai", promptTokens: usage?.promptTokens ?? identity.promptTokens,
      generatedTokens: usage?.generatedTokens ?? outcome.pieces, timeToFirstToken: usage?.timeToFirstToken,
      tokensPerSecond: usage?.generationTokensPerSecond ?? 0)
  }

  static func countTokens(_ messages: [ChatMessage], model: any ChatModel) async throws -> Int {
    do {
      return try model.countTokens(messages)
    } catch {
      throw APIError.invalidRequest(
        "the conversation cannot be formatted for this model: \(error)", parameter: "messages")
    }
  }

  static func apiError(_ error: any Error) -> APIError {
    if let error = error as? APIError { return error }
    if error is CancellationError { return APIError(.init(code: 499), "the request was cancelled", code: "cancelled") }
    return APIError(.internalServerError, "generation failed: \(error)", code: "generation_failed")
  }
}

/// The events of a stream's text chunks: the templates' fast path for the usual chunk of one kind of
/// text, the encoder for the rare one that carries both.
struct PieceEvents {
  let identity: CompletionIdentity
  let content: DeltaChunkTemplate?
  let reasoning: DeltaChunkTemplate?

  init(identity: CompletionIdentity) {
    self.identity = identity
    content = DeltaChunkTemplate(identity: identity, field: .content)
    reasoning = DeltaChunkTemplate(identity: identity, field: .reasoning)
  }

  func event(content text: String, reasoning thought: String) -> ByteBuffer {
    if thought.isEmpty, let content { return content.event(text) }
    if text.isEmpty, let reasoning { return reasoning.event(thought) }
    let chunk = identity.chunk(
      .init(content: text.isEmpty ? nil : text, reasoningContent: thought.isEmpty ? nil : thought))
    return ByteBuffer(string: "data: \(chunk)\n\n")
  }
}

/// The `{"error": …}` object sent inside a stream when generation fails after it started.
struct ErrorEnvelope: Encodable {
  struct Detail: Encodable {
    var message: String
    var type: String
    var code: String?
  }
  var error: Detail

  init(_ error: APIError) {
    self.error = Detail(message: error.message, type: error.type, code: error.code)
  }
}

/// What every chunk and the final object of one completion share.
struct CompletionIdentity {
  let id = "chatcmpl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  let created = Int(Date().timeIntervalSince1970)
  let model: String
  let promptTokens: Int

  func chunk(_ delta: ChatCompletionChunk.Delta, finishReason: String? = nil) -> String {
    JSONResponse.encodedLine(
      ChatCompletionChunk(
        id: id, created: created, model: model, choices: [.init(delta: delta, finishReason: finishReason)], usage: nil))
  }

  func usageChunk(_ outcome: CompletionRun.Outcome) -> String {
    JSONResponse.encodedLine(
      ChatCompletionChunk(id: id, created: created, model: model, choices: [], usage: usage(outcome)))
  }

  func usage(_ outcome: CompletionRun.Outcome) -> Usage {
    let figures = outcome.usage
    return Usage(
      promptTokens: figures?.promptTokens ?? promptTokens,
      completionTokens: figures?.generatedTokens ?? outcome.pieces,
      promptTokensDetails: .init(cachedTokens: figures?.reusedPromptTokens ?? 0),
      timings: .init(
        timeToFirstTokenMs: figures?.timeToFirstToken?.milliseconds,
        promptTokensPerSecond: figures?.prefillTokensPerSecond ?? 0,
        generationTokensPerSecond: figures?.generationTokensPerSecond ?? 0))
  }
}

/// How requests name models: case-insensitive, with or without the file's `.gguf`, by any leading part.
enum ModelName {
  static func stem(_ name: String) -> String {
    name.lowercased().replacingOccurrences(of: ".gguf", with: "")
  }
}

/// A reservation a response holds until it has written its last byte; given back at most once, and given back
/// even if the response is dropped before its body runs (a client gone before the first byte).
final class HeldReservation: Sendable {
  private let engine: Engine
  private let reservation: ModelReservation
  private let released = Mutex(false)

  init(engine: Engine, reservation: ModelReservation) {
    self.engine = engine
    self.reservation = reservation
  }

  var model: any ChatModel { reservation.model }

  func release() async {
    let first = released.withLock { released in
      defer { released = true }
      return !released
    }
    guard first else { return }
    await engine.release(reservation)
  }

  deinit {
    guard !released.withLock({ $0 }) else { return }
    let (engine, reservation) = (engine, reservation)
    Task { await engine.release(reservation) }
  }
}
