public import Foundation

/// Reads RIFF/WAVE audio: integer PCM of 8, 16, 24 or 32 bits and IEEE floats of 32 or 64 bits, plain or in
/// the extensible header, any number of channels (mixed down to one).
///
/// A data chunk cut short (a recording that was interrupted, or a streamed WAV whose header promises more) is
/// read as far as whole frames go, as players do; a header that cannot be made sense of is an error.
public enum WAVDecoder {
  /// Whether `data` starts like a WAV file.
  public static func looksLikeWAV(_ data: Data) -> Bool {
    data.count >= 12 && data.prefix(4) == Data("RIFF".utf8) && data.dropFirst(8).prefix(4) == Data("WAVE".utf8)
  }

  /// The audio in `data`, mixed down to mono, at its own rate.
  /// - Throws: ``SpeechError/invalidWAV(reason:)``.
  public static func decode(_ data: Data) throws(SpeechError) -> AudioClip {
    guard looksLikeWAV(data) else { throw .invalidWAV(reason: "it does not start with a RIFF/WAVE header") }
    let bytes = [UInt8](data)
    var format: Format?
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size = Int(read32(bytes, offset + 4))
      let body = offset + 8
      switch id {
      case "fmt ":
        guard size >= 16, body + 16 <= bytes.count else { throw .invalidWAV(reason: "its fmt chunk is too short") }
        format = try Format(bytes, at: body, size: min(size, bytes.count - body))
      case "data":
        guard let format else { throw .invalidWAV(reason: "its data comes before its fmt chunk") }
        let end = size > bytes.count - body ? bytes.count : body + size
        return AudioClip(samples: format.mono(bytes, from: body, to: end), sampleRate: format.sampleRate)
      default:
        break
      }
      // Chunks are padded to an even length.
      offset = body + size + (size & 1)
    }
    throw .invalidWAV(reason: format == nil ? "it has no fmt chunk" : "it has no data chunk")
  }

  private struct Format {
    enum Encoding { case integer, float }
    var encoding: Encoding
    var channels: Int
    var sampleRate: Int
    var bitsPerSample: Int

    init(_ bytes: [UInt8], at offset: Int, size: Int) throws(SpeechError) {
      var tag = Int(WAVDecoder.read16(bytes, offset))
      channels = Int(WAVDecoder.read16(bytes, offset + 2))
      sampleRate = Int(WAVDecoder.read32(bytes, offset + 4))
      bitsPerSample = Int(WAVDecoder.read16(bytes, offset + 14))
      if tag == 0xFFFE {
        guard size >= 40 else { throw .invalidWAV(reason: "its extensible fmt chunk is too short") }
        // The sub-format GUID begins with the plain format tag.
        tag = Int(WAVDecoder.read16(bytes, offset + 24))
      }
      switch (tag, bitsPerSample) {
      case (1, 8), (1, 16), (1, 24), (1, 32): encoding = .integer
      case (3, 32), (3, 64): encoding = .float
      default:
        throw .invalidWAV(reason: "format \(tag) with \(bitsPerSample) bits per sample is not PCM or float audio")
      }
      guard channels > 0 else { throw .invalidWAV(reason: "it declares 0 channels") }
      guard sampleRate > 0 else { throw .invalidWAV(reason: "it declares a sample rate of 0") }
      guard sampleRate <= 384_000 else { throw .invalidWAV(reason: "its sample rate \(sampleRate) Hz is not audio") }
    }

    func mono(_ bytes: [UInt8], from start: Int, to end: Int) -> [Float] {
      let width = bitsPerSample / 8
      let frame = width * channels
      let frames = (end - start) / frame
      var out = [Float](repeating: 0, count: frames)
      let scale = 1 / Float(channels)
      for index in 0..<frames {
        var sum: Float = 0
        let base = start + index * frame
        for channel in 0..<channels { sum += sample(bytes, base + channel * width) }
        out[index] = sum * scale
      }
      return out
    }

    private func sample(_ bytes: [UInt8], _ at: Int) -> Float {
      switch (encoding, bitsPerSample) {
      case (.integer, 8): return (Float(bytes[at]) - 128) / 128
      case (.integer, 16): return Float(Int16(bitPattern: WAVDecoder.read16(bytes, at))) / 32_768
      case (.integer, 24):
        let raw = Int32(bytes[at]) | Int32(bytes[at + 1]) << 8 | Int32(bytes[at + 2]) << 16
        return Float((raw << 8) >> 8) / 8_388_608
      case (.integer, _): return Float(Int32(bitPattern: WAVDecoder.read32(bytes, at))) / 2_147_483_648
      case (.float, 32): return sanitized(Float(bitPattern: WAVDecoder.read32(bytes, at)))
      default:
        let bits = UInt64(WAVDecoder.read32(bytes, at)) | UInt64(WAVDecoder.read32(bytes, at + 4)) << 32
        return sanitized(Float(Double(bitPattern: bits)))
      }
    }

    /// Float samples outside -1…1 or not numbers are clipped, as a sound card would.
    private func sanitized(_ value: Float) -> Float {
      value.isNaN ? 0 : min(1, max(-1, value))
    }
  }

  fileprivate static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  fileprivate static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}
