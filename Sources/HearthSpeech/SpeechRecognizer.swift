public import Foundation
public import HearthCore

/// Speech to text with a whisper.cpp model on this machine, loaded the first time it is needed and then kept.
///
/// Loading and recognition run on the line the engine gives it, the one its language models decode on, so a
/// transcription and a chat answer take turns rather than fight over the cores.
public actor SpeechRecognizer {
  /// The model file.
  public nonisolated let path: String
  private let line: any HeavyWorkLine
  private var loading: Task<WhisperModel, any Error>?

  /// A recognizer for the model at `path`, working on `line`; nothing is loaded yet.
  public init(path: String, line: any HeavyWorkLine) {
    self.path = path
    self.line = line
  }

  /// Whether the model file exists.
  public nonisolated var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

  /// The model's file name, as the API names it.
  public nonisolated var name: String { URL(fileURLWithPath: path).lastPathComponent }

  /// Whether the model only knows English (whisper.cpp's `.en` models).
  public func isEnglishOnly() async throws(SpeechError) -> Bool {
    try await loaded().isMultilingual == false
  }

  /// Loads the model now, so that a missing or damaged one is reported before any audio arrives.
  public func prepare() async throws(SpeechError) {
    _ = try await loaded()
  }

  /// Transcribes a clip (any rate; it is brought to 16 kHz).
  /// - Throws: ``SpeechError`` for a model that cannot be used, a language it does not know, cancellation,
  ///   the time limit or a failure inside whisper.cpp.
  public func transcribe(
    _ clip: AudioClip, options: TranscriptionOptions = .init()
  ) async throws(SpeechError)
    -> Transcript
  {
    let model = try await loaded()
    if let language = options.language, !model.isMultilingual, language.lowercased() != "en" {
      throw .unsupportedLanguage(language, model: model.name)
    }
    let audio = clip.atRecognitionRate()
    // Nothing louder than -60 dBFS is silence: no model pass, no words invented for it.
    guard !audio.samples.isEmpty, audio.peak >= 0.001 else {
      return Transcript(
        segments: [], language: model.isMultilingual ? (options.language ?? "en") : "en",
        duration: audio.duration, processingSeconds: 0)
    }
    let signal = AbortSignal(timeLimit: options.timeLimit)
    let line = line
    let result: Result<Transcript, SpeechError> = await withTaskCancellationHandler {
      do {
        return .success(
          try await line.run { () throws -> Transcript in
            // Cancelled while waiting in line: whisper.cpp is never started.
            if signal.isCancelled { throw SpeechError.cancelled }
            signal.start()
            let started = ContinuousClock.now
            let segments = try model.transcribe(audio.samples, options: options, signal: signal)
            let elapsed = ContinuousClock.now - started
            return Transcript(
              segments: segments, language: model.lastLanguage, duration: audio.duration,
              processingSeconds: elapsed.seconds)
          })
      } catch let error as SpeechError {
        return .failure(error)
      } catch {
        return .failure(.recognitionFailed(code: -1))
      }
    } onCancel: {
      signal.cancel()
    }
    return try result.get()
  }

  /// Reads an audio file's bytes (WAV, or anything ffmpeg reads) and transcribes it.
  public func transcribe(
    data: Data, options: TranscriptionOptions = .init(), loader: AudioLoader = AudioLoader()
  ) async throws(SpeechError) -> Transcript {
    let clip = try await Self.decode { () throws(SpeechError) in try loader.load(data) }
    return try await transcribe(clip, options: options)
  }

  private func loaded() async throws(SpeechError) -> WhisperModel {
    let task: Task<WhisperModel, any Error>
    if let loading {
      task = loading
    } else {
      let path = path
      let line = line
      task = Task { try await line.run { try WhisperModel(path: path) } }
      loading = task
    }
    do {
      return try await task.value
    } catch {
      // A failed load (a missing or damaged file) is tried again next time rather than remembered.
      loading = nil
      throw (error as? SpeechError) ?? .modelLoadFailed(path: path)
    }
  }

  /// Decoding (and ffmpeg) blocks: it gets a thread of its own, never one of the cooperative pool's.
  private static func decode(
    _ work: @escaping @Sendable () throws(SpeechError) -> AudioClip
  ) async throws(SpeechError) -> AudioClip {
    let result: Result<AudioClip, SpeechError> = await withCheckedContinuation { continuation in
      let thread = Thread {
        do throws(SpeechError) {
          continuation.resume(returning: .success(try work()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      thread.name = "hearth.audio-decode"
      thread.start()
    }
    return try result.get()
  }
}
