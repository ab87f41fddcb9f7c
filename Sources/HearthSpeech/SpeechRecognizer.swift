public import Foundation
public import HearthCore
import Synchronization

/// Speech to text with a whisper.cpp model on this machine, loaded the first time it is needed and then kept.
///
/// Loading and recognition run on the line the engine gives it, the one its language models decode on, so a
/// transcription and a chat answer take turns rather than fight over the cores.
public actor SpeechRecognizer {
  /// The model file.
  public nonisolated let path: String
  /// Silero VAD in whisper.cpp's format: when it is there, silence is cut before Whisper hears the clip (no words
  /// invented for it, less to transcribe).
  public nonisolated let detectorPath: String?
  private let line: any HeavyWorkLine
  private var loading: Task<WhisperModel, any Error>?
  private var detectorLoading: Task<SileroModel?, Never>?
  private let working = WorkCount()

  /// A recognizer for the model at `path`, working on `line`, cutting silence with the voice-activity model at
  /// `detectorPath`; nothing is loaded yet.
  public init(path: String, line: any HeavyWorkLine, detectorPath: String? = nil) {
    self.path = path
    self.line = line
    self.detectorPath = detectorPath
  }

  /// Transcriptions whisper.cpp is working on now (they take turns on the line, so 0 or 1): what Diagnostics
  /// can show, and how a caller sees that one it stopped has really ended.
  public nonisolated var transcriptionsInProgress: Int { working.value.load(ordering: .relaxed) }

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
    let working = working
    let detector = options.cutsSilence ? await detector() : nil
    let result: Result<Transcript, SpeechError> = await withTaskCancellationHandler {
      do {
        return .success(
          try await line.run { () throws -> Transcript in
            // Cancelled while waiting in line: whisper.cpp is never started.
            if signal.isCancelled { throw SpeechError.cancelled }
            signal.start()
            working.value.add(1, ordering: .relaxed)
            defer { working.value.subtract(1, ordering: .relaxed) }
            let started = ContinuousClock.now
            let segments = try Self.speechOnly(audio, detector: detector) { samples in
              try model.transcribe(samples, options: options, signal: signal)
            }
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

  /// How much sound is kept on each side of the speech the detector found, so no word loses its edges.
  static let speechPadding = 0.2

  /// Transcribes only the stretch from the first speech to the last when a detector is there (none found: no
  /// words at all), with the segments' times counted from the clip's own start.
  private static func speechOnly(
    _ audio: AudioClip, detector: SileroModel?, transcribe: ([Float]) throws -> [Transcript.Segment]
  ) throws -> [Transcript.Segment] {
    guard let detector else { return try transcribe(audio.samples) }
    let speech = try detector.activity(in: audio.samples).speech
    guard let first = speech.first, let last = speech.last else { return [] }
    let rate = Double(audio.sampleRate)
    let start = max(0, Int(((first.lowerBound - speechPadding) * rate).rounded(.down)))
    let end = min(audio.samples.count, Int(((last.upperBound + speechPadding) * rate).rounded(.up)))
    guard end > start else { return [] }
    let offset = Double(start) / rate
    return try transcribe(Array(audio.samples[start..<end])).map { segment in
      Transcript.Segment(start: segment.start + offset, end: segment.end + offset, text: segment.text)
    }
  }

  /// The voice-activity model, loaded once; without one (none configured, missing or unusable), the whole clip is
  /// transcribed, as before there was one.
  private func detector() async -> SileroModel? {
    guard let detectorPath else { return nil }
    if let detectorLoading { return await detectorLoading.value }
    let line = line
    let task = Task { () -> SileroModel? in
      try? await line.run { try SileroModel(path: detectorPath) }
    }
    detectorLoading = task
    return await task.value
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

/// A count shared with the work on the line.
private final class WorkCount: Sendable {
  let value = Atomic<Int>(0)
}
