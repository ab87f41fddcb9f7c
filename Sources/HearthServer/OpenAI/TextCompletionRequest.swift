import Foundation
import HearthCore

/// The body of `POST /v1/completions` (OpenAI's text completions): a raw prompt, continued with no chat
/// template. Fields are honoured or refused by name, as for chat completions.
struct TextCompletionRequest: StrictInput {
  var model: String?
  var prompt: Prompt
  var sampling: SamplingRequest
  var stream: Bool?
  var streamOptions: ChatCompletionRequest.StreamOptions?
  var echo: Bool?
  /// How many alternatives to report per token, 0 to 5 (OpenAI's limit for this API).
  var logprobs: Int?
  var suffix: String?
  var bestOf: Int?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case model, prompt, stream, echo, logprobs, suffix
    case streamOptions = "stream_options"
    case bestOf = "best_of"
  }

  static var fields: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)).union(SamplingRequest.fields) }
  static var nested: [String: Set<String>] { ["stream_options": ["include_usage"]] }
  static let maxLogprobs = 5

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    model = try container.decodeIfPresent(String.self, forKey: .model)
    prompt = try container.decode(Prompt.self, forKey: .prompt)
    sampling = try SamplingRequest(from: decoder)
    stream = try container.decodeIfPresent(Bool.self, forKey: .stream)
    streamOptions = try container.decodeIfPresent(ChatCompletionRequest.StreamOptions.self, forKey: .streamOptions)
    echo = try container.decodeIfPresent(Bool.self, forKey: .echo)
    logprobs = try container.decodeIfPresent(Int.self, forKey: .logprobs)
    suffix = try container.decodeIfPresent(String.self, forKey: .suffix)
    bestOf = try container.decodeIfPresent(Int.self, forKey: .bestOf)
  }

  /// `prompt`: a text or token ids, or a list holding exactly one of either.
  enum Prompt: Decodable {
    case text(String)
    case tokens([Int])
    case several(Int)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .text(text)
      } else if let tokens = try? container.decode([Int].self) {
        self = .tokens(tokens)
      } else if let texts = try? container.decode([String].self) {
        self = texts.count == 1 ? .text(texts[0]) : .several(texts.count)
      } else if let lists = try? container.decode([[Int]].self) {
        self = lists.count == 1 ? .tokens(lists[0]) : .several(lists.count)
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "expected a string, token ids, or a list of one of them")
      }
    }
  }

  /// The prompt's tokens: a text is tokenized with the model's start-of-sequence token, as the llama.cpp
  /// server does; token ids are checked against the vocabulary.
  func promptTokens(_ vocabulary: any ModelVocabulary) throws -> [Int32] {
    switch prompt {
    case .several(let count):
      throw APIError.invalidRequest(
        "prompt holds \(count) prompts; send one prompt per request (n gives several answers)", parameter: "prompt")
    case .text(let text):
      guard !text.isEmpty else { throw APIError.invalidRequest("prompt is empty", parameter: "prompt") }
      do {
        return try vocabulary.tokenize(text, addSpecial: true, parseSpecial: true)
      } catch {
        throw APIError.invalidRequest("the prompt cannot be tokenized: \(error)", parameter: "prompt")
      }
    case .tokens(let tokens):
      guard !tokens.isEmpty else { throw APIError.invalidRequest("prompt is empty", parameter: "prompt") }
      if let (index, token) = tokens.enumerated().first(where: { $0.1 < 0 || $0.1 >= vocabulary.tokenCount }) {
        throw APIError.invalidRequest(
          "prompt[\(index)] is \(token); this model's token ids run from 0 to \(vocabulary.tokenCount - 1)",
          parameter: "prompt[\(index)]")
      }
      return tokens.map { Int32($0) }
    }
  }

  /// Generation options: the request's values over the user's saved settings.
  /// - Throws: ``APIError`` for what this server cannot honour (`suffix`, `best_of` above 1, `echo` with
  ///   `logprobs`) and out-of-range values.
  func generationOptions(defaults: ChatSettings) throws -> GenerationOptions {
    if let suffix, !suffix.isEmpty {
      throw APIError.invalidRequest(
        "suffix (fill in the middle) is not supported; send the text before the gap as the prompt",
        parameter: "suffix")
    }
    if let bestOf, bestOf != 1 {
      throw APIError.invalidRequest("best_of is not supported beyond 1; n gives several answers", parameter: "best_of")
    }
    if let logprobs, !(0...Self.maxLogprobs).contains(logprobs) {
      throw APIError.invalidRequest("logprobs must be from 0 to \(Self.maxLogprobs)", parameter: "logprobs")
    }
    if echo == true, logprobs != nil {
      throw APIError.invalidRequest(
        "echo cannot be combined with logprobs: the prompt's own log probabilities are not computed",
        parameter: "echo")
    }
    let givenText: String
    if case .text(let text) = prompt { givenText = text } else { givenText = "" }
    return try sampling.generationOptions(defaults: defaults, logprobs: logprobs, givenText: givenText)
  }
}

/// A `text_completion` object, whole or as one chunk of a stream.
struct TextCompletion: Encodable {
  var id: String
  var object = "text_completion"
  var created: Int
  var model: String
  var systemFingerprint: String
  var choices: [Choice]
  var usage: Usage?

  struct Choice: Encodable {
    var text: String
    var index: Int
    var logprobs: Logprobs?
    var finishReason: String?

    enum CodingKeys: String, CodingKey {
      case text, index, logprobs
      case finishReason = "finish_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(index, forKey: .index)
      try container.encode(logprobs, forKey: .logprobs)
      try container.encode(finishReason, forKey: .finishReason)
    }
  }

  /// Log probabilities in the completions API's older shape: parallel lists, alternatives keyed by text.
  struct Logprobs: Encodable {
    var tokens: [String]
    var tokenLogprobs: [Double]
    var topLogprobs: [[String: Double]]
    var textOffset: [Int]

    enum CodingKeys: String, CodingKey {
      case tokens
      case tokenLogprobs = "token_logprobs"
      case topLogprobs = "top_logprobs"
      case textOffset = "text_offset"
    }

    /// - Parameter offset: where the first token's text starts in the choice's text (after an echoed prompt).
    init(_ figures: [TokenLogprob], offset: Int) {
      tokens = figures.map(\.chosen.text)
      tokenLogprobs = figures.map(\.chosen.logprob)
      topLogprobs = figures.map { token in
        // Two alternatives may read alike (parts of characters); the likelier is kept.
        Dictionary(token.top.map { ($0.text, $0.logprob) }, uniquingKeysWith: max)
      }
      var position = offset
      textOffset = figures.map { token in
        defer { position += token.chosen.text.count }
        return position
      }
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, object, created, model, choices, usage
    case systemFingerprint = "system_fingerprint"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(object, forKey: .object)
    try container.encode(created, forKey: .created)
    try container.encode(model, forKey: .model)
    try container.encode(systemFingerprint, forKey: .systemFingerprint)
    try container.encode(choices, forKey: .choices)
    try container.encodeIfPresent(usage, forKey: .usage)
  }
}
