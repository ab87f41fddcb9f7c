import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthSpeech

/// `hearth transcribe FILE`: speech to text on this machine with a whisper.cpp model.
struct TranscribeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transcribe",
    abstract: "Transcribe an audio file (WAV; other formats through ffmpeg) on this machine.",
    discussion: """
      Prints the text, or with --json one object: text, segments (start and end in seconds), language,
      duration, timings and the real-time factor (processing time over audio length). FILE may be - for
      standard input. Audio longer than an hour is refused. With the voice-activity model installed (or
      $HEARTH_VAD_MODEL), the silence before the first speech and after the last is cut first.
      """)

  @Argument(help: "The audio file, or - for standard input.") var file: String
  @Flag(name: .long, help: "Print one JSON object.") var json = false
  @Flag(name: .long, help: "Print each segment with its start and end time.") var timestamps = false
  @Option(name: .long, help: "whisper.cpp model file (default: $HEARTH_SPEECH_MODEL, else the installed tiny.en).")
  var model: String?
  @Option(name: .long, help: "Spoken language, an ISO 639-1 code (English-only models accept only en).")
  var language: String?
  @Option(name: .long, help: "Text that sets the spelling and style to follow (names, terms).") var prompt: String?
  @Option(name: .long, help: "CPU threads (default: one per core).") var threads: Int?
  @Option(name: .long, help: "Give up after this many seconds (default 300).") var timeLimit: Double = 300
  @Flag(name: .long, help: "Hear the whole clip: do not cut the silence around the speech (Silero VAD).")
  var keepSilence = false

  func validate() throws {
    if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be between 1 and 256") }
    guard timeLimit > 0 else { throw ValidationError("--time-limit must be positive") }
    if let language, language.isEmpty || language.count > 8 {
      throw ValidationError("--language must be a language code such as en")
    }
  }

  func run() async throws {
    try await reportingFailures {
      var configuration = EngineConfiguration()
      if let model { configuration.speechModel = model }
      let speech = try await Engine.open(configuration).speech
      let data = try readInput()
      let started = ContinuousClock.now
      try await speech.prepare()
      let loaded = ContinuousClock.now
      let clip = try AudioLoader().load(data)
      let decoded = ContinuousClock.now
      let options = TranscriptionOptions(
        language: language, prompt: prompt, timeLimit: timeLimit, threads: threads, cutsSilence: !keepSilence)
      let transcript = try await speech.transcribe(clip, options: options)
      let timings = Timings(
        loadSeconds: (loaded - started).seconds, decodeSeconds: (decoded - loaded).seconds,
        recognitionSeconds: transcript.processingSeconds, totalSeconds: (ContinuousClock.now - started).seconds)
      if json {
        let output = Output(transcript: transcript, model: speech.name, timings: timings)
        return Terminal.write(try JSONOutput.encode(output) + "\n")
      }
      if timestamps {
        for segment in transcript.segments {
          Terminal.write(
            "[\(Transcript.clock(segment.start)) → \(Transcript.clock(segment.end))] \(segment.text)\n")
        }
      } else if !transcript.text.isEmpty {
        Terminal.write(transcript.text + "\n")
      }
      Terminal.writeError(
        Terminal.dim(
          String(
            format: "%.1f s of audio in %.2f s (real-time factor %.3f; model loaded in %.2f s)\n",
            transcript.duration, transcript.processingSeconds, transcript.realTimeFactor, timings.loadSeconds)))
    }
  }

  private func readInput() throws -> Data {
    if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    guard FileManager.default.fileExists(atPath: file) else {
      throw ValidationError("\(file): no such file")
    }
    return try Data(contentsOf: URL(fileURLWithPath: file), options: .mappedIfSafe)
  }

  struct Timings: Encodable {
    var loadSeconds: Double
    var decodeSeconds: Double
    var recognitionSeconds: Double
    var totalSeconds: Double
  }

  /// What `--json` prints.
  struct Output: Encodable {
    var text: String
    var segments: [Transcript.Segment]
    var language: String
    var duration: Double
    var realTimeFactor: Double
    var model: String
    var timings: Timings

    init(transcript: Transcript, model: String, timings: Timings) {
      text = transcript.text
      segments = transcript.segments
      language = transcript.language
      duration = transcript.duration
      realTimeFactor = transcript.realTimeFactor
      self.model = model
      self.timings = timings
    }
  }
}
