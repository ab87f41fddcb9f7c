import CWhisper

/// Why audio could not be transcribed.
public enum SpeechError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The speech model file is not there.
  case modelMissing(path: String)
  /// The voice-activity model (Silero VAD in whisper.cpp's format) is not there.
  case detectorMissing(path: String)
  /// The file is not a whisper.cpp model, or it is damaged.
  case modelInvalid(path: String, reason: String)
  /// whisper.cpp could not load a file that looked right.
  case modelLoadFailed(path: String)
  /// The audio holds no samples at all.
  case emptyAudio
  /// The audio is a WAV file that cannot be read.
  case invalidWAV(reason: String)
  /// The audio is in a format only ffmpeg decodes, and ffmpeg is not installed.
  case decoderMissing(format: String)
  /// ffmpeg could not decode the file.
  case undecodable(reason: String)
  /// The audio is longer than Hearth transcribes at once.
  case tooLong(seconds: Double, limit: Double)
  /// The model transcribes one language and another was asked for.
  case unsupportedLanguage(String, model: String)
  /// The transcription took longer than its time limit.
  case timedOut(seconds: Double)
  /// The transcription was cancelled.
  case cancelled
  /// whisper.cpp reported a failure.
  case recognitionFailed(code: Int32)

  public var description: String {
    switch self {
    case .modelMissing(let path):
      "The speech model \(path) is not installed (`make build` installs it; or point HEARTH_SPEECH_MODEL at a whisper.cpp model)."
    case .detectorMissing(let path):
      "The voice-activity model \(path) is not installed (`make build` installs it; or point HEARTH_VAD_MODEL at Silero VAD converted for whisper.cpp)."
    case .modelInvalid(let path, let reason):
      "\(path) is not a usable whisper.cpp model: \(reason)."
    case .modelLoadFailed(let path):
      "whisper.cpp could not load the speech model \(path); the file may be damaged."
    case .emptyAudio:
      "The audio holds no samples."
    case .invalidWAV(let reason):
      "The WAV file cannot be read: \(reason)."
    case .decoderMissing(let format) where format == AudioLoader.unrecognised:
      "The file is not WAV nor any audio format Hearth recognises; if it is audio, ffmpeg could decode it, but ffmpeg is not installed (apt install ffmpeg)."
    case .decoderMissing(let format):
      "The file is \(format), not WAV; decoding it needs ffmpeg, which is not installed (apt install ffmpeg), or convert it to WAV first."
    case .undecodable(let reason):
      "The audio cannot be decoded: \(reason)."
    case .tooLong(let seconds, let limit):
      "The audio is \(Int(seconds.rounded())) s long; Hearth transcribes at most \(Int(limit)) s at once."
    case .unsupportedLanguage(let language, let model):
      "The speech model \(model) transcribes English only; language \"\(language)\" cannot be used with it."
    case .timedOut(let seconds):
      "The transcription took longer than its limit of \(Int(seconds)) s."
    case .cancelled:
      "The transcription was cancelled."
    case .recognitionFailed(let code):
      "whisper.cpp failed to transcribe the audio (error \(code))."
    }
  }
}

/// The languages Whisper knows.
public enum SpeechLanguage {
  /// The English name Whisper gives a language code (`en` → `english`), or `nil` for a code it does not know.
  public static func name(of code: String) -> String? {
    // whisper.cpp reports an unknown code on stderr; the caller reports it better.
    WhisperModel.silenceLogging
    let id = whisper_lang_id(code.lowercased())
    guard id >= 0, let name = whisper_lang_str_full(id) else { return nil }
    return String(cString: name)
  }
}
