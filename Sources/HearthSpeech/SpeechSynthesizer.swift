import Foundation
import HearthCore

/// The voices Hearth speaks with.
public enum SpeechVoice: Sendable, Hashable {
  /// The installed Piper voice (a neural voice, run by sherpa-onnx).
  case piper
  /// espeak-ng's own voice: robotic, but always there.
  case espeak
}

/// How one text is spoken.
public struct SynthesisOptions: Sendable, Hashable {
  /// The fastest and slowest pace, as OpenAI's speech API allows.
  public static let speeds: ClosedRange<Double> = 0.25...4

  /// Pace: 1 is the voice's own, 2 twice as fast.
  public var speed: Double
  /// The voice, or `nil` for the Piper voice when it is installed and espeak-ng's otherwise.
  public var voice: SpeechVoice?

  /// Options with the voice's own pace and the best voice installed.
  public init(speed: Double = 1, voice: SpeechVoice? = nil) {
    self.speed = speed
    self.voice = voice
  }
}

/// Text to speech on this machine: a Piper voice through sherpa-onnx, with phonemes from espeak-ng, and
/// espeak-ng's own voice when the Piper voice is not installed.
///
/// The voice is loaded the first time it is needed and kept. Speaking runs on a thread of its own, not on the
/// line the language models decode on, so an answer can be read aloud while it is still being written.
public actor SpeechSynthesizer {
  /// The longest text spoken at once, as OpenAI's speech API allows.
  public static let maxCharacters = 4096

  /// The Piper voice's ONNX file (with sherpa-onnx's metadata).
  public nonisolated let modelPath: String
  /// Its tokens file.
  public nonisolated let tokensPath: String
  /// The espeak-ng voice that makes its phonemes, and speaks when it is missing.
  public nonisolated let espeakVoice: String
  private let threads: Int
  private let line = OwnThreadLine(name: "hearth.voice")
  private var loading: Task<PiperVoice, any Error>?

  /// A synthesizer for the Piper voice at `modelPath`, its tokens beside it (`NAME.tokens.txt`) unless given.
  public init(
    modelPath: String, tokensPath: String? = nil, espeakVoice: String = "en-us",
    threads: Int? = nil
  ) {
    self.modelPath = modelPath
    self.tokensPath = tokensPath ?? Self.tokensPath(besides: modelPath)
    self.espeakVoice = espeakVoice
    // The CPUs this process may use (a pinned process gets fewer), at most four: the voice is small.
    self.threads = max(1, threads ?? min(4, Processors.available))
  }

  /// The tokens file a prepared voice keeps beside its model: `en_US-joe-medium.onnx` → `en_US-joe-medium.tokens.txt`.
  public static func tokensPath(besides modelPath: String) -> String {
    let url = URL(fileURLWithPath: modelPath)
    return url.deletingPathExtension().appendingPathExtension("tokens.txt").path
  }

  /// Whether the Piper voice's files are there.
  public nonisolated var isInstalled: Bool {
    FileManager.default.fileExists(atPath: modelPath) && FileManager.default.fileExists(atPath: tokensPath)
  }

  /// The Piper voice's speaker, as its file names it (`en_US-joe-medium.onnx` → `joe`).
  public nonisolated var voiceName: String {
    let stem = URL(fileURLWithPath: modelPath).deletingPathExtension().lastPathComponent
    let parts = stem.split(separator: "-")
    return parts.count >= 2 ? String(parts[1]) : stem
  }

  /// The voice `options` ask for, as it will be used.
  public nonisolated func voice(for options: SynthesisOptions) -> SpeechVoice {
    options.voice ?? (isInstalled ? .piper : .espeak)
  }

  /// Loads the Piper voice now, so that a missing or damaged one is reported before any text arrives.
  public func prepare() async throws(VoiceError) {
    _ = try await loaded()
  }

  /// `text` (plain or Markdown) spoken whole.
  public func speak(_ text: String, options: SynthesisOptions = .init()) async throws(VoiceError) -> AudioClip {
    var samples: [Float] = []
    var rate = 22_050
    do {
      for try await clip in try sentences(of: text, options: options) {
        samples += clip.samples
        rate = clip.sampleRate
      }
    } catch {
      throw Self.voiceError(error)
    }
    return AudioClip(samples: samples, sampleRate: rate)
  }

  /// `text` spoken sentence by sentence: each clip as soon as it is made, so playing can start with the first.
  /// - Throws: ``VoiceError`` at once for text that is too long, empty or a speed out of range; the stream
  ///   throws one for a voice that cannot be used, or cancellation.
  public func sentences(
    of text: String, options: SynthesisOptions = .init()
  ) throws(VoiceError) -> AsyncThrowingStream<AudioClip, any Error> {
    guard text.count <= Self.maxCharacters else {
      throw .tooLong(characters: text.count, limit: Self.maxCharacters)
    }
    guard SynthesisOptions.speeds.contains(options.speed) else { throw .speedOutOfRange(options.speed) }
    let sentences = SpeakableText.sentences(SpeakableText.plain(text))
    guard !sentences.isEmpty else { throw .nothingToSay }
    let voice = voice(for: options)
    let (stream, continuation) = AsyncThrowingStream<AudioClip, any Error>.makeStream()
    let task = Task {
      do {
        for sentence in sentences {
          try Task.checkCancellation()
          continuation.yield(try await self.speakSentence(sentence, voice: voice, speed: options.speed))
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: Self.voiceError(error))
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  private func speakSentence(_ sentence: String, voice: SpeechVoice, speed: Double) async throws -> AudioClip {
    let espeakVoice = espeakVoice
    switch voice {
    case .espeak:
      return try await line.run { try Espeak.speak(sentence, voice: espeakVoice, speed: speed) }
    case .piper:
      let piper = try await loaded()
      return try await line.run {
        let clips = try Espeak.phonemeSentences(of: sentence, voice: piper.espeakVoice).map {
          try piper.speak(phonemes: $0, speed: speed)
        }
        return AudioClip(samples: clips.flatMap(\.samples), sampleRate: piper.sampleRate)
      }
    }
  }

  /// Returns once the speech being made now is done: a process that ends on an error waits for it, so that
  /// ONNX Runtime is not torn down under a running synthesis.
  public func settle() async {
    _ = try? await line.run {}
  }

  /// Any failure met while speaking, as the ``VoiceError`` it is.
  public static func voiceError(_ error: any Error) -> VoiceError {
    if let error = error as? VoiceError { return error }
    return error is CancellationError ? .cancelled : .synthesisFailed(engine: "Hearth", code: -1)
  }

  private func loaded() async throws(VoiceError) -> PiperVoice {
    let task: Task<PiperVoice, any Error>
    if let loading {
      task = loading
    } else {
      let (modelPath, tokensPath, espeakVoice, threads) = (modelPath, tokensPath, espeakVoice, threads)
      task = Task {
        try await line.run {
          try PiperVoice(modelPath: modelPath, tokensPath: tokensPath, espeakVoice: espeakVoice, threads: threads)
        }
      }
      loading = task
    }
    do {
      return try await task.value
    } catch {
      // A failed load (a missing or damaged file) is tried again next time rather than remembered.
      loading = nil
      throw (error as? VoiceError) ?? .voiceLoadFailed(path: modelPath)
    }
  }
}
