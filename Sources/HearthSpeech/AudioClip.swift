/// Mono audio as floating-point samples in -1…1.
public struct AudioClip: Sendable, Hashable {
  /// Whisper's sample rate: every clip is brought to it before recognition.
  public static let recognitionRate = 16_000

  /// The samples.
  public var samples: [Float]
  /// Samples per second.
  public var sampleRate: Int

  /// A clip of `samples` at `sampleRate`.
  public init(samples: [Float], sampleRate: Int) {
    self.samples = samples
    self.sampleRate = sampleRate
  }

  /// The length in seconds.
  public var duration: Double {
    sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
  }

  /// The loudest sample's magnitude.
  public var peak: Float {
    samples.reduce(0) { max($0, abs($1)) }
  }

  /// The clip at 16 kHz, the rate Whisper hears.
  public func atRecognitionRate() -> AudioClip {
    guard sampleRate != Self.recognitionRate else { return self }
    return AudioClip(
      samples: Resampler(from: sampleRate, to: Self.recognitionRate).resample(samples),
      sampleRate: Self.recognitionRate)
  }
}
