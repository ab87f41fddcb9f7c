import CWhisper
import Foundation
import HearthCore

/// Where speech is in a clip: Silero VAD (converted for whisper.cpp by the set-up) run by whisper.cpp, loaded the
/// first time it is needed and then kept. It tells a listening app when a person starts and stops talking, and
/// the recognizer uses the same model to cut silence before transcribing.
public actor VoiceActivityDetector {
  /// Samples per probability at 16 kHz (32 ms): Silero's window.
  public static let window = 512

  /// The model file.
  public nonisolated let path: String
  private let line = OwnThreadLine(name: "hearth.vad")
  private var loading: Task<SileroModel, any Error>?

  /// A detector for the model at `path`; nothing is loaded yet.
  public init(path: String) {
    self.path = path
  }

  /// Whether the model file exists.
  public nonisolated var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

  /// What the detector found in a clip.
  public struct Activity: Sendable, Hashable {
    /// The probability of speech in each 32 ms window, in order.
    public var probabilities: [Float]
    /// The stretches of speech, in seconds from the clip's start.
    public var speech: [ClosedRange<Double>]
  }

  /// The speech in `clip` (any rate; it is brought to 16 kHz).
  public func activity(in clip: AudioClip) async throws(SpeechError) -> Activity {
    let model = try await loaded()
    let samples = clip.atRecognitionRate().samples
    guard samples.count >= Self.window else { return Activity(probabilities: [], speech: []) }
    do {
      return try await line.run { try model.activity(in: samples) }
    } catch {
      throw (error as? SpeechError) ?? .recognitionFailed(code: -1)
    }
  }

  private func loaded() async throws(SpeechError) -> SileroModel {
    let task: Task<SileroModel, any Error>
    if let loading {
      task = loading
    } else {
      let (path, line) = (path, line)
      task = Task { try await line.run { try SileroModel(path: path) } }
      loading = task
    }
    do {
      return try await task.value
    } catch {
      loading = nil
      throw (error as? SpeechError) ?? .modelLoadFailed(path: path)
    }
  }
}

/// Silero VAD in whisper.cpp's format, in memory. Not thread-safe: the detector runs it on its own line.
final class SileroModel: @unchecked Sendable {
  private let context: OpaquePointer

  init(path: String) throws(SpeechError) {
    try WhisperFileHeader.checkDetector(path: path)
    WhisperModel.silenceLogging
    var params = whisper_vad_default_context_params()
    // The graph is tiny and run once per 32 ms window: more threads only spin (seconds under load, not ms).
    params.n_threads = 1
    params.use_gpu = false
    guard let context = whisper_vad_init_from_file_with_params(path, params) else {
      throw .modelLoadFailed(path: path)
    }
    self.context = context
  }

  deinit { whisper_vad_free(context) }

  /// The speech in 16 kHz samples.
  func activity(in samples: [Float]) throws(SpeechError) -> VoiceActivityDetector.Activity {
    let duration = Double(samples.count) / Double(AudioClip.recognitionRate)
    let found = samples.withUnsafeBufferPointer { buffer in
      whisper_vad_detect_speech(context, buffer.baseAddress, Int32(buffer.count))
    }
    guard found else { throw .recognitionFailed(code: -2) }
    let count = Int(whisper_vad_n_probs(context))
    let probabilities = count > 0 ? Array(UnsafeBufferPointer(start: whisper_vad_probs(context), count: count)) : []
    var speech: [ClosedRange<Double>] = []
    if let segments = whisper_vad_segments_from_probs(context, whisper_vad_default_params()) {
      defer { whisper_vad_free_segments(segments) }
      for index in 0..<whisper_vad_segments_n_segments(segments) {
        // whisper.cpp counts segment times in hundredths of a second.
        // The last one ends with its 32 ms window, which may reach past the samples.
        let start = Double(whisper_vad_segments_get_segment_t0(segments, index)) / 100
        let end = min(Double(whisper_vad_segments_get_segment_t1(segments, index)) / 100, duration)
        if end >= start { speech.append(start...end) }
      }
    }
    return .init(probabilities: probabilities, speech: speech)
  }
}
