/// The user's chat preferences, kept in the profile and applied to every new turn.
public struct ChatSettings: Sendable, Hashable, Codable {
  /// A named starting point for the sampling values.
  public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
    /// Always the most likely token: repeatable answers.
    case precise
    /// A little variety.
    case balanced
    /// More variety, for drafting and brainstorming.
    case creative
    /// Values set by hand.
    case custom

    /// The sampling values of the preset; `custom` keeps the balanced values as its start.
    public var sampling: SamplingParameters {
      switch self {
      case .precise: .greedy
      case .balanced, .custom: SamplingParameters(temperature: 0.7, topK: 40, topP: 0.9, minP: 0.05)
      case .creative: SamplingParameters(temperature: 1.0, topK: 80, topP: 0.95, minP: 0.02)
      }
    }
  }

  /// The fields the settings are read from and written as.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case preset, temperature
    case topK = "top_k"
    case topP = "top_p"
    case minP = "min_p"
    case repeatPenalty = "repeat_penalty"
    case maxTokens = "max_tokens"
    case systemPrompt = "system_prompt"
    case showsThinking = "show_thinking"
    case timeLimit = "time_limit"
    case seed
    case voiceAutoSend = "voice_auto_send"
  }

  public var preset: Preset
  public var temperature: Double
  public var topK: Int
  public var topP: Double
  public var minP: Double
  public var repeatPenalty: Double
  /// The most tokens of one answer.
  public var maxTokens: Int
  /// The user's own system prompt; `nil` uses Hearth's.
  public var systemPrompt: String?
  /// Whether thinking is shown.
  public var showsThinking: Bool
  /// Seconds an answer may take before it is stopped with what it has so far (its second pass included);
  /// `0` sets no limit.
  public var timeLimit: Double
  /// The random sampler's seed: `0` picks a new one for every answer; any other number makes answers to the same
  /// chat with the same settings come out the same (at temperature 0 they always do).
  public var seed: UInt32
  /// Whether a dictated message is sent once the speaker has been quiet for a moment (never when the microphone
  /// is stopped by hand); off by default.
  public var voiceAutoSend: Bool

  /// The time limit of an answer on every surface (the command line's `--timeout` too), in seconds.
  public static let defaultTimeLimit: Double = 300

  /// Settings from a preset.
  public init(
    preset: Preset = .balanced, maxTokens: Int = 512, systemPrompt: String? = nil, showsThinking: Bool = true,
    timeLimit: Double = Self.defaultTimeLimit, seed: UInt32 = 0, voiceAutoSend: Bool = false
  ) {
    self.timeLimit = timeLimit
    self.seed = seed
    self.voiceAutoSend = voiceAutoSend
    let sampling = preset.sampling
    self.preset = preset
    temperature = sampling.temperature
    topK = sampling.topK
    topP = sampling.topP
    minP = sampling.minP
    repeatPenalty = sampling.repeatPenalty
    self.maxTokens = maxTokens
    self.systemPrompt = systemPrompt
    self.showsThinking = showsThinking
  }

  /// Reads saved settings; ones saved before the time limit, the seed or auto-send existed get their defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    preset = try container.decode(Preset.self, forKey: .preset)
    temperature = try container.decode(Double.self, forKey: .temperature)
    topK = try container.decode(Int.self, forKey: .topK)
    topP = try container.decode(Double.self, forKey: .topP)
    minP = try container.decode(Double.self, forKey: .minP)
    repeatPenalty = try container.decode(Double.self, forKey: .repeatPenalty)
    maxTokens = try container.decode(Int.self, forKey: .maxTokens)
    systemPrompt = try container.decodeIfPresent(String.self, forKey: .systemPrompt)
    showsThinking = try container.decode(Bool.self, forKey: .showsThinking)
    timeLimit = try container.decodeIfPresent(Double.self, forKey: .timeLimit) ?? Self.defaultTimeLimit
    // Read wide and checked here: a number out of a UInt32's range would otherwise be reported as malformed JSON,
    // with no field named.
    let seed = try container.decodeIfPresent(Int64.self, forKey: .seed) ?? 0
    guard let narrow = UInt32(exactly: seed) else {
      throw DecodingError.dataCorruptedError(
        forKey: .seed, in: container,
        debugDescription: "the seed is 0 (a new one every answer) to 4294967295, not \(seed)")
    }
    self.seed = narrow
    voiceAutoSend = try container.decodeIfPresent(Bool.self, forKey: .voiceAutoSend) ?? false
  }

  /// These settings with the sampling values of `preset` (a persona's), the length and time limit kept.
  public func sampled(as preset: Preset) -> ChatSettings {
    var settings = self
    let sampling = preset.sampling
    settings.preset = preset
    (settings.temperature, settings.topK, settings.topP) = (sampling.temperature, sampling.topK, sampling.topP)
    (settings.minP, settings.repeatPenalty) = (sampling.minP, sampling.repeatPenalty)
    return settings
  }

  /// The generation options these settings ask for.
  public var generationOptions: GenerationOptions {
    GenerationOptions(
      maxNewTokens: maxTokens,
      sampling: SamplingParameters(
        temperature: temperature, topK: topK, topP: topP, minP: minP, repeatPenalty: repeatPenalty,
        seed: seed == 0 ? nil : seed),
      timeout: timeLimit > 0 ? .seconds(timeLimit) : nil)
  }

  /// Checks every value is in its range.
  public func validate() throws(InvalidParameterError) {
    guard timeLimit.isFinite, timeLimit == 0 || (1...86_400).contains(timeLimit) else {
      throw .init(name: "time limit", value: "\(timeLimit)", expected: "0 (none) or 1 to 86400 seconds")
    }
    try generationOptions.validate()
    guard maxTokens <= 32_768 else {
      throw .init(name: "max tokens", value: "\(maxTokens)", expected: "at most 32768")
    }
    if let systemPrompt, systemPrompt.count > 16_000 {
      throw .init(name: "system prompt", value: "of \(systemPrompt.count) characters", expected: "at most 16000")
    }
  }
}
