/// Why text could not be spoken.
public enum VoiceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The voice's model or tokens file is not there.
  case voiceMissing(path: String)
  /// sherpa-onnx could not load the voice.
  case voiceLoadFailed(path: String)
  /// espeak-ng (the phonemizer and fallback voice) could not start.
  case espeakUnavailable
  /// espeak-ng has no voice of that name.
  case unknownEspeakVoice(String)
  /// The text holds nothing to say.
  case nothingToSay
  /// The text is longer than Hearth speaks at once.
  case tooLong(characters: Int, limit: Int)
  /// The speed is outside what the voice can do.
  case speedOutOfRange(Double)
  /// A synthesis engine reported a failure.
  case synthesisFailed(engine: String, code: Int32)
  /// The synthesis was cancelled.
  case cancelled

  public var description: String {
    switch self {
    case .voiceMissing(let path):
      "The voice \(path) is not installed (`make build` installs it; or point HEARTH_VOICE_MODEL at a Piper voice prepared by scripts/prepare-piper-voice.py)."
    case .voiceLoadFailed(let path):
      "sherpa-onnx could not load the voice \(path); the file may be damaged."
    case .espeakUnavailable:
      "espeak-ng could not start (is espeak-ng-data installed?)."
    case .unknownEspeakVoice(let voice):
      "espeak-ng has no voice named \"\(voice)\"."
    case .nothingToSay:
      "The text holds nothing to say."
    case .tooLong(let characters, let limit):
      "The text is \(characters) characters long; Hearth speaks at most \(limit) at once."
    case .speedOutOfRange(let speed):
      "The speed \(speed) is outside 0.25…4."
    case .synthesisFailed(let engine, let code):
      "\(engine) failed to speak the text (error \(code))."
    case .cancelled:
      "The speech was cancelled."
    }
  }
}
