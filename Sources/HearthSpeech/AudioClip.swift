public import Foundation

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

  /// A clip of 16-bit little-endian PCM samples.
  public init(pcm16 data: Data, sampleRate: Int) {
    var samples = [Float](repeating: 0, count: data.count / 2)
    data.withUnsafeBytes { raw in
      for index in samples.indices {
        samples[index] =
          Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32_768
      }
    }
    self.init(samples: samples, sampleRate: sampleRate)
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

extension AudioClip {
  /// The clip as a 16-bit PCM mono WAV file.
  public func wavData() -> Data {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44)
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    let dataSize = UInt32(samples.count * 2)
    bytes += Array("RIFF".utf8)
    append(36 + dataSize)
    bytes += Array("WAVEfmt ".utf8)
    append(UInt32(16))
    append(UInt16(1))
    append(UInt16(1))
    append(UInt32(sampleRate))
    append(UInt32(sampleRate * 2))
    append(UInt16(2))
    append(UInt16(16))
    bytes += Array("data".utf8)
    append(dataSize)
    return Data(bytes) + pcm16Data()
  }

  /// The samples as 16-bit little-endian PCM, without a header.
  public func pcm16Data() -> Data {
    var data = Data(count: samples.count * 2)
    data.withUnsafeMutableBytes { raw in
      for (index, sample) in samples.enumerated() {
        let value = Int16((max(-1, min(1, sample)) * 32_767).rounded()).littleEndian
        raw.storeBytes(of: value, toByteOffset: index * 2, as: Int16.self)
      }
    }
    return data
  }
}
