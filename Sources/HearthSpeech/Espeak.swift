import CEspeak
import Foundation

/// Debian's espeak-ng, used two ways: it turns text into the IPA phonemes a Piper voice speaks, and it is the
/// voice of last resort when no Piper voice is installed.
///
/// espeak-ng keeps one global state (its voice, its rate, its synthesis callback), so every use holds one lock.
enum Espeak {
  private static let lock = NSLock()
  // Guarded by `lock`: the rate espeak-ng synthesises at, or nil before the first use (or after a failure).
  nonisolated(unsafe) private static var outputRate: Int?

  /// A sentence as espeak-ng reads it: its IPA phonemes, with the punctuation that ends each clause kept, since a
  /// Piper voice was trained to pause and lift its pitch on it.
  static func phonemeSentences(of text: String, voice: String) throws(VoiceError) -> [String] {
    try withEngine(voice: voice) { () throws(VoiceError) in
      var sentences: [String] = []
      var current = ""
      text.withCString { start in
        var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
        let end = UnsafeRawPointer(start).advanced(by: strlen(start))
        while let clauseStart = cursor {
          // Bit 1: IPA; no separator between phonemes (bits 8–23 zero), as Piper's voices were trained.
          let phonemes = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, 0x02).map { String(cString: $0) } ?? ""
          let clauseEnd = cursor ?? end
          let clause = String(
            decoding: UnsafeRawBufferPointer(start: clauseStart, count: clauseStart.distance(to: clauseEnd)),
            as: UTF8.self)
          let terminator = clause.trimmingCharacters(in: .whitespacesAndNewlines).last
          let spoken = phonemes.trimmingCharacters(in: .whitespaces)
          if !spoken.isEmpty {
            if !current.isEmpty { current += " " }
            current += spoken
          }
          if let terminator, ".,;:!?".contains(terminator), !current.isEmpty {
            current.append(terminator)
          }
          if let terminator, ".!?".contains(terminator) || cursor == nil, !current.isEmpty {
            sentences.append(current)
            current = ""
          }
          if cursor == nil || clauseStart == clauseEnd { break }
        }
      }
      if !current.isEmpty { sentences.append(current) }
      return sentences
    }
  }

  /// `text` spoken by espeak-ng itself, `speed` times its usual 175 words a minute.
  static func speak(_ text: String, voice: String, speed: Double) throws(VoiceError) -> AudioClip {
    try withEngine(voice: voice) { () throws(VoiceError) -> AudioClip in
      guard let rate = outputRate else { throw .espeakUnavailable }
      let wordsPerMinute = Int32(max(80, min(450, (175 * speed).rounded())))
      espeak_SetParameter(espeakRATE, wordsPerMinute, 0)
      defer { espeak_SetParameter(espeakRATE, 175, 0) }
      let collector = SampleCollector()
      espeak_SetSynthCallback { samples, count, events in
        guard let events, let user = events.pointee.user_data else { return 0 }
        let collector = Unmanaged<SampleCollector>.fromOpaque(user).takeUnretainedValue()
        if let samples, count > 0 {
          collector.samples += UnsafeBufferPointer(start: samples, count: Int(count)).map { Float($0) / 32_768 }
        }
        return 0
      }
      let user = Unmanaged.passRetained(collector)
      defer { user.release() }
      let status = text.withCString { start in
        espeak_Synth(
          start, strlen(start) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, user.toOpaque())
      }
      guard status == EE_OK else { throw .synthesisFailed(engine: "espeak-ng", code: Int32(status.rawValue)) }
      return AudioClip(samples: collector.samples, sampleRate: rate)
    }
  }

  private static func withEngine<T>(
    voice: String, _ work: () throws(VoiceError) -> T
  ) throws(VoiceError) -> T {
    lock.lock()
    defer { lock.unlock() }
    if outputRate == nil {
      let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
      guard rate > 0 else { throw .espeakUnavailable }
      outputRate = Int(rate)
    }
    guard espeak_SetVoiceByName(voice) == EE_OK else { throw .unknownEspeakVoice(voice) }
    return try work()
  }
}

/// Where espeak-ng's callback puts the samples of one synthesis (under `Espeak`'s lock).
private final class SampleCollector: @unchecked Sendable {
  var samples: [Float] = []
}
