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
      let body = try await RequestReader.decodeStrict(
        TurnRequest.self, from: request, limit: configuration.maxBodyBytes)
      return try await turn(.message(try checked(body.text)), context)
    }
    // Regenerate, edit and continue answer with the same event stream as a new message.
    router.post("/api/sessions/:id/messages/:message/regenerate") { request, context in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      return try await turn(.regenerate(try Self.messageID(context)), context)
    }
    router.post("/api/sessions/:id/messages/:message/edit") { request, context in
      let body = try await RequestReader.decodeStrict(
        TurnRequest.self, from: request, limit: configuration.maxBodyBytes)
      return try await turn(.edit(try Self.messageID(context), text: try checked(body.text)), context)
    }
    router.post("/api/sessions/:id/messages/:message/continue") { request, context in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      return try await turn(.continueAnswer(try Self.messageID(context)), context)
    }
    router.post("/api/sessions/:id/stop") { _, context in
      let id = try SessionRoutes<Context>.sessionID(context)
      let wasGenerating = await dependencies.engine.chat.isGenerating(id)
      await dependencies.engine.chat.stop(id)
      return try JSONResponse.make(StopResult(stopped: wasGenerating))
    }
  }

  /// A message's text, trimmed and within the prompt limit.
  private func checked(_ text: String) throws -> String {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw APIError.invalidRequest("the message is empty", parameter: "text") }
    guard text.count <= configuration.maxPromptCharacters else {
      throw APIError(
        .contentTooLarge,
        "the message has \(text.count) characters; the limit is \(configuration.maxPromptCharacters)",
        code: "prompt_too_large")
    }
    return text
  }

  /// Checks that the turn can start (the session, the message it names, a model, a free session, room in the
  /// line), then streams it once the model is this request's.
  private func turn(_ kind: TurnKind, _ context: Context) async throws -> Response {
    let id = try SessionRoutes<Context>.sessionID(context)
    let engine = dependencies.engine
    // The session, then a model, then a free session, then the message the turn names.
    try await engine.chat.check(kind, in: id)
    guard await engine.queueDepth < configuration.maxQueuedRequests else {
      throw APIError.queueFull
    }
    let settings = try engine.chatSettings()
    let systemPrompt = engine.systemPrompt(custom: settings.systemPrompt)
    let options = settings.generationOptions
    return Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        try await stream(writer: &writer) {
          try await engine.chat.start(kind, in: id, systemPrompt: systemPrompt, options: options)
        }
      })
  }

  static func messageID(_ context: Context) throws -> UUID {
    let text = try context.parameters.require("message")
    guard let id = UUID(uuidString: text) else { throw APIError.notFound("no message \(text)") }
    return id
  }

  private func stream(
    writer: inout any ResponseBodyWriter, start: () async throws -> AsyncStream<ChatEvent>
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
      let events = try await start()
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

struct TurnRequest: StrictInput {
  var text: String
  static let fields: Set<String> = ["text"]
}
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
