/// How the next token is chosen. Temperature 0 means greedy decoding (always the most likely token).
public struct SamplingParameters: Sendable, Hashable, Codable {
  /// Softmax temperature; 0 selects greedy decoding.
  public var temperature: Double
  /// Keep only the `topK` most likely tokens; 0 disables the filter.
  public var topK: Int
  /// Keep the smallest set of tokens whose probabilities add up to `topP`; 1 disables the filter.
  public var topP: Double
  /// Drop tokens less likely than `minP` times the most likely one; 0 disables the filter.
  public var minP: Double
  /// Penalty applied to recently seen tokens; 1 disables it.
  public var repeatPenalty: Double
  /// How many recent tokens the repeat penalty looks at.
  public var repeatLastN: Int
  /// Seed of the random sampler; `nil` picks a fresh one for every generation.
  public var seed: UInt32?

  /// Creates sampling parameters. The defaults suit chat with a small model.
  public init(
    temperature: Double = 0.7,
    topK: Int = 40,
    topP: Double = 0.95,
    minP: Double = 0.05,
    repeatPenalty: Double = 1.1,
    repeatLastN: Int = 64,
    seed: UInt32? = nil
  ) {
    self.temperature = temperature
    self.topK = topK
    self.topP = topP
    self.minP = minP
    self.repeatPenalty = repeatPenalty
    self.repeatLastN = repeatLastN
    self.seed = seed
  }

  /// Greedy decoding: deterministic output for a given model and prompt.
  public static let greedy = SamplingParameters(temperature: 0, repeatPenalty: 1)

  /// Whether this asks for greedy decoding.
  public var isGreedy: Bool { temperature == 0 }

  /// Checks every value is in its range.
  /// - Throws: ``InvalidParameterError`` naming the first bad value.
  public func validate() throws(InvalidParameterError) {
    guard temperature.isFinite, temperature >= 0, temperature <= 10 else {
      throw .init(name: "temperature", value: "\(temperature)", expected: "a number from 0 to 10")
    }
    guard topK >= 0 else {
      throw .init(name: "top-k", value: "\(topK)", expected: "0 (off) or a positive count")
    }
    guard topP.isFinite, topP > 0, topP <= 1 else {
      throw .init(name: "top-p", value: "\(topP)", expected: "a number above 0 and at most 1")
    }
    guard minP.isFinite, minP >= 0, minP <= 1 else {
      throw .init(name: "min-p", value: "\(minP)", expected: "a number from 0 to 1")
    }
    guard repeatPenalty.isFinite, repeatPenalty > 0, repeatPenalty <= 10 else {
      throw .init(name: "repeat penalty", value: "\(repeatPenalty)", expected: "a number above 0 and at most 10")
    }
    guard repeatLastN >= 0 else {
      throw .init(name: "repeat window", value: "\(repeatLastN)", expected: "0 or a positive count")
    }
  }
}

/// A parameter outside its allowed range.
public struct InvalidParameterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The parameter's user-facing name.
  public var name: String
  /// The value that was given.
  public var value: String
  /// What would have been accepted.
  public var expected: String

  /// Creates the error.
  public init(name: String, value: String, expected: String) {
    self.name = name
    self.value = value
    self.expected = expected
  }

  public var description: String { "invalid \(name) \(value): expected \(expected)" }
}
