import CWhisper
import Foundation
import HearthCore
import Synchronization

/// A whisper.cpp model in memory. Not thread-safe: ``SpeechRecognizer`` runs all its work on one line.
final class WhisperModel: @unchecked Sendable {
  let path: String
  /// Whether the model knows more languages than English.
  let isMultilingual: Bool
  private let context: OpaquePointer

  /// Loads the model at `path` after checking its header, so that a damaged file is an error, not a crash.
  init(path: String) throws(SpeechError) {
    try WhisperFileHeader.check(path: path)
    Self.silenceLogging
    var params = whisper_context_default_params()
    params.use_gpu = false
    guard let context = whisper_init_from_file_with_params(path, params) else {
      throw .modelLoadFailed(path: path)
    }
    self.path = path
    self.context = context
    self.isMultilingual = whisper_is_multilingual(context) != 0
  }

  deinit { whisper_free(context) }

  /// The model's file name.
  var name: String { URL(fileURLWithPath: path).lastPathComponent }

  /// Transcribes 16 kHz mono samples; `signal` is polled by whisper.cpp between its computations.
  func transcribe(
    _ samples: [Float], options: TranscriptionOptions, signal: AbortSignal
  ) throws(SpeechError) -> [Transcript.Segment] {
    let language = isMultilingual ? (options.language ?? "auto") : "en"
    var params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY)
    params.n_threads = Int32(options.threads ?? max(1, Processors.available))
    params.print_progress = false
    params.print_realtime = false
    params.print_timestamps = false
    params.print_special = false
    params.suppress_nst = true
    params.temperature = Float(options.temperature)
    params.abort_callback = { data in
      guard let data else { return false }
      return Unmanaged<AbortSignal>.fromOpaque(data).takeUnretainedValue().shouldStop
    }
    params.encoder_begin_callback = { _, _, data in
      guard let data else { return true }
      return !Unmanaged<AbortSignal>.fromOpaque(data).takeUnretainedValue().shouldStop
    }
    let signalPointer = Unmanaged.passUnretained(signal).toOpaque()
    params.abort_callback_user_data = signalPointer
    params.encoder_begin_callback_user_data = signalPointer
    let status = withExtendedLifetime(signal) {
      language.withCString { languageText in
        (options.prompt ?? "").withCString { promptText in
          params.language = languageText
          params.initial_prompt = options.prompt == nil ? nil : promptText
          return samples.withUnsafeBufferPointer { buffer in
            whisper_full(context, params, buffer.baseAddress, Int32(buffer.count))
          }
        }
      }
    }
    if signal.isCancelled { throw .cancelled }
    if signal.isPastDeadline { throw .timedOut(seconds: options.timeLimit) }
    guard status == 0 else { throw .recognitionFailed(code: status) }
    return (0..<whisper_full_n_segments(context)).compactMap { index in
      let text = String(cString: whisper_full_get_segment_text(context, index))
        .trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty, !Self.isNonSpeechMarker(text) else { return nil }
      // whisper.cpp counts time in hundredths of a second.
      return Transcript.Segment(
        start: Double(whisper_full_get_segment_t0(context, index)) / 100,
        end: Double(whisper_full_get_segment_t1(context, index)) / 100,
        text: text)
    }
  }

  /// The language whisper.cpp detected or was given for the last transcription.
  var lastLanguage: String {
    let id = whisper_full_lang_id(context)
    guard id >= 0, let code = whisper_lang_str(id) else { return "en" }
    return String(cString: code)
  }

  /// Whisper writes what it hears when there is no speech as a bracketed note: "[BLANK_AUDIO]", "(music)".
  static func isNonSpeechMarker(_ text: String) -> Bool {
    guard let first = text.first, let last = text.last else { return false }
    return (first == "[" && last == "]") || (first == "(" && last == ")")
  }

  /// whisper.cpp reports every load and state allocation on stderr; Hearth's own messages say what matters.
  static let silenceLogging: Void = {
    whisper_log_set({ _, _, _ in }, nil)
  }()
}

/// What whisper.cpp polls to stop early: cancellation, and a deadline that starts with the work itself (time
/// spent waiting in line behind other models' decodes does not count).
final class AbortSignal: Sendable {
  private let cancelled = Atomic<Bool>(false)
  private let limit: Duration
  private let deadline: Mutex<ContinuousClock.Instant?> = Mutex(nil)

  init(timeLimit: Double) {
    limit = .milliseconds(Int64(timeLimit * 1_000))
  }

  /// Starts the clock.
  func start() { deadline.withLock { $0 = .now + limit } }
  func cancel() { cancelled.store(true, ordering: .relaxed) }
  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
  var isPastDeadline: Bool { deadline.withLock { $0 }.map { ContinuousClock.now >= $0 } ?? false }
  var shouldStop: Bool { isCancelled || isPastDeadline }
}
