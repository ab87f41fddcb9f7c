import Foundation
import HearthCore
import HearthEngine
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// `POST /v1/chat/completions` and `GET /v1/models`, each also without the `/v1` prefix as the llama.cpp
/// server serves them.
struct OpenAIRoutes<Context: ChannelRequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration
  let metrics: ServerMetrics

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get("models") { _, _ in try self.models() }
    router.post("chat/completions") { request, context in
      try await self.chatCompletions(request, context: context)
    }
  }

  private func models() throws -> Response {
    let created = Int(dependencies.startedAt.timeIntervalSince1970)
    let entries = dependencies.engine.servedModels().map { ModelList.Entry(id: $0.file, created: created) }
    return try JSONResponse.make(ModelList(data: entries))
  }

  private func chatCompletions(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      ChatCompletionRequest.self, from: request, limit: configuration.maxBodyBytes)
    let engine = dependencies.engine
    _ = try engine.requireModel()
    let messages = try body.chatMessages()
    try configuration.checkPromptSize(messages.reduce(0) { $0 + $1.content.count })
    let options = try body.generationOptions(defaults: try engine.chatSettings())
    try options.checkSlot(of: engine)
    let choices = try body.sampling.choices()
    let toolCalls = try body.toolPlan()?.callLimit ?? 0
    let callsTools = toolCalls > 0
    let streams = body.stream == true
    if body.verbose == true, streams {
      throw APIError.invalidRequest("verbose goes with whole answers (stream false)", parameter: "verbose")
    }
    if body.returnProgress == true, !streams {
      throw APIError.invalidRequest("return_progress goes with streamed answers", parameter: "return_progress")
    }
    if body.timingsPerToken == true, !streams {
      throw APIError.invalidRequest(
        "timings_per_token goes with streamed answers; a whole answer's usage has its timings",
        parameter: "timings_per_token")
    }
    let lease = try await reserve(named: body.model, context: context)
    let model = lease.model
    let showsPrompt = !streams && (body.verbose ?? configuration.showsPrompts)
    let (promptTokens, verbose) = try await lease.prepare { model in
      let promptTokens = try await CompletionChecks.admit(
        messages, options: options, model: model, parameter: "messages")
      return (promptTokens, showsPrompt ? try model.vocabulary.map { try $0.prompt(for: messages) } : nil)
    }
    let runs = (0..<choices).map { index in
      CompletionRun(
        model: model, messages: messages, options: options.forChoice(index), stopSequences: body.sampling.stopSequences)
    }
    let identity = CompletionIdentity(model: model, promptTokens: promptTokens)
    if streams {
      return stream(
        runs, lease: lease, identity: identity,
        shows: .init(
          usage: body.streamOptions?.includeUsage == true, logprobs: options.logprobs != nil,
          timings: body.timingsPerToken == true),
        toolCalls: toolCalls)
    }
    let outcomes = try await runWhole(runs, lease: lease, context: context)
    outcomes.forEach { record($0, identity) }
    let choiceObjects = outcomes.enumerated().map { index, outcome in
      let reasoning = outcome.reasoning.isEmpty ? nil : outcome.reasoning
      var message = ChatCompletion.Message(content: outcome.content, reasoningContent: reasoning)
      var finishReason = outcome.finishReason
      if callsTools, let (text, calls) = ToolPlan.extract(outcome.content, limit: toolCalls) {
        message = .init(content: text, reasoningContent: reasoning, toolCalls: calls)
        finishReason = "tool_calls"
      }
      return ChatCompletion.Choice(
        index: index, message: message, finishReason: finishReason,
        logprobs: options.logprobs == nil ? nil : ChoiceLogprobs(outcome.logprobs))
    }
    let completion = ChatCompletion(
      id: identity.id, created: identity.created, model: identity.model, choices: choiceObjects,
      usage: identity.usage(outcomes), systemFingerprint: identity.fingerprint,
      verbose: verbose.map(ChatCompletion.VerboseDetail.init))
    return try JSONResponse.make(completion)
  }

  /// Waits for the model's line, refusing at once when too many requests wait already. The request waits its
  /// turn before anything is counted: the model it names may need loading first, and nothing may load under
  /// another request's generation. A client that leaves gives up its place.
  func reserve(named name: String?, context: Context) async throws -> ModelLease {
    let engine = dependencies.engine
    guard await engine.queueDepth < configuration.maxQueuedRequests else { throw APIError.queueFull }
    let name = configuration.answersAnyModelName && name.map(engine.namesInstalledChatModel) == false ? nil : name
    return try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
      try await engine.leaseModel(named: name)
    }
  }

  /// Runs each choice to its end, one after another, and gives the model back.
  func runWhole(
    _ runs: [CompletionRun], lease: ModelLease, context: Context
  ) async throws -> [CompletionRun.Outcome] {
    try await lease.finish { _ in
      try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
        var outcomes: [CompletionRun.Outcome] = []
        for run in runs {
          do {
            outcomes.append(try await run.run { _ in })
          } catch {
            throw CompletionChecks.apiError(error)
          }
        }
        return outcomes
      }
    }
  }

  /// What a stream carries besides the text.
  struct StreamExtras {
    var usage: Bool
    var logprobs: Bool
    var timings: Bool
  }

  /// Streams the choices one after another, with the model held until the last one ends. With tools on offer
  /// the answer is held back until it ends, because a call cannot be told from text before it is complete; it
  /// then goes out as one content delta or one `tool_calls` delta per call.
  private func stream(
    _ runs: [CompletionRun], lease: ModelLease, identity: CompletionIdentity, shows: StreamExtras,
    toolCalls: Int
  ) -> Response {
    let callsTools = toolCalls > 0
    return Response(
      status: .ok, headers: EventStream.headers,
      body: ResponseBody { writer in
        var failure: APIError?
        do {
          try await lease.finish { _ in
            var outcomes: [CompletionRun.Outcome] = []
            for (index, run) in runs.enumerated() {
              try await writer.sendEvent(identity.chunk(.opening, index: index))
              let pieces = PieceEvents(identity: identity, index: index)
              var speed = RunningSpeed(promptTokens: identity.promptTokens)
              let outcome = try await run.run { piece in
                if let progress = piece.progress {
                  // As the llama.cpp server sends it: an opening delta that carries the progress.
                  try await writer.sendEvent(identity.chunk(.opening, index: index, progress: progress))
                  return
                }
                speed.add(piece.tokens)
                guard !callsTools || !piece.reasoning.isEmpty else { return }
                var shown = piece
                if callsTools { shown.content = "" }
                try await writer.write(
                  pieces.event(shown, logprobs: shows.logprobs, timings: shows.timings ? speed.timings : nil))
              }
              record(outcome, identity)
              outcomes.append(outcome)
              var finishReason = outcome.finishReason
              if callsTools {
                if let (text, calls) = ToolPlan.extract(outcome.content, limit: toolCalls) {
                  if let text { try await writer.sendEvent(identity.chunk(.init(content: text), index: index)) }
                  for (position, call) in calls.enumerated() {
                    let delta = ChatCompletionChunk.ToolCallDelta(
                      index: position, id: call.id, function: call.function)
                    try await writer.sendEvent(identity.chunk(.init(toolCalls: [delta]), index: index))
                  }
                  finishReason = "tool_calls"
                } else if !outcome.content.isEmpty {
                  try await writer.sendEvent(identity.chunk(.init(content: outcome.content), index: index))
                }
              }
              let timings = shows.timings ? outcome.usage.map(StreamTimings.init) ?? speed.timings : nil
              try await writer.sendEvent(
                identity.chunk(.init(), index: index, finishReason: finishReason, timings: timings))
            }
            if shows.usage {
              let timings = shows.timings ? outcomes.first?.usage.map(StreamTimings.init) : nil
              try await writer.sendEvent(identity.usageChunk(outcomes, timings: timings))
            }
            try await writer.sendEvent("[DONE]")
          }
        } catch {
          failure = CompletionChecks.apiError(error)
        }
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
}

/// Where the OpenAI-compatible API answers: under `/v1`, and at the root as the llama.cpp server also serves it.
enum OpenAIPaths {
  static let prefixes: [RouterPath] = ["/v1", "/"]
}

extension GenerationOptions {
  /// The options of choice `index` of several: each samples from its own seed, so that a seeded request's
  /// choices differ from one another and are each reproducible.
  func forChoice(_ index: Int) -> GenerationOptions {
    guard index > 0, let seed = sampling.seed else { return self }
    var options = self
    options.sampling.seed = seed &+ UInt32(truncatingIfNeeded: index)
    return options
  }
}

/// The speed of a streamed answer so far, measured where it is sent: the prompt's time is the wait for the
/// first token.
struct RunningSpeed {
  let promptTokens: Int
  private let clock = ContinuousClock()
  private let started = ContinuousClock.now
  private var firstToken: ContinuousClock.Instant?
  private var tokens = 0

  init(promptTokens: Int) {
    self.promptTokens = promptTokens
  }

  mutating func add(_ count: Int) {
    guard count > 0 else { return }
    if firstToken == nil { firstToken = clock.now }
    tokens += count
  }

  var timings: StreamTimings {
    let first = firstToken ?? clock.now
    return StreamTimings(
      promptTokens: promptTokens, promptMilliseconds: (first - started).milliseconds, predictedTokens: tokens,
      predictedMilliseconds: (clock.now - first).milliseconds)
  }
}

extension ServerConfiguration {
  /// Refuses a prompt of more than ``maxPromptCharacters`` characters with a 413.
  func checkPromptSize(_ characters: Int) throws {
    guard characters <= maxPromptCharacters else {
      throw APIError(
        .contentTooLarge, "the prompt has \(characters) characters; the limit is \(maxPromptCharacters)",
        code: "prompt_too_large")
    }
  }
}
