import CSherpa
import Foundation

/// A Piper (VITS) voice run by sherpa-onnx, fed IPA phonemes that espeak-ng makes.
///
/// One synthesis at a time: the synthesizer's own line calls it.
final class PiperVoice: @unchecked Sendable {
  let modelPath: String
  /// The espeak-ng voice whose phonemes the model was trained on.
  let espeakVoice: String
  let sampleRate: Int
  private let engine: OpaquePointer

  /// Loads the voice at `modelPath` (an ONNX file with sherpa-onnx's metadata) with its `tokensPath`.
  init(modelPath: String, tokensPath: String, espeakVoice: String, threads: Int) throws(VoiceError) {
    for path in [modelPath, tokensPath] where !FileManager.default.fileExists(atPath: path) {
      throw .voiceMissing(path: path)
    }
    let created: OpaquePointer? = modelPath.withCString { model in
      tokensPath.withCString { tokens in
        "cpu".withCString { provider in
          var config = SherpaOnnxOfflineTtsConfig()
          config.model.vits.model = model
          config.model.vits.tokens = tokens
          // Piper's own inference settings for its medium voices.
          config.model.vits.noise_scale = 0.667
          config.model.vits.noise_scale_w = 0.8
          config.model.vits.length_scale = 1
          config.model.num_threads = Int32(threads)
          config.model.provider = provider
          config.max_num_sentences = 1
          return SherpaOnnxCreateOfflineTts(&config)
        }
      }
    }
    guard let created else { throw .voiceLoadFailed(path: modelPath) }
    self.engine = created
    self.modelPath = modelPath
    self.espeakVoice = espeakVoice
    self.sampleRate = Int(SherpaOnnxOfflineTtsSampleRate(created))
  }

  deinit { SherpaOnnxDestroyOfflineTts(engine) }

  /// One sentence's phonemes spoken at `speed` (1 is the voice's own pace).
  func speak(phonemes: String, speed: Double) throws(VoiceError) -> AudioClip {
    let codepoints = phonemes.unicodeScalars.map { Int32(bitPattern: $0.value) }
    guard !codepoints.isEmpty else { return AudioClip(samples: [], sampleRate: sampleRate) }
    var lengths = [Int32(codepoints.count)]
    let audio = codepoints.withUnsafeBufferPointer { points in
      lengths.withUnsafeMutableBufferPointer { lengths in
        "".withCString { noText in
          var generation = SherpaOnnxGenerationConfig()
          generation.speed = Float(speed)
          generation.silence_scale = 0.2
          generation.phoneme_codepoints = points.baseAddress
          generation.phoneme_codepoints_lens = UnsafePointer(lengths.baseAddress)
          generation.phoneme_codepoints_num_sentences = 1
          return SherpaOnnxOfflineTtsGenerateWithConfig(engine, noText, &generation, nil, nil)
        }
      }
    }
    guard let audio else { throw .synthesisFailed(engine: "sherpa-onnx", code: -1) }
    defer { SherpaOnnxDestroyOfflineTtsGeneratedAudio(audio) }
    let samples = Array(UnsafeBufferPointer(start: audio.pointee.samples, count: Int(max(0, audio.pointee.n))))
    return AudioClip(samples: samples, sampleRate: Int(audio.pointee.sample_rate))
  }
}
