import Foundation
import HearthCore
import HearthMemory
import HearthStore

/// One answer being produced: fits the history into the context, streams the model's output through the
/// thinking splitter, and keeps the stored message up to date.
struct Turn: Sendable {
  let database: HearthDatabase
  let model: any ChatModel
  let session: ChatSession
  let assistant: StoredMessage
  let systemPrompt: String?
  let options: GenerationOptions
  let configuration: ChatConfiguration
  let now: @Sendable () -> Date
  let events: AsyncStream<ChatEvent>.Continuation
  /// An answer already written (an action block drafted for the request): it is the answer, unchanged.
  var prewritten: String? = nil
  /// Notes retrieved for the question, placed before it in the prompt (never stored in the message).
  var memory: MemoryContext? = nil
  /// The answer exists and goes on: the prompt ends with its text, and what the model writes is added to it.
  var continuing = false
  /// Keeps as facts what the user told in messages that leave the prompt for a summary.
  var keepFacts: @Sendable ([StoredMessage]) async -> Void = { _ in }

  /// Produces the answer and returns it as finally stored; the caller announces the end.
  func run() async -> StoredMessage {
    var message = assistant
    if let prewritten {
      message.content = prewritten
      message.state = .complete
      message.stopReason = .endOfGeneration
      events.yield(.answer(prewritten))
      message.updatedAt = now()
      return saved(message)
    }
    do {
      try await model.prepare()
      let prompt = try await fitPrompt()
      try await stream(prompt, into: &message)
    } catch {
      message.state = Task.isCancelled ? .cancelled : .failed
      message.error = Task.isCancelled ? nil : "\(error)"
      if Task.isCancelled { message.stopReason = .cancelled }
    }
    // A stopped answer's generation winds down within a token; the session is free only once it has.
    await model.settle()
    message.updatedAt = now()
    return saved(message)
  }

  /// The answer as stored, or marked failed with the reason when it could not be stored.
  private func saved(_ message: StoredMessage) -> StoredMessage {
    var message = message
    do {
      try database.updateMessage(message)
    } catch {
      message.state = .failed
      message.error = "the answer could not be saved: \(error)"
    }
    return message
  }

  /// The messages to send: system prompt and summary, then as much recent history as fits.
  private func fitPrompt() async throws -> [ChatMessage] {
    let files = Dictionary(
      grouping: try database.attachments(in: session.id).filter { $0.messageID != nil }, by: { $0.messageID! })
    let perMessage = AttachmentPrompt.characterBudget(contextSize: model.contextSize)
    let kept = try database.messages(in: session.id).filter { stored in
      stored.id != assistant.id && stored.role != .system && stored.state != .generating
        && !(stored.state == .failed && stored.content.isEmpty)
    }
    var history = kept.map { stored in
      var message = stored.readAsData
      if let attached = files[stored.id] {
        message.content += AttachmentPrompt.section(attached, characters: perMessage)
      }
      return message
    }
    // The model continues its own words when the conversation ends with them.
    if continuing { history.append(assistant.readAsData) }
    if let memory, let last = history.indices.last, history[last].role == .user {
      history[last].content = MemoryPrompt.question(history[last].content, with: memory)
    }
    // A long answer limit must not starve the history: at most half the window is held back for it; an
    // answer that needs more stops with a full context.
    let reserve = min(options.maxNewTokens, model.contextSize / 2)
    let budget = ContextBudget(contextSize: model.contextSize, maxNewTokens: reserve)
    func fit(cut: Int, summary: String?) throws -> FittedConversation {
      try budget.fit(
        system: systemPrompt, history: history, previousCut: cut,
        summarize: { dropped, limit in
          if dropped.count == cut, let summary { return summary }
          return ExtractiveSummary.summarize(dropped, limit: limit)
        },
        countTokens: model.countTokens)
    }
    var fitted = try fit(cut: session.droppedMessageCount, summary: session.summary)
    guard fitted.trimmed else { return fitted.messages }

    // Newly trimmed: summarise the dropped turns once (with the model when allowed) and keep the summary
    // on the session, so later turns render the same prompt prefix.
    let limit = max(60, budget.promptBudget / 2)
    var cut = fitted.droppedCount
    var summary = ExtractiveSummary.summarize(Array(history.prefix(cut)), limit: limit)
    if configuration.summarizesWithModel,
      let written = await ModelSummary.summarize(Array(history.prefix(cut)), limit: limit, model: model)
    {
      summary = written
      fitted = try fit(cut: cut, summary: summary)
      if fitted.droppedCount != cut {
        cut = fitted.droppedCount
        summary = ExtractiveSummary.summarize(Array(history.prefix(cut)), limit: limit)
        fitted = try fit(cut: cut, summary: summary)
      }
    }
    try database.modifySession(session.id) { [cut, summary] session in
      session.droppedMessageCount = cut
      session.summary = summary
    }
    // A summary keeps the gist; what the user told about themselves in the turns it now replaces stays whole.
    let newlyDropped = kept.prefix(cut).dropFirst(min(session.droppedMessageCount, cut))
    await keepFacts(Array(newlyDropped).filter { $0.role == .user })
    events.yield(.trimmed(droppedMessages: cut))
    return fitted.messages
  }

  private func stream(_ prompt: [ChatMessage], into message: inout StoredMessage) async throws {
    var splitter = ThinkSplitter()
    var lastSaved = ContinuousClock.now
    var stopReason: StopReason?

    func route(_ segments: [ThinkSplitter.Segment]) {
      for segment in segments {
        switch segment {
        case .answer(let text):
          message.content += text
          events.yield(.answer(text))
        case .thinking(let text):
          message.thinking += text
          if configuration.showsThinking { events.yield(.thinking(text)) }
        }
      }
    }

    // The model reports its figures as it ends; a stop cancels the turn before that report can arrive, so the
    // turn keeps its own count of what it received, for an answer stopped part-way.
    let started = ContinuousClock.now
    var firstPieceAt: ContinuousClock.Instant?
    var lastPieceAt = started
    var pieces = 0
    var reported = false
    // An answer that goes on counts what it had already.
    let earlier = continuing ? assistant.generatedTokens ?? 0 : 0
    defer {
      if !reported, pieces > 0, let firstPieceAt {
        message.generatedTokens = earlier + pieces
        message.timeToFirstTokenMs = (firstPieceAt - started).milliseconds
        if pieces > 1, lastPieceAt > firstPieceAt {
          message.generationTokensPerSecond = Double(pieces - 1) / (lastPieceAt - firstPieceAt).seconds
        }
      }
    }

    generation: for try await event in model.generate(messages: prompt, options: options) {
      switch event {
      case .token(let piece):
        pieces += 1
        lastPieceAt = .now
        if firstPieceAt == nil { firstPieceAt = lastPieceAt }
        route(splitter.feed(piece))
        if let repeats = RepetitionGuard.repeatsStart(in: message.content) {
          // Leaving the loop ends the generation; the answer keeps what it said once, live and stored.
          message.content = String(message.content[..<repeats])
          events.yield(.replaced(message.content, because: .repeating))
          stopReason = .repetition
          break generation
        }
        if ContinuousClock.now - lastSaved >= configuration.persistInterval {
          message.updatedAt = now()
          // A failed intermediate save is retried at the next interval and when the turn ends.
          try? database.updateMessage(message)
          lastSaved = .now
        }
      case .usage(let usage):
        reported = true
        message.promptTokens = usage.promptTokens
        message.generatedTokens = earlier + usage.generatedTokens
        message.timeToFirstTokenMs = usage.timeToFirstToken?.milliseconds
        message.generationTokensPerSecond = usage.generationTokensPerSecond
        message.provider = usage.provider ?? .local
      case .done(let reason):
        stopReason = reason
      case .logprob, .promptProgress: break
      }
    }
    // A cut loop drops what the splitter still holds, which belongs to the repeats.
    if stopReason != .repetition { route(splitter.finish()) }
    let reason = stopReason ?? .cancelled
    message.stopReason = reason
    message.state =
      switch reason {
      case .endOfGeneration, .maxTokens, .contextFull, .repetition: .complete
      case .cancelled: .cancelled
      case .timeout: .timedOut
      }
  }
}

extension StoredMessage {
  /// The message as the model reads it: any block in it defused. Blocks in the conversation have run (or not)
  /// when they were written; read again (from an imported session, a pasted text, an earlier answer), they
  /// are data, and a model that repeats one writes no block.
  var readAsData: ChatMessage { ChatMessage(role: role, content: ActionBlockParser.defused(content)) }
}
