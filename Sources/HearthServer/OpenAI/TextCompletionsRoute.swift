import Foundation
import HearthCore
import HearthEngine
import Hummingbird
import NIOCore

/// `POST /v1/completions` (and `/completions`): OpenAI's text completions on the local model, whole or
/// streamed, with log probabilities in that API's shape.
struct TextCompletionsRoute<Context: ChannelRequestContext>: RouteArea {
  let chat: OpenAIRoutes<Context>

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("completions") { request, context in try await self.completions(request, context: context) }
  }

  private func completions(_ request: Request, context: Context) async throws -> Response {
    let configuration = chat.configuration
    let body = try await RequestReader.decodeStrict(
      TextCompletionRequest.self, from: request, limit: configuration.maxBodyBytes)
    let engine = chat.dependencies.engine
    _ = try engine.requireModel()
    if case .text(let text) = body.prompt { try configuration.checkPromptSize(text.count) }
    let options = try body.generationOptions(defaults: try engine.chatSettings())
    try options.checkSlot(of: engine)
    let choices = try body.sampling.choices()
    let lease = try await chat.reserve(named: body.model, context: context)
    let model = lease.model
    let (tokens, echoed) = try await lease.prepare { model in
      guard let vocabulary = model.vocabulary else {
        throw APIError(
          .notImplemented, "the model in use continues conversations only; use /v1/chat/completions",
          code: "not_supported")
      }
      let tokens = try body.promptTokens(vocabulary)
      let echoed =
        body.echo == true ? String(decoding: tokens.flatMap(vocabulary.pieceBytes(of:)), as: UTF8.self) : ""
      try CompletionChecks.checkFits(tokens.count, model: model, parameter: "prompt")
      try CompletionChecks.checkOptions(options, model: model)
      return (tokens, echoed)
    }
    let runs = (0..<choices).map { index in
      CompletionRun(
        model: model, prompt: .tokens(tokens), options: options.forChoice(index),
        stopSequences: body.sampling.stopSequences)
    }
    let identity = CompletionIdentity(prefix: "cmpl", model: model, promptTokens: tokens.count)
    let logprobs = options.logprobs != nil
    if body.stream == true {
      return stream(
        runs, lease: lease, identity: identity, echoed: echoed, logprobs: logprobs,
        includeUsage: body.streamOptions?.includeUsage == true)
    }
    let outcomes = try await chat.runWhole(runs, lease: lease, context: context)
    let completion = TextCompletion(
      id: identity.id, created: identity.created, model: identity.model, systemFingerprint: identity.fingerprint,
      choices: outcomes.enumerated().map { index, outcome in
        TextCompletion.Choice(
          text: echoed + outcome.content, index: index,
          logprobs: logprobs ? .init(outcome.logprobs, offset: echoed.count) : nil,
          finishReason: outcome.finishReason)
      },
      usage: identity.usage(outcomes))
    return try JSONResponse.make(completion)
  }

  private func stream(
    _ runs: [CompletionRun], lease: ModelLease, identity: CompletionIdentity, echoed: String,
    logprobs: Bool, includeUsage: Bool
  ) -> Response {
    @Sendable func chunk(_ choices: [TextCompletion.Choice], usage: Usage? = nil) -> String {
      JSONResponse.encodedLine(
        TextCompletion(
          id: identity.id, created: identity.created, model: identity.model,
          systemFingerprint: identity.fingerprint, choices: choices, usage: usage))
    }
    return Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        var failure: APIError?
        do {
          try await lease.finish { _ in
            var outcomes: [CompletionRun.Outcome] = []
            for (index, run) in runs.enumerated() {
              if !echoed.isEmpty { try await writer.sendEvent(chunk([.init(text: echoed, index: index)])) }
              var offset = echoed.count
              let outcome = try await run.run { piece in
                let figures = logprobs ? TextCompletion.Logprobs(piece.logprobs, offset: offset) : nil
                offset += piece.content.count
                try await writer.sendEvent(chunk([.init(text: piece.content, index: index, logprobs: figures)]))
              }
              outcomes.append(outcome)
              try await writer.sendEvent(
                chunk([.init(text: "", index: index, finishReason: outcome.finishReason)]))
            }
            if includeUsage { try await writer.sendEvent(chunk([], usage: identity.usage(outcomes))) }
            try await writer.sendEvent("[DONE]")
          }
        } catch {
          failure = CompletionChecks.apiError(error)
        }
        if let failure {
          try? await writer.sendEvent(JSONResponse.encodedLine(ErrorEnvelope(failure)))
        }
        try? await writer.finish(nil)
      })
  }
}
