import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// `POST /v1/messages` and `POST /v1/messages/count_tokens`: Anthropic's Messages API on the same model and
/// line as the OpenAI routes, whole or as its typed stream of events, with the caller's tools. Errors take
/// Anthropic's shape (``APIError`` reads the path), and `x-api-key` carries the key as well as `Authorization`.
struct MessagesRoute<Context: ChannelRequestContext>: RouteArea {
  let chat: OpenAIRoutes<Context>

  var paths: [RouterPath] { ["/v1"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("messages") { request, context in try await self.messages(request, context: context) }
    router.post("messages/count_tokens") { request, context in try await self.countTokens(request, context: context) }
  }

  private func messages(_ request: Request, context: Context) async throws -> Response {
    let configuration = chat.configuration
    let body = try await RequestReader.decodeStrict(
      MessagesRequest.self, from: request, limit: configuration.maxBodyBytes)
    let engine = chat.dependencies.engine
    _ = try engine.requireModel()
    let messages = try body.chatMessages()
    try configuration.checkPromptSize(messages.reduce(0) { $0 + $1.content.count })
    let options = try body.generationOptions(defaults: try engine.chatSettings())
    let toolCalls = try body.toolPlan()?.callLimit ?? 0
    let lease = try await chat.reserve(named: body.model, context: context)
    let model = lease.model
    let promptTokens = try await lease.prepare { model in
      try await CompletionChecks.admit(messages, options: options, model: model, parameter: "messages")
    }
    let run = CompletionRun(
      model: model, messages: messages, options: options, stopSequences: body.stopSequences ?? [])
    let id = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let draft = MessageObject(
      id: id, model: model.name, content: [], stopReason: nil, stopSequence: nil,
      usage: .init(inputTokens: promptTokens, outputTokens: 0))
    if body.stream == true { return stream(run, draft: draft, lease: lease, toolCalls: toolCalls) }
    guard let outcome = try await chat.runWhole([run], lease: lease, context: context).first else {
      throw APIError(.internalServerError, "the model gave no answer", code: "generation_failed")
    }
    var message = draft
    (message.content, message.stopReason, message.stopSequence) = MessageObject.blocks(
      of: outcome, toolCalls: toolCalls)
    message.usage.outputTokens = outcome.usage?.generatedTokens ?? outcome.pieces
    return try JSONResponse.make(message)
  }

  private func countTokens(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      MessagesRequest.self, from: request, limit: chat.configuration.maxBodyBytes)
    let messages = try body.chatMessages()
    let lease = try await chat.reserve(named: body.model, context: context)
    let count = try await lease.finish { model in try await CompletionChecks.countTokens(messages, model: model) }
    return try JSONResponse.make(TokenCount(inputTokens: count))
  }

  /// Streams the message as Anthropic's events. With tools on offer the text is held back until the answer
  /// ends, as on the OpenAI route, because a call cannot be told from text before it is complete.
  private func stream(_ run: CompletionRun, draft: MessageObject, lease: ModelLease, toolCalls: Int) -> Response {
    let callsTools = toolCalls > 0
    return Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        func send(_ event: MessageStreamEvent) async throws {
          try await writer.sendEvent(JSONResponse.encodedLine(event), event: event.type)
        }
        do {
          try await send(MessageStreamEvent(type: "message_start", message: draft))
          try await send(MessageStreamEvent(type: "ping"))
          var opened = false
          let outcome = try await lease.finish { _ in
            try await run.run { piece in
              guard !callsTools, !piece.content.isEmpty else { return }
              if !opened {
                try await send(MessageStreamEvent(type: "content_block_start", index: 0, contentBlock: .text("")))
                opened = true
              }
              try await send(
                MessageStreamEvent(
                  type: "content_block_delta", index: 0, delta: .init(type: "text_delta", text: piece.content)))
            }
          }
          let (blocks, stopReason, stopSequence) = MessageObject.blocks(of: outcome, toolCalls: toolCalls)
          var index = 0
          for block in blocks {
            switch block {
            case .text(let text):
              if !opened {
                try await send(MessageStreamEvent(type: "content_block_start", index: index, contentBlock: .text("")))
                if !text.isEmpty || callsTools {
                  try await send(
                    MessageStreamEvent(
                      type: "content_block_delta", index: index, delta: .init(type: "text_delta", text: text)))
                }
              }
            case .toolUse(let id, let name, let input):
              try await send(
                MessageStreamEvent(
                  type: "content_block_start", index: index,
                  contentBlock: .toolUse(id: id, name: name, input: .object([]))))
              try await send(
                MessageStreamEvent(
                  type: "content_block_delta", index: index,
                  delta: .init(type: "input_json_delta", partialJSON: input.jsonText)))
            }
            try await send(MessageStreamEvent(type: "content_block_stop", index: index))
            index += 1
            opened = false
          }
          try await send(
            MessageStreamEvent(
              type: "message_delta",
              delta: .init(stopReason: stopReason, stopSequence: stopSequence, closesMessage: true),
              usage: .init(
                inputTokens: draft.usage.inputTokens, outputTokens: outcome.usage?.generatedTokens ?? outcome.pieces)))
          try await send(MessageStreamEvent(type: "message_stop"))
        } catch {
          let failure = CompletionChecks.apiError(error)
          try? await writer.sendEvent(JSONResponse.encodedLine(AnthropicErrorBody(failure)), event: "error")
        }
        try? await writer.finish(nil)
      })
  }
}

/// An error as Anthropic's API sends it: `{"type": "error", "error": {"type": …, "message": …}}`.
struct AnthropicErrorBody: Encodable {
  struct Detail: Encodable {
    var type: String
    var message: String
  }
  var type = "error"
  var error: Detail

  init(_ failure: APIError) {
    error = Detail(type: Self.type(of: failure), message: failure.message)
  }

  /// Whether a path is one of the Messages API's, whose errors take this shape.
  static func applies(to path: String) -> Bool {
    path == "/v1/messages" || path.hasPrefix("/v1/messages/")
  }

  static func type(of failure: APIError) -> String {
    switch failure.status.code {
    case 401: "authentication_error"
    case 403, 421: "permission_error"
    case 404: "not_found_error"
    case 413: "request_too_large"
    case 429: "rate_limit_error"
    case 503: "overloaded_error"
    case 400..<500: "invalid_request_error"
    default: "api_error"
    }
  }
}
