import Foundation
import HearthCore
import HearthEngine
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
      let engine = dependencies.engine
      _ = try engine.sessions.session(id)
      _ = try engine.requireModel()
      guard await !engine.chat.isGenerating(id) else {
        throw APIError(
          .conflict, "this session is already answering; wait for it or stop it first", code: "session_busy")
      }
      guard await engine.queueDepth < configuration.maxQueuedRequests else {
        throw APIError.queueFull
      }
      let settings = try engine.chatSettings()
      let systemPrompt = engine.systemPrompt(custom: settings.systemPrompt)
      return Response(
        status: .ok, headers: EventStream.headers,
        body: ResponseBody { writer in
          try await stream(
            text, session: id, systemPrompt: systemPrompt, options: settings.generationOptions, writer: &writer)
        })
    }
    router.post("/api/sessions/:id/stop") { _, context in
      let id = try SessionRoutes<Context>.sessionID(context)
      let wasGenerating = await dependencies.engine.chat.isGenerating(id)
      await dependencies.engine.chat.stop(id)
      return try JSONResponse.make(StopResult(stopped: wasGenerating))
    }
  }

  private func stream(
    _ text: String, session: UUID, systemPrompt: String, options: GenerationOptions,
    writer: inout any ResponseBodyWriter
  ) async throws {
    let engine = dependencies.engine
    let reservation: ModelReservation
    do {
      // The model was let go (idle, memory pressure) or never loaded: taking the line loads it, and that wait
      // is said for what it is.
      if let host = engine.host, host.loaded == nil {
        try await writer.sendEvent(JSONResponse.encodedLine(["model": host.name]), event: "loading")
      }
      reservation = try await QueueEntry.enter(engine) { position in
        try await writer.sendEvent(JSONResponse.encodedLine(["position": position]), event: "queued")
      }
    } catch {
      return
    }
    var failure: (any Error)?
    do {
      // A client that left while waiting must not start a turn.
      try await writer.sendComment("your turn")
      let events = try await engine.chat.send(text, to: session, systemPrompt: systemPrompt, options: options)
      for await event in events {
        let (name, payload) = Self.encode(event)
        try await writer.sendEvent(payload, event: name)
        if case .finished(let message) = event { record(message) }
      }
    } catch {
      failure = error
    }
    await engine.release(reservation)
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
    case .sources(let citations): ("sources", JSONResponse.encodedLine(["sources": citations]))
    case .thinking(let text): ("thinking", JSONResponse.encodedLine(["text": text]))
    case .answer(let text): ("answer", JSONResponse.encodedLine(["text": text]))
    case .actions(let records): ("actions", JSONResponse.encodedLine(["actions": records]))
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
  /// Returns the reservation once it is this request's turn; `report` hears each new position and may throw
  /// (the client left), which gives up the place.
  static func enter(
    _ engine: Engine, report: (Int) async throws -> Void
  ) async throws -> ModelReservation {
    let (positions, continuation) = AsyncStream.makeStream(of: Int.self)
    let entering = Task {
      defer { continuation.finish() }
      return try await engine.reserveModel { continuation.yield($0) }
    }
    do {
      for await position in positions { try await report(position) }
    } catch {
      entering.cancel()
      if let reservation = try? await entering.value { await engine.release(reservation) }
      throw error
    }
    return try await entering.value
  }
}
