import Foundation
import HearthCore
import HearthEngine
import HearthStore
import Hummingbird

/// A chat turn for the web app: `POST /api/sessions/:id/turns` answers with a server-sent event stream
/// of the same events the terminal renders; `POST /api/sessions/:id/stop` stops it. Leaving the stream
/// (closing the tab, a lost connection) stops the turn too; what was said so far is kept.
struct TurnRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration
  let metrics: ServerMetrics

  func register(on router: Router<Context>) {
    router.post("/api/sessions/:id/turns") { request, context in
      let id = try SessionRoutes<Context>.sessionID(context)
      let body = try await RequestReader.decode(TurnRequest.self, from: request, limit: configuration.maxBodyBytes)
      let text = body.text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty else { throw APIError.invalidRequest("the message is empty", parameter: "text") }
      guard text.count <= configuration.maxPromptCharacters else {
        throw APIError(
          .contentTooLarge,
          "the message has \(text.count) characters; the limit is \(configuration.maxPromptCharacters)",
          code: "prompt_too_large")
      }
      _ = try dependencies.database.session(id)
      _ = try dependencies.requireModel()
      guard await !dependencies.chat.isGenerating(id) else {
        throw APIError(
          .conflict, "this session is already answering; wait for it or stop it first", code: "session_busy")
      }
      guard await dependencies.queue.depth < configuration.maxQueuedRequests else {
        throw APIError(
          .tooManyRequests, "too many requests are waiting for the model; try again shortly", code: "queue_full")
      }
      let settings = try dependencies.settings()
      let systemPrompt = settings.systemPrompt ?? dependencies.defaultSystemPrompt()
      return Response(
        status: .ok, headers: EventStream.headers,
        body: ResponseBody { writer in
          try await stream(
            text, session: id, systemPrompt: systemPrompt, options: settings.generationOptions, writer: &writer)
        })
    }
    router.post("/api/sessions/:id/stop") { _, context in
      let id = try SessionRoutes<Context>.sessionID(context)
      let wasGenerating = await dependencies.chat.isGenerating(id)
      await dependencies.chat.stop(id)
      return try JSONResponse.make(StopResult(stopped: wasGenerating))
    }
  }

  private func stream(
    _ text: String, session: UUID, systemPrompt: String, options: GenerationOptions,
    writer: inout any ResponseBodyWriter
  ) async throws {
    let ticket: GenerationQueue.Ticket
    do {
      ticket = try await QueueEntry.enter(dependencies.queue) { position in
        try await writer.sendEvent(JSONResponse.encodedLine(["position": position]), event: "queued")
      }
    } catch {
      return
    }
    var failure: (any Error)?
    do {
      // A client that left while waiting must not start a turn.
      try await writer.sendComment("your turn")
      let events = try await dependencies.chat.send(text, to: session, systemPrompt: systemPrompt, options: options)
      for await event in events {
        let (name, payload) = Self.encode(event)
        try await writer.sendEvent(payload, event: name)
        if case .finished(let message) = event { record(message) }
      }
    } catch {
      failure = error
    }
    await dependencies.queue.leave(ticket)
    if let failure {
      try? await writer.sendEvent(
        JSONResponse.encodedLine(["message": ErrorMapping.apiError(failure).message]), event: "error")
      try? await writer.finish(nil)
      return
    }
    try await writer.finish(nil)
  }

  private func record(_ message: StoredMessage) {
    metrics.recordGeneration(
      api: "app", promptTokens: message.promptTokens ?? 0, generatedTokens: message.generatedTokens ?? 0,
      timeToFirstToken: message.timeToFirstTokenMs.map { .milliseconds($0) },
      tokensPerSecond: message.generationTokensPerSecond ?? 0)
  }

  static func encode(_ event: ChatEvent) -> (String, String) {
    switch event {
    case .started(let user, let assistant):
      ("started", JSONResponse.encodedLine(StartedEvent(user: user, assistant: assistant)))
    case .trimmed(let dropped): ("trimmed", JSONResponse.encodedLine(["dropped_messages": dropped]))
    case .thinking(let text): ("thinking", JSONResponse.encodedLine(["text": text]))
    case .answer(let text): ("answer", JSONResponse.encodedLine(["text": text]))
    case .finished(let message): ("done", JSONResponse.encodedLine(["message": message]))
    }
  }
}

struct TurnRequest: Decodable { var text: String }
struct StopResult: Encodable { var stopped: Bool }
struct StartedEvent: Encodable {
  var user: StoredMessage
  var assistant: StoredMessage
}

/// Waiting for the model while telling the client its place in line.
enum QueueEntry {
  /// Returns the ticket once it is this request's turn; `report` hears each new position and may throw
  /// (the client left), which gives up the place.
  static func enter(
    _ queue: GenerationQueue, report: (Int) async throws -> Void
  ) async throws -> GenerationQueue.Ticket {
    let (positions, continuation) = AsyncStream.makeStream(of: Int.self)
    let entering = Task {
      defer { continuation.finish() }
      return try await queue.enter { continuation.yield($0) }
    }
    do {
      for await position in positions { try await report(position) }
    } catch {
      entering.cancel()
      if let ticket = try? await entering.value { await queue.leave(ticket) }
      throw error
    }
    return try await entering.value
  }
}
