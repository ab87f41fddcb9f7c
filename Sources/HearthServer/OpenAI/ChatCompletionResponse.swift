import Foundation
import HearthCore

/// `chat.completion` and `chat.completion.chunk` objects as OpenAI defines them.
struct ChatCompletion: Encodable {
  var id: String
  var object = "chat.completion"
  var created: Int
  var model: String
  var choices: [Choice]
  var usage: Usage
  var systemFingerprint: String
  /// With `verbose`: the prompt as the model saw it.
  var verbose: VerboseDetail? = nil

  struct VerboseDetail: Encodable {
    var prompt: String
  }

  struct Choice: Encodable {
    var index = 0
    var message: Message
    var finishReason: String
    var logprobs: ChoiceLogprobs?

    enum CodingKeys: String, CodingKey {
      case index, message, logprobs
      case finishReason = "finish_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(index, forKey: .index)
      try container.encode(message, forKey: .message)
      try container.encode(finishReason, forKey: .finishReason)
      try container.encode(logprobs, forKey: .logprobs)
    }
  }

  struct Message: Encodable {
    var role = "assistant"
    var content: String?
    var reasoningContent: String?
    var toolCalls: [ToolPlan.Call]?

    enum CodingKeys: String, CodingKey {
      case role, content
      case reasoningContent = "reasoning_content"
      case toolCalls = "tool_calls"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(role, forKey: .role)
      // OpenAI writes `content: null` beside tool calls.
      try container.encode(content, forKey: .content)
      try container.encodeIfPresent(reasoningContent, forKey: .reasoningContent)
      try container.encodeIfPresent(toolCalls, forKey: .toolCalls)
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, object, created, model, choices, usage
    case systemFingerprint = "system_fingerprint"
    case verbose = "__verbose"
  }
}

struct ChatCompletionChunk: Encodable {
  var id: String
  var object = "chat.completion.chunk"
  var created: Int
  var model: String
  var choices: [Choice]
  var usage: Usage?
  var systemFingerprint: String
  /// With `timings_per_token`: the speed so far.
  var timings: StreamTimings? = nil
  /// With `return_progress`: how far reading the prompt has come.
  var promptProgress: ProgressReport? = nil

  /// The llama.cpp server's `prompt_progress` object.
  struct ProgressReport: Encodable {
    var total: Int
    var cache: Int
    var processed: Int
    var timeMs: Double

    init(_ progress: PromptProgress) {
      total = progress.total
      cache = progress.cached
      processed = progress.processed
      timeMs = progress.elapsed.milliseconds
    }

    enum CodingKeys: String, CodingKey {
      case total, cache, processed
      case timeMs = "time_ms"
    }
  }

  struct Choice: Encodable {
    var index = 0
    var delta: Delta
    var finishReason: String?
    var logprobs: ChoiceLogprobs?

    enum CodingKeys: String, CodingKey {
      case index, delta, logprobs
      case finishReason = "finish_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(index, forKey: .index)
      try container.encode(delta, forKey: .delta)
      try container.encodeIfPresent(logprobs, forKey: .logprobs)
      try container.encode(finishReason, forKey: .finishReason)
    }
  }

  struct Delta: Encodable {
    var role: String?
    var content: String?
    var reasoningContent: String?
    var toolCalls: [ToolCallDelta]?
    /// The first delta of a choice names the role and says `content: null`, as the llama.cpp server does.
    var opensChoice = false

    enum CodingKeys: String, CodingKey {
      case role, content
      case reasoningContent = "reasoning_content"
      case toolCalls = "tool_calls"
    }

    /// The delta that opens a choice.
    static var opening: Delta { Delta(role: "assistant", opensChoice: true) }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(role, forKey: .role)
      if opensChoice {
        try container.encode(content, forKey: .content)
      } else {
        try container.encodeIfPresent(content, forKey: .content)
      }
      try container.encodeIfPresent(reasoningContent, forKey: .reasoningContent)
      try container.encodeIfPresent(toolCalls, forKey: .toolCalls)
    }
  }

  /// A call in a stream: here whole, in one delta.
  struct ToolCallDelta: Encodable {
    var index = 0
    var id: String
    var type = "function"
    var function: ToolPlan.Call.Function
  }

  enum CodingKeys: String, CodingKey {
    case id, object, created, model, choices, usage, timings
    case systemFingerprint = "system_fingerprint"
    case promptProgress = "prompt_progress"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(object, forKey: .object)
    try container.encode(created, forKey: .created)
    try container.encode(model, forKey: .model)
    try container.encode(systemFingerprint, forKey: .systemFingerprint)
    try container.encode(choices, forKey: .choices)
    try container.encode(usage, forKey: .usage)
    try container.encodeIfPresent(timings, forKey: .timings)
    try container.encodeIfPresent(promptProgress, forKey: .promptProgress)
  }
}

/// The llama.cpp server's `timings` object: the prompt's and the answer's token counts, times and speeds.
struct StreamTimings: Encodable {
  var promptTokens: Int
  var promptMilliseconds: Double
  var predictedTokens: Int
  var predictedMilliseconds: Double
  /// Tokens drafted from the prompt and answer, and how many the model kept (absent when none were drafted).
  var draftTokens: Int?
  var keptDraftTokens: Int?
  /// Tokens the grammar forced, evaluated without sampling (Hearth's own figure; absent when none were).
  var forcedTokens: Int?

  enum CodingKeys: String, CodingKey {
    case forcedTokens = "forced_n"
    case draftTokens = "draft_n"
    case keptDraftTokens = "draft_n_accepted"
    case promptTokens = "prompt_n"
    case promptMilliseconds = "prompt_ms"
    case promptPerSecond = "prompt_per_second"
    case predictedTokens = "predicted_n"
    case predictedMilliseconds = "predicted_ms"
    case predictedPerSecond = "predicted_per_second"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(promptTokens, forKey: .promptTokens)
    try container.encode(promptMilliseconds, forKey: .promptMilliseconds)
    try container.encode(Self.rate(promptTokens, promptMilliseconds), forKey: .promptPerSecond)
    try container.encode(predictedTokens, forKey: .predictedTokens)
    try container.encode(predictedMilliseconds, forKey: .predictedMilliseconds)
    try container.encode(Self.rate(predictedTokens, predictedMilliseconds), forKey: .predictedPerSecond)
    try container.encodeIfPresent(draftTokens, forKey: .draftTokens)
    try container.encodeIfPresent(keptDraftTokens, forKey: .keptDraftTokens)
    try container.encodeIfPresent(forcedTokens, forKey: .forcedTokens)
  }

  private static func rate(_ count: Int, _ milliseconds: Double) -> Double {
    milliseconds > 0 ? Double(count) * 1000 / milliseconds : 0
  }

  /// The exact figures of a finished generation.
  init(_ usage: GenerationUsage) {
    promptTokens = usage.prefilledTokens
    promptMilliseconds = usage.prefillDuration.milliseconds
    predictedTokens = usage.generatedTokens
    predictedMilliseconds = usage.generationDuration.milliseconds
    draftTokens = usage.draftedTokens
    keptDraftTokens = usage.keptDraftTokens
    forcedTokens = usage.forcedTokens
  }

  init(promptTokens: Int, promptMilliseconds: Double, predictedTokens: Int, predictedMilliseconds: Double) {
    self.promptTokens = promptTokens
    self.promptMilliseconds = promptMilliseconds
    self.predictedTokens = predictedTokens
    self.predictedMilliseconds = predictedMilliseconds
  }
}

/// A choice's `logprobs` as OpenAI's chat API writes them: each token's text, log probability and bytes,
/// with the most likely alternatives at its place.
struct ChoiceLogprobs: Encodable {
  struct Token: Encodable {
    var token: String
    var logprob: Double
    var bytes: [UInt8]
    var topLogprobs: [Alternative]

    enum CodingKeys: String, CodingKey {
      case token, logprob, bytes
      case topLogprobs = "top_logprobs"
    }
  }

  struct Alternative: Encodable {
    var token: String
    var logprob: Double
    var bytes: [UInt8]
  }

  var content: [Token]

  init(_ tokens: [TokenLogprob]) {
    content = tokens.map { figures in
      Token(
        token: figures.chosen.text, logprob: figures.chosen.logprob, bytes: figures.chosen.bytes,
        topLogprobs: figures.top.map { Alternative(token: $0.text, logprob: $0.logprob, bytes: $0.bytes) })
    }
  }

  enum CodingKeys: String, CodingKey { case content, refusal }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(content, forKey: .content)
    try container.encodeNil(forKey: .refusal)
  }
}

struct Usage: Encodable {
  var promptTokens: Int
  var completionTokens: Int
  var totalTokens: Int { promptTokens + completionTokens }
  var promptTokensDetails: PromptDetails
  /// Hearth's timing figures, beside OpenAI's counts.
  var timings: Timings

  struct PromptDetails: Encodable {
    var cachedTokens: Int
    enum CodingKeys: String, CodingKey { case cachedTokens = "cached_tokens" }
  }

  struct Timings: Encodable {
    var timeToFirstTokenMs: Double?
    var promptTokensPerSecond: Double
    var generationTokensPerSecond: Double

    enum CodingKeys: String, CodingKey {
      case timeToFirstTokenMs = "time_to_first_token_ms"
      case promptTokensPerSecond = "prompt_tokens_per_second"
      case generationTokensPerSecond = "generation_tokens_per_second"
    }
  }

  enum CodingKeys: String, CodingKey {
    case promptTokens = "prompt_tokens"
    case completionTokens = "completion_tokens"
    case totalTokens = "total_tokens"
    case promptTokensDetails = "prompt_tokens_details"
    case timings
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(promptTokens, forKey: .promptTokens)
    try container.encode(completionTokens, forKey: .completionTokens)
    try container.encode(totalTokens, forKey: .totalTokens)
    try container.encode(promptTokensDetails, forKey: .promptTokensDetails)
    try container.encode(timings, forKey: .timings)
  }
}

struct ModelList: Encodable {
  var object = "list"
  var data: [Entry]

  struct Entry: Encodable {
    var id: String
    var object = "model"
    var created: Int
    var ownedBy = "hearth"

    enum CodingKeys: String, CodingKey {
      case id, object, created
      case ownedBy = "owned_by"
    }
  }
}
