import Foundation
import HearthCore
import HearthEngine
import Hummingbird
import ServiceLifecycle

/// A chat turn for the web app: `POST /api/sessions/:id/turns` answers with a server-sent event stream
/// of the same events the terminal renders; `POST /api/sessions/:id/stop` stops it. Leaving the stream
/// (closing the tab, a lost connection) stops the turn too, unless the page said it is away (below); what was said
/// so far is kept.
/// `GET /api/sessions/:id/live` follows the chat from any other page: the turn running in it from its start,
/// then each turn to come, with `idle` whenever none runs (``LiveTurns``).
/// `POST /api/sessions/:id/away` says the page that asked is out of sight (a phone locked, another tab shown): the
/// turn then runs to its end even if the page's connection drops, and the device that asked is sent a push when
/// it ends; `DELETE` says the page is back.
struct TurnRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration
  let metrics: ServerMetrics
  let live: LiveTurns

  var paths: [RouterPath] { ["/api/sessions"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post(":id/turns") { request, context in
      let body = try await RequestReader.decodeStrict(
        NewTurnBody.self, from: request, limit: configuration.maxBodyBytes)
      var text = try checked(body.text)
      if let reference = body.replyTo {
        guard let message = UUID(uuidString: reference) else {
          throw APIError.invalidRequest("reply_to must be a message id", parameter: "reply_to")
        }
        text = try dependencies.engine.reply(text, quoting: message, in: try RouteInput.sessionID(context))
      }
      return try await turn(.message(text), context, attachments: try body.attachmentIDs())
    }
    // Regenerate, edit and continue answer with the same event stream as a new message.
    router.post(":id/messages/:message/regenerate") { request, context in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      return try await turn(.regenerate(try RouteInput.id(context, "message", of: "message")), context)
    }
    router.post(":id/messages/:message/edit") { request, context in
      let body = try await RequestReader.decodeStrict(
        TurnBody.self, from: request, limit: configuration.maxBodyBytes)
      return try await turn(
        .edit(try RouteInput.id(context, "message", of: "message"), text: try checked(body.text)), context)
    }
    router.post(":id/messages/:message/continue") { request, context in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      return try await turn(.continueAnswer(try RouteInput.id(context, "message", of: "message")), context)
    }
    router.get(":id/live") { _, context in
      let id = try RouteInput.sessionID(context)
      // A chat that does not exist is a 404, as for every other route of one.
      _ = try dependencies.engine.sessions.session(id)
      let heard = await live.watch(id)
      return Response(
        status: .ok, headers: EventStream.headers,
        body: ResponseBody { writer in
          // A server shutting down ends the followers' streams first: an open page never holds it up.
          try await withGracefulShutdownHandler {
            for await item in heard {
              switch item {
              case .event(let event): try await writer.sendEvent(event.data, event: event.name)
              case .keepAlive: try await writer.sendComment("still here")
              }
            }
          } onGracefulShutdown: {
            Task { await live.closeAll() }
          }
          try await writer.finish(nil)
        })
    }
    router.post(":id/away") { request, context in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      let id = try RouteInput.sessionID(context)
      _ = try dependencies.engine.sessions.session(id)
      // The notification goes to the browsers of the device that asked (or of the key, for a page that holds it).
      let device = try DeviceRoutes<Context>.asking(
        request, secure: configuration.tls != nil, devices: dependencies.engine.devices)
      guard await live.leave(id, notifying: .device(device)) else { throw Self.noTurn }
      return Response(status: .noContent)
    }
    router.delete(":id/away") { _, context in
      let id = try RouteInput.sessionID(context)
      _ = try dependencies.engine.sessions.session(id)
      guard await live.comeBack(id) else { throw Self.noTurn }
      return Response(status: .noContent)
    }
    router.post(":id/stop") { _, context in
      let id = try RouteInput.sessionID(context)
      let wasGenerating = await dependencies.engine.chat.isGenerating(id)
      await dependencies.engine.chat.stop(id)
      return try AppJSON.make(StopResult(stopped: wasGenerating))
    }
  }

  private static var noTurn: APIError {
    APIError(.conflict, "no answer is being written in this chat", code: "not_generating")
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
  /// line), then streams the engine's turn: its place in line, the model loading, the answer, or the error
  /// that stopped it.
  private func turn(_ kind: TurnKind, _ context: Context, attachments: [UUID] = []) async throws -> Response {
    let request = TurnRequest(session: try RouteInput.sessionID(context), kind: kind, attachments: attachments)
    let engine = dependencies.engine
    // The session, then a model, then a free session, then the message the turn names.
    try await engine.checkTurn(request)
    guard await engine.queueDepth < configuration.maxQueuedRequests else {
      throw APIError.queueFull
    }
    return Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        try await stream(request, to: &writer)
      })
  }

  private func stream(_ request: TurnRequest, to writer: inout any ResponseBodyWriter) async throws {
    // The answer's text as written (`text`) and as shown (`shown`, blocks left out for their cards).
    var blocks = ActionBlockFilter()
    let session = request.session
    var turn: UUID?
    if let session { turn = await live.begin(session) }
    // Set when the page's connection dropped while it was away: the turn goes on, heard by followers alone.
    var pageGone = false
    var ending: StoredMessage?
    // A write that fails means the page left, which stops the turn, unless the page said it is away.
    func keepsGoing(after error: any Error) async throws {
      guard let session, let turn, await live.isAway(turn, in: session) else { throw error }
      pageGone = true
    }
    // Each event goes to the pages that follow the chat first, so they hear it even when this one has left.
    func send(_ data: String, _ name: String) async throws {
      if let session, let turn { await live.send(LiveTurns.Event(name: name, data: data), of: turn, in: session) }
      guard !pageGone else { return }
      do { try await writer.sendEvent(data, event: name) } catch { try await keepsGoing(after: error) }
    }
    var left = false
    do {
      try await dependencies.engine.runTurn(request) { event in
        switch event {
        case .loading(let model):
          try await send(AppJSON.encodedLine(["model": model]), "loading")
        case .queued(let position):
          try await send(AppJSON.encodedLine(["position": position]), "queued")
        case .ready:
          guard !pageGone else { break }
          do { try await writer.sendComment("your turn") } catch { try await keepsGoing(after: error) }
        case .chat(.answer(let text)):
          let shown = blocks.feed(text)
          try await send(
            AppJSON.encodedLine(AnswerEvent(text: text, shown: shown, writingBlock: blocks.isInBlock)), "answer")
        case .chat(let chatEvent):
          // What stands in for a replaced answer is sent whole: nothing held back from the old one follows it.
          if case .replaced = chatEvent { blocks = ActionBlockFilter() }
          if case .finished(let message) = chatEvent {
            // Text held back because it might have begun a block is shown after all.
            let held = blocks.finish()
            if !held.isEmpty {
              try await send(
                AppJSON.encodedLine(AnswerEvent(text: "", shown: held, writingBlock: false)), "answer")
            }
            try await send(finished(message), "done")
            ending = message
            record(message)
          } else {
            let (name, payload) = Self.encode(chatEvent, choices: dependencies.engine.conflictChoices(for:))
            try await send(payload, name)
          }
        case .failed(let error):
          try await send(AppJSON.encodedLine(["message": ErrorMapping.apiError(error).message]), "error")
        }
      }
    } catch {
      // A write failed: the client left. The engine stopped the turn (or never started it); what was said
      // so far is kept.
      left = true
    }
    if let session, let turn {
      // The chat's followers hear that no turn runs once its answer is stored as it ended. A turn that ran to its
      // end stored it before its last event; one whose page left is still storing what it had said.
      if left { await dependencies.engine.chat.settled(session) }
      if let away = await live.end(turn, in: session) { tellAway(away, session: session, answer: ending) }
    }
    if !left && !pageGone { try await writer.finish(nil) }
  }

  /// The page that asked was away when the turn ended: its device learns the answer is there (the chat's title and
  /// whether it finished, nothing of what was said), and a tap opens the chat. Sent on its own, so that a slow push
  /// service never holds up the stream's end.
  private func tellAway(_ audience: PushAudience, session: UUID, answer: StoredMessage?) {
    let push = dependencies.engine.push
    let title: String
    do { title = try dependencies.engine.sessions.session(session).title } catch { title = "Hearth" }
    let finished = answer?.state == .complete
    let notice = PushNotice(
      title: finished ? "Your answer is ready" : "Your answer did not finish",
      body: PushNotice.cut(title, 200), url: "/#/s/\(session.uuidString)", tag: "answer-\(session.uuidString)")
    Task { await push.send(notice, to: audience) }
  }

  /// The `done` event: the answer as stored, with what the turn may have changed about its chat — the title
  /// a first message gives it and the versions a regenerate or an edit makes — so the page learns them here
  /// rather than downloading the whole chat again. A chat that cannot be read now is left out, and the page
  /// keeps what it shows.
  private func finished(_ message: StoredMessage) -> String {
    let library = dependencies.engine.sessions
    let session = try? library.session(message.sessionID)
    let forks = session == nil ? nil : try? library.forks(in: message.sessionID)
    return AppJSON.encodedLine(FinishedEvent(message: MessageView(message), session: session, forks: forks))
  }

  private func record(_ message: StoredMessage) {
    metrics.recordGeneration(
      api: "app", promptTokens: message.promptTokens ?? 0, generatedTokens: message.generatedTokens ?? 0,
      timeToFirstToken: message.timeToFirstTokenMs.map { .milliseconds($0) },
      tokensPerSecond: message.generationTokensPerSecond ?? 0)
  }

  /// The event's name and payload; `choices` gives an action card its conflict choices.
  static func encode(
    _ event: ChatEvent, choices: (ActionRecord) -> ConflictChoices? = { _ in nil }
  ) -> (String, String) {
    switch event {
    case .started(let user, let assistant):
      ("started", AppJSON.encodedLine(StartedEvent(user: MessageView(user), assistant: MessageView(assistant))))
    case .trimmed(let dropped): ("trimmed", AppJSON.encodedLine(["dropped_messages": dropped]))
    case .preparing(let words): ("preparing", AppJSON.encodedLine(["text": words]))
    case .sources(let citations): ("sources", AppJSON.encodedLine(["sources": citations]))
    case .thinking(let text): ("thinking", AppJSON.encodedLine(["text": text]))
    case .answer(let text): ("answer", AppJSON.encodedLine(["text": text]))
    case .replaced(let text, let reason):
      (
        "replaced",
        AppJSON.encodedLine(["text": text, "shown": ActionBlockFilter.shown(text), "reason": reason.rawValue])
      )
    case .actions(let records):
      ("actions", AppJSON.encodedLine(["actions": records.map { ActionCard($0, choices: choices($0)) }]))
    case .finished(let message): ("done", AppJSON.encodedLine(["message": MessageView(message)]))
    }
  }
}

/// The payload of a turn's `answer` event: the text as written, the part of it shown now (blocks left out for
/// their cards), and whether a block is being written, which the page says in words ("Preparing the change…").
struct AnswerEvent: Encodable {
  var text: String
  var shown: String
  var writingBlock: Bool

  enum CodingKeys: String, CodingKey {
    case text, shown
    case writingBlock = "writing_block"
  }
}

/// The payload of a turn's `done` event.
struct FinishedEvent: Encodable {
  var message: MessageView
  /// The chat as it is after the turn (its title, its model), when it could be read.
  var session: ChatSession?
  /// Where the chat goes more than one way now, when it could be read.
  var forks: [MessageFork]?
}

struct TurnBody: StrictInput {
  var text: String
  enum CodingKeys: String, CodingKey, CaseIterable { case text }
}

/// A new message, optionally a reply to one of the chat's messages (quoted in the turn).
struct NewTurnBody: StrictInput {
  var text: String
  var replyTo: String?
  /// Attachments waiting in the chat (``AttachmentRoutes``) that go with the message.
  var attachments: [String]?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case text, attachments
    case replyTo = "reply_to"
  }

  /// The attachments' ids, checked.
  func attachmentIDs() throws -> [UUID] {
    try (attachments ?? []).enumerated().map { index, text in
      guard let id = UUID(uuidString: text) else {
        throw APIError.invalidRequest("attachments[\(index)] must be an attachment id", parameter: "attachments")
      }
      return id
    }
  }
}
struct StopResult: Encodable { var stopped: Bool }
struct StartedEvent: Encodable {
  var user: MessageView
  var assistant: MessageView
}
