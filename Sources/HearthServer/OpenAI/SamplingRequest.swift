import Foundation
import HearthCore
import HearthEngine

/// The generation fields `/v1/chat/completions` and `/v1/completions` share: OpenAI's (`max_tokens`,
/// `temperature`, `logit_bias`, …) and the llama.cpp server's extensions clients written for it send (`top_k`,
/// `min_p`, `repeat_penalty`, `ignore_eos`, `grammar`, `json_schema`, `id_slot`, `cache_prompt`,
/// `speculative.n_max`), and Hearth's `forced_spans`. Every one
/// is honoured or refused by name; a field that is none of them is refused by the strict reader.
struct SamplingRequest: Decodable {
  var maxTokens: Int?
  var maxCompletionTokens: Int?
  var temperature: Double?
  var topP: Double?
  var seed: Int64?
  var stop: StopSequences?
  var n: Int?
  var logitBias: [String: Double]?
  var frequencyPenalty: Double?
  var presencePenalty: Double?
  var ignoreEOS: Bool?
  var topK: Int?
  var minP: Double?
  var repeatPenalty: Double?
  /// A GBNF grammar the answer must follow (llama.cpp's extension).
  var grammar: String?
  /// A JSON schema the answer must follow (llama.cpp's extension; OpenAI's is `response_format`).
  var jsonSchema: JSONValue?
  /// The llama.cpp server's slot; Hearth has one, slot 0.
  var idSlot: Int?
  /// Whether the cached prefix of an earlier prompt may be reused; Hearth always reuses it.
  var cachePrompt: Bool?
  /// Most tokens drafted per step (llama.cpp's server field); 0 drafts none, absent leaves it to ``DraftPolicy``.
  var speculativeMax: Int?
  /// What becomes of text a grammar forces (Hearth's field): `true` (the default) evaluates it in one batch,
  /// `false` samples it like free text, `"stepwise"` evaluates the batched tokens one per step.
  var forcedSpans: ForcedSpansField?

  struct ForcedSpansField: Decodable {
    var mode: ForcedText

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let flag = try? container.decode(Bool.self) {
        mode = flag ? .batched : .sampled
      } else if try container.decode(String.self) == "stepwise" {
        mode = .stepwise
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "forced_spans takes true, false or \"stepwise\"")
      }
    }
  }

  /// Most choices one request may ask for: they are generated one after another.
  static let maxChoices = 4

  enum CodingKeys: String, CodingKey, CaseIterable {
    case temperature, seed, stop, n, grammar
    case maxTokens = "max_tokens"
    case maxCompletionTokens = "max_completion_tokens"
    case topP = "top_p"
    case logitBias = "logit_bias"
    case frequencyPenalty = "frequency_penalty"
    case presencePenalty = "presence_penalty"
    case ignoreEOS = "ignore_eos"
    case topK = "top_k"
    case minP = "min_p"
    case repeatPenalty = "repeat_penalty"
    case jsonSchema = "json_schema"
    case idSlot = "id_slot"
    case cachePrompt = "cache_prompt"
    case speculativeMax = "speculative.n_max"
    case forcedSpans = "forced_spans"
  }

  static var fields: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)) }

  /// `stop`: one string or up to four.
  struct StopSequences: Decodable {
    var values: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let single = try? container.decode(String.self) {
        values = [single]
      } else {
        values = try container.decode([String].self)
      }
    }
  }

  var stopSequences: [String] { stop?.values ?? [] }

  /// How many choices to generate.
  /// - Throws: ``APIError`` beyond ``maxChoices``.
  func choices() throws -> Int {
    let count = n ?? 1
    guard (1...Self.maxChoices).contains(count) else {
      throw APIError.invalidRequest(
        "n must be from 1 to \(Self.maxChoices) (choices are generated one after another)", parameter: "n")
    }
    return count
  }

  /// Generation options: the request's values over the user's saved settings.
  /// - Parameter logprobs: how many alternatives to report per token, `nil` for none.
  /// - Parameter givenText: the text the user gave (the last user message, or the prompt), which decides
  ///   whether tokens are drafted when `speculative.n_max` is absent.
  /// - Throws: ``APIError`` naming the first out-of-range or unsupported value.
  func generationOptions(defaults: ChatSettings, logprobs: Int?, givenText: String) throws -> GenerationOptions {
    _ = try choices()
    if let idSlot, idSlot < -1 {
      throw APIError.invalidRequest("id_slot \(idSlot) does not exist: slots count from 0", parameter: "id_slot")
    }
    if cachePrompt == false {
      throw APIError.invalidRequest(
        "cache_prompt false is not supported: the cached prefix of earlier prompts is always reused",
        parameter: "cache_prompt")
    }
    var options = defaults.generationOptions
    try options.apply(
      maxTokens: maxCompletionTokens ?? maxTokens, named: "max_tokens", temperature: temperature, topP: topP)
    if let idSlot, idSlot >= 0 { options.slot = idSlot }
    if let topK { options.sampling.topK = topK }
    if let minP { options.sampling.minP = minP }
    if let repeatPenalty { options.sampling.repeatPenalty = repeatPenalty }
    if let seed { options.sampling.seed = UInt32(truncatingIfNeeded: seed) }
    for (name, value) in [("frequency_penalty", frequencyPenalty), ("presence_penalty", presencePenalty)] {
      if let value, !(-2...2).contains(value) {
        throw APIError.invalidRequest("\(name) must be between -2 and 2", parameter: name)
      }
    }
    options.frequencyPenalty = frequencyPenalty ?? 0
    options.presencePenalty = presencePenalty ?? 0
    options.logitBias = try tokenBiases()
    options.logprobs = logprobs
    if stopSequences.count > 4 {
      throw APIError.invalidRequest("stop takes at most 4 sequences", parameter: "stop")
    }
    options.ignoresEndOfGeneration = ignoreEOS ?? false
    options.grammar = try extensionGrammar()
    if let speculativeMax, !(0...GenerationOptions.maxDraftTokens).contains(speculativeMax) {
      throw APIError.invalidRequest(
        "speculative.n_max must be from 0 to \(GenerationOptions.maxDraftTokens)", parameter: "speculative.n_max")
    }
    options.draftTokens = speculativeMax ?? DraftPolicy.draftTokens(forUserText: givenText)
    if let forcedSpans, forcedSpans.mode != .sampled, logprobs != nil {
      throw APIError.invalidRequest(
        "forced_spans writes text without sampling it, so it has no log probabilities: leave it out or false with logprobs",
        parameter: "forced_spans")
    }
    options.forcedText = forcedSpans?.mode ?? .batched
    do {
      try options.validate()
    } catch {
      throw APIError.invalidRequest("\(error)")
    }
    return options
  }

  /// `logit_bias` as OpenAI defines it: token ids (as strings) to a bias from -100 to 100.
  private func tokenBiases() throws -> [Int32: Double] {
    var biases: [Int32: Double] = [:]
    for (key, bias) in logitBias ?? [:] {
      guard let token = Int32(key), token >= 0 else {
        throw APIError.invalidRequest(
          "logit_bias keys are token ids; \"\(key)\" is not one (POST /tokenize gives a text's ids)",
          parameter: "logit_bias")
      }
      guard bias.isFinite, (-100...100).contains(bias) else {
        throw APIError.invalidRequest("logit_bias values must be from -100 to 100", parameter: "logit_bias.\(key)")
      }
      biases[token] = bias
    }
    return biases
  }

  /// llama.cpp's `grammar` or `json_schema`, at most one of them.
  private func extensionGrammar() throws -> String? {
    switch (grammar, jsonSchema) {
    case (nil, nil): return nil
    case (let grammar?, nil):
      guard !grammar.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        throw APIError.invalidRequest("grammar is empty", parameter: "grammar")
      }
      do {
        try GrammarLimits.check(grammar)
      } catch {
        throw APIError.invalidRequest("\(error)", parameter: "grammar")
      }
      return grammar
    case (nil, let schema?): return try Self.schemaGrammar(schema, parameter: "json_schema")
    case (.some, .some):
      throw APIError.invalidRequest("send grammar or json_schema, not both", parameter: "json_schema")
    }
  }

  /// The grammar of answers valid under `schema`.
  static func schemaGrammar(_ schema: JSONValue, parameter: String) throws -> String {
    do {
      return try JSONSchemaGrammar.grammar(for: schema)
    } catch {
      throw APIError.invalidRequest("\(error)", parameter: parameter)
    }
  }
}

extension GenerationOptions {
  /// The values every OpenAI route takes alike, checked: a positive token limit (named as the route names it),
  /// a temperature from 0 to 2 and a top_p in (0, 1].
  mutating func apply(maxTokens: Int?, named parameter: String, temperature: Double?, topP: Double?) throws {
    if let maxTokens {
      guard maxTokens > 0 else { throw APIError.invalidRequest("\(parameter) must be positive", parameter: parameter) }
      maxNewTokens = maxTokens
    }
    if let temperature {
      guard (0...2).contains(temperature) else {
        throw APIError.invalidRequest("temperature must be between 0 and 2", parameter: "temperature")
      }
      sampling.temperature = temperature
    }
    if let topP {
      guard topP > 0, topP <= 1 else { throw APIError.invalidRequest("top_p must be in (0, 1]", parameter: "top_p") }
      sampling.topP = topP
    }
  }
}

extension GenerationOptions {
  /// Refuses a slot (`id_slot`) the model serving `engine` does not have.
  func checkSlot(of engine: Engine) throws {
    let slots = engine.parallelSlots
    guard let slot, slot >= slots else { return }
    throw APIError.invalidRequest(
      "id_slot \(slot) does not exist: this server has \(slots) slot\(slots == 1 ? "" : "s"), 0 to \(slots - 1)",
      parameter: "id_slot")
  }
}
