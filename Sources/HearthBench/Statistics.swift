/// Decode speed of several answers together: their tokens after the first over the time each took from its first
/// token to its last (answers of one token, or whose time could not be measured, left out).
public func decodeSpeed(_ answers: [(tokens: Int, tokensPerSecond: Double)]) -> Double {
  let counted = answers.filter { $0.tokens > 1 && $0.tokensPerSecond > 0 }
  let seconds = counted.reduce(0) { $0 + Double($1.tokens - 1) / $1.tokensPerSecond }
  return seconds > 0 ? Double(counted.reduce(0) { $0 + $1.tokens - 1 }) / seconds : 0
}

/// Mean and spread of repeated measurements.
public struct Samples: Sendable, Hashable, Codable {
  /// The individual values.
  public var samples: [Double]

  /// Creates a measurement from its samples.
  public init(samples: [Double]) {
    self.samples = samples
  }

  /// Arithmetic mean (0 when empty).
  public var mean: Double {
    samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count)
  }

  /// Middle value (0 when empty).
  public var median: Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Sample standard deviation (0 with fewer than two samples).
  public var standardDeviation: Double {
    guard samples.count > 1 else { return 0 }
    let mean = self.mean
    let variance = samples.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(samples.count - 1)
    return variance.squareRoot()
  }

  /// Both measurements' samples together.
  public static func + (lhs: Samples, rhs: Samples) -> Samples {
    Samples(samples: lhs.samples + rhs.samples)
  }
}
