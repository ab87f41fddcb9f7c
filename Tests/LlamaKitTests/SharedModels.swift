import HearthCore
import HearthTestSupport
import LlamaKit

/// Models loaded once and shared by every test; each test makes its own session.
enum SharedModels {
  private static let smolLoad = Task { try await LlamaModel.load(path: TestModels.smolLM2) }
  private static let gemmaLoad = Task { try await LlamaModel.load(path: TestModels.gemma3) }

  static func smolLM2() async throws -> LlamaModel { try await smolLoad.value }
  static func gemma3() async throws -> LlamaModel { try await gemmaLoad.value }

  /// A fresh session on the tiny chat model.
  static func session(contextSize: Int = 1024) async throws -> LlamaSession {
    try await LlamaSession.create(model: try await smolLM2(), options: ContextOptions(contextSize: contextSize))
  }
}

/// What one streamed generation produced.
struct Collected {
  var pieces: [String] = []
  var usage: GenerationUsage?
  var stopReason: StopReason?
  var logprobs: [TokenLogprob] = []
  var progress: [PromptProgress] = []
  var text: String { pieces.joined() }

  /// Reads a whole stream.
  static func from(_ stream: AsyncThrowingStream<GenerationEvent, any Error>) async throws -> Collected {
    var collected = Collected()
    for try await event in stream {
      switch event {
      case .token(let piece): collected.pieces.append(piece)
      case .usage(let usage): collected.usage = usage
      case .done(let reason): collected.stopReason = reason
      case .logprob(let figures): collected.logprobs.append(figures)
      case .promptProgress(let progress): collected.progress.append(progress)
      }
    }
    return collected
  }
}
