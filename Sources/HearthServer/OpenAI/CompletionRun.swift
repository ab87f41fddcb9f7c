import Foundation
import HearthCore

/// One OpenAI-style completion on the model: thinking split from the answer, stop sequences applied, and
/// the figures OpenAI reports. Text is handed out as it becomes safe to show.
struct CompletionRun {
  struct Outcome: Sendable {
    var content = ""
    var reasoning = ""
    var finishReason = "stop"
    var usage: GenerationUsage?
    /// Pieces received, the generated-token count when the run was cut short before its figures came.
    var pieces = 0
  }

  let model: any ChatModel
  let messages: [ChatMessage]
  let options: GenerationOptions
  let stopSequences: [String]

  /// Runs the generation, passing each piece of answer and thinking to `emit`; when `emit` throws
  /// (the client left), the generation stops.
  func run(emit: (_ content: String, _ reasoning: String) async throws -> Void) async throws -> Outcome {
    var outcome = Outcome()
    var splitter = ThinkSplitter()
    var stops = StopSequenceMatcher(stopSequences)
    func route(_ segments: [ThinkSplitter.Segment]) async throws {
      var content = ""
      var reasoning = ""
      for segment in segments {
        switch segment {
        case .answer(let text): content += stops.feed(text)
        case .thinking(let text): reasoning += text
        }
      }
      outcome.content += content
      outcome.reasoning += reasoning
      if !content.isEmpty || !reasoning.isEmpty { try await emit(content, reasoning) }
    }
    generation: for try await event in model.generate(messages: messages, options: options) {
      switch event {
      case .token(let text):
        outcome.pieces += 1
        try await route(splitter.feed(text))
        if stops.isStopped { break generation }
      case .usage(let usage):
        outcome.usage = usage
      case .done(let reason):
        outcome.finishReason = Self.finishReason(reason)
      }
    }
    if !stops.isStopped {
      try await route(splitter.finish())
      let rest = stops.flush()
      outcome.content += rest
      if !rest.isEmpty { try await emit(rest, "") }
    } else {
      outcome.finishReason = "stop"
    }
    return outcome
  }

  static func finishReason(_ reason: StopReason) -> String {
    switch reason {
    case .maxTokens, .contextFull, .timeout: "length"
    default: "stop"
    }
  }
}
