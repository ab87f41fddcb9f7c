import Foundation
import HearthCore

/// One OpenAI-style completion on the model: thinking split from the answer, stop sequences applied, and
/// the figures OpenAI reports. Text is handed out as it becomes safe to show.
struct CompletionRun {
  struct Outcome: Sendable {
    var content = ""
    var reasoning = ""
    var finishReason = "stop"
    /// The stop sequence that ended the answer, when one did.
    var stopSequence: String?
    var usage: GenerationUsage?
    /// Pieces received, the generated-token count when the run was cut short before its figures came.
    var pieces = 0
    /// Each answer token's log probability, when they were asked for.
    var logprobs: [TokenLogprob] = []
  }

  /// Text that became safe to show, with the log probabilities of the tokens it came from.
  struct Piece {
    var content = ""
    var reasoning = ""
    var logprobs: [TokenLogprob] = []
    /// Tokens generated since the piece before.
    var tokens = 0
    /// How far reading the prompt has come, in a piece that holds only that.
    var progress: PromptProgress?
  }

  /// What the model continues: a conversation in its chat template, or its own tokens as they are.
  enum Prompt {
    case conversation([ChatMessage])
    case tokens([Int32])
  }

  let model: any ChatModel
  let prompt: Prompt
  let options: GenerationOptions
  let stopSequences: [String]

  init(model: any ChatModel, messages: [ChatMessage], options: GenerationOptions, stopSequences: [String]) {
    self.init(model: model, prompt: .conversation(messages), options: options, stopSequences: stopSequences)
  }

  init(model: any ChatModel, prompt: Prompt, options: GenerationOptions, stopSequences: [String]) {
    self.model = model
    self.prompt = prompt
    self.options = options
    self.stopSequences = stopSequences
  }

  /// A raw prompt's continuation is all text: thinking is a chat convention.
  private var splitsThinking: Bool {
    if case .conversation = prompt { return true }
    return false
  }

  private var events: AsyncThrowingStream<GenerationEvent, any Error> {
    switch prompt {
    case .conversation(let messages): model.generate(messages: messages, options: options)
    case .tokens(let tokens): model.complete(prompt: tokens, options: options)
    }
  }

  /// Runs the generation, passing each piece of answer and thinking to `emit` (a token's log probability
  /// goes with the piece its text is shown in); when `emit` throws (the client left), the generation stops.
  func run(emit: (Piece) async throws -> Void) async throws -> Outcome {
    var outcome = Outcome()
    var splitter = ThinkSplitter()
    var stops = StopSequenceMatcher(stopSequences)
    var pending: [TokenLogprob] = []
    var tokens = 0
    func route(_ segments: [ThinkSplitter.Segment]) async throws {
      var piece = Piece()
      for segment in segments {
        switch segment {
        case .answer(let text): piece.content += stops.feed(text)
        case .thinking(let text): piece.reasoning += text
        }
      }
      outcome.content += piece.content
      outcome.reasoning += piece.reasoning
      guard !piece.content.isEmpty || !piece.reasoning.isEmpty else { return }
      (piece.logprobs, pending) = (pending, [])
      (piece.tokens, tokens) = (tokens, 0)
      try await emit(piece)
    }
    generation: for try await event in events {
      switch event {
      case .token(let text):
        outcome.pieces += 1
        tokens += 1
        try await route(splitsThinking ? splitter.feed(text) : [.answer(text)])
        if stops.isStopped { break generation }
      case .logprob(let figures):
        pending.append(figures)
        outcome.logprobs.append(figures)
      case .promptProgress(let progress):
        try await emit(Piece(progress: progress))
      case .usage(let usage):
        outcome.usage = usage
      case .done(let reason):
        outcome.finishReason = Self.finishReason(reason)
      }
    }
    if !stops.isStopped {
      try await route(splitsThinking ? splitter.finish() : [])
      let rest = stops.flush()
      outcome.content += rest
      if !rest.isEmpty || !pending.isEmpty {
        try await emit(Piece(content: rest, logprobs: pending, tokens: tokens))
      }
    } else {
      outcome.finishReason = "stop"
      outcome.stopSequence = stops.matched
      outcome.logprobs = Self.tokens(outcome.logprobs, within: outcome.content)
    }
    return outcome
  }

  /// The leading tokens whose text the answer shows: those of a stop sequence and after it are dropped.
  static func tokens(_ logprobs: [TokenLogprob], within content: String) -> [TokenLogprob] {
    let shown = Array(content.utf8)
    var length = 0
    return Array(
      logprobs.prefix { figures in
        let bytes = figures.chosen.bytes
        defer { length += bytes.count }
        return length + bytes.count <= shown.count && shown[length..<length + bytes.count].elementsEqual(bytes)
      })
  }

  static func finishReason(_ reason: StopReason) -> String {
    switch reason {
    case .maxTokens, .contextFull, .timeout: "length"
    default: "stop"
    }
  }
}
