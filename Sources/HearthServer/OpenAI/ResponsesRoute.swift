import Foundation
import HearthCore
import HearthEngine
import HearthStore
import Hummingbird

/// `POST /v1/responses` (and `/responses`): OpenAI's Responses API on the same model and line as chat
/// completions, whole or as its typed stream of events; a stored response is continued by
/// `previous_response_id` from the profile's database; `DELETE /v1/responses/ID` forgets one.
struct ResponsesRoute<Context: ChannelRequestContext>: RouteArea {
  let chat: OpenAIRoutes<Context>

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("responses") { request, context in try await self.respond(request, context: context) }
    router.delete("responses/:id") { _, context in try self.forget(context.parameters.get("id") ?? "") }
  }

  private func respond(_ request: Request, context: Context) async throws -> Response {
    let configuration = chat.configuration
    let body = try await RequestReader.decodeStrict(
      ResponsesRequest.self, from: request, limit: configuration.maxBodyBytes)
    let engine = chat.dependencies.engine
    _ = try engine.requireModel()
    let newTurn = try body.inputMessages()
    var earlier: [ChatMessage] = []
    if let previous = body.previousResponseID {
      guard let stored = try engine.storedResponse(id: previous) else {
        throw APIError(
          .badRequest, "no stored response has the id \(previous) (responses are kept 30 days, with store true)",
          parameter: "previous_response_id", code: "previous_response_not_found")
      }
      earlier = stored.conversation
    }
    let conversation = earlier + newTurn
    let messages = (body.instructions.map { [ChatMessage.system($0)] } ?? []) + conversation
    try configuration.checkPromptSize(messages.reduce(0) { $0 + $1.content.count })
    let options = try body.generationOptions(defaults: try engine.chatSettings())
    let lease = try await chat.reserve(named: body.model, context: context)
    let model = lease.model
    let promptTokens = try await lease.prepare { model in
      try await CompletionChecks.admit(messages, options: options, model: model, parameter: "input")
    }
    let run = CompletionRun(model: model, messages: messages, options: options, stopSequences: [])
    let draft = ResponseDraft(
      body: body, model: model.name, options: options, promptTokens: promptTokens, conversation: conversation)
    if body.stream == true { return stream(run, draft: draft, lease: lease) }
    guard let outcome = try await chat.runWhole([run], lease: lease, context: context).first else {
      throw APIError(.internalServerError, "the model gave no answer", code: "generation_failed")
    }
    return try JSONResponse.make(try draft.finished(outcome, engine: engine))
  }

  private func forget(_ id: String) throws -> Response {
    guard try chat.dependencies.engine.deleteStoredResponse(id: id) else {
      throw APIError.notFound("no stored response has the id \(id)")
    }
    return try JSONResponse.make(DeletedResponse(id: id))
  }

  /// Streams the answer as the Responses API's events; the model is given back as soon as the answer ends,
  /// before the closing events.
  private func stream(_ run: CompletionRun, draft: ResponseDraft, lease: ModelLease) -> Response {
    Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        var sequence = 0
        func event(_ type: String, _ fill: (inout ResponseEvent) -> Void = { _ in }) -> String {
          var event = ResponseEvent(type: type, sequenceNumber: sequence)
          fill(&event)
          sequence += 1
          return JSONResponse.encodedLine(event)
        }
        let started = draft.object(status: "in_progress", text: nil, outcome: nil)
        let item = draft.message(status: "in_progress", text: nil)
        do {
          let outcome = try await lease.finish { _ in
            try await writer.sendEvent(
              event("response.created") { $0.response = started }, event: "response.created")
            try await writer.sendEvent(
              event("response.in_progress") { $0.response = started }, event: "response.in_progress")
            try await writer.sendEvent(
              event("response.output_item.added") {
                $0.outputIndex = 0
                $0.item = item
              }, event: "response.output_item.added")
            try await writer.sendEvent(
              event("response.content_part.added") {
                $0.place(draft)
                $0.part = .init(text: "")
              }, event: "response.content_part.added")
            return try await run.run { piece in
              guard !piece.content.isEmpty else { return }
              try await writer.sendEvent(
                event("response.output_text.delta") {
                  $0.place(draft)
                  $0.delta = piece.content
                  $0.logprobs = []
                }, event: "response.output_text.delta")
            }
          }
          let finished = try draft.finished(outcome, engine: chat.dependencies.engine)
          let text = outcome.content
          try await writer.sendEvent(
            event("response.output_text.done") {
              $0.place(draft)
              $0.text = text
              $0.logprobs = []
            }, event: "response.output_text.done")
          try await writer.sendEvent(
            event("response.content_part.done") {
              $0.place(draft)
              $0.part = .init(text: text)
            }, event: "response.content_part.done")
          try await writer.sendEvent(
            event("response.output_item.done") {
              $0.outputIndex = 0
              $0.item = finished.output.first
            }, event: "response.output_item.done")
          let closing = finished.status == "completed" ? "response.completed" : "response.incomplete"
          try await writer.sendEvent(event(closing) { $0.response = finished }, event: closing)
        } catch {
          let failure = CompletionChecks.apiError(error)
          try? await writer.sendEvent(
            JSONResponse.encodedLine(ErrorEnvelope(failure)), event: "error")
        }
        try? await writer.finish(nil)
      })
  }
}

/// What a response's objects share before and after the answer.
struct ResponseDraft {
  let id = "resp_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  let messageID = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  let created = Int(Date().timeIntervalSince1970)
  let body: ResponsesRequest
  let model: String
  let options: GenerationOptions
  let promptTokens: Int
  /// The conversation answered, without the instructions.
  let conversation: [ChatMessage]

  func message(status: String, text: String?) -> ResponseObject.OutputMessage {
    .init(id: messageID, status: status, content: text.map { [.init(text: $0)] } ?? [])
  }

  func object(status: String, text: String?, outcome: CompletionRun.Outcome?) -> ResponseObject {
    let usage = outcome.map { outcome in
      ResponseObject.ResponseUsage(
        inputTokens: outcome.usage?.promptTokens ?? promptTokens, cachedTokens: outcome.usage?.reusedPromptTokens ?? 0,
        outputTokens: outcome.usage?.generatedTokens ?? outcome.pieces)
    }
    return ResponseObject(
      id: id, createdAt: created, status: status,
      incompleteReason: status == "incomplete" ? "max_output_tokens" : nil, instructions: body.instructions,
      maxOutputTokens: body.maxOutputTokens, model: model,
      output: text.map { [message(status: status, text: $0)] } ?? [], previousResponseID: body.previousResponseID,
      store: body.keeps, temperature: options.sampling.temperature, topP: options.sampling.topP,
      format: .init(body.text?.format), usage: usage)
  }

  /// The finished response, kept for a later `previous_response_id` unless `store` is false.
  func finished(_ outcome: CompletionRun.Outcome, engine: Engine) throws -> ResponseObject {
    let status = outcome.finishReason == "length" ? "incomplete" : "completed"
    if body.keeps {
      try engine.storeResponse(
        StoredResponse(
          id: id, createdAt: Date(timeIntervalSince1970: TimeInterval(created)), model: model,
          conversation: conversation + [.assistant(outcome.content)]))
    }
    return object(status: status, text: outcome.content, outcome: outcome)
  }
}

extension ResponseEvent {
  /// Where a text event belongs: the one message, its one text part.
  mutating func place(_ draft: ResponseDraft) {
    itemID = draft.messageID
    outputIndex = 0
    contentIndex = 0
  }
}

struct DeletedResponse: Encodable {
  var id: String
  var object = "response.deleted"
  var deleted = true
}
