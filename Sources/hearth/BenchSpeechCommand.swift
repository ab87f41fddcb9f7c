import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchSpeechCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "speech",
    abstract: "Speech: recognition against whisper.cpp's whisper-cli, and Hearth's voice (text to speech).",
    discussion: """
      Recognition: transcribes whisper.cpp's jfk.wav and a 60 s clip spoken by espeak-ng, alternating `hearth \
      transcribe` and `whisper-cli` (greedy, non-speech tokens suppressed, English), each as a fresh process; \
      prints medians of recognition time, real-time factors, wall times and word error rates. Voice: the time \
      to first audio of a 20-word answer and the real-time factors of it and of a minute-long passage (the voice \
      loaded, as a server keeps it), then 20 fixed sentences spoken by the voice and transcribed by the \
      recognizer (word error rate over all their words).
      """)

  enum Part: String, ExpressibleByArgument, CaseIterable {
    case recognition, voice
  }

  @Option(name: .long, help: "whisper.cpp model file (default: the installed tiny.en).") var model: String?
  @Option(name: .long, help: "Piper voice file (default: $HEARTH_VOICE_MODEL, else the installed one).")
  var voiceModel: String?
  @Option(name: .long, help: "Measure only this part: recognition or voice.") var only: Part?
  @Option(name: .long, help: "CPU threads for both (default: one per core).") var threads: Int?
  @Option(name: .long, help: "Measured runs per clip and program.") var runs = 3
  @Flag(name: .long, help: "Print JSON.") var json = false

  func validate() throws {
    guard (1...50).contains(runs) else { throw ValidationError("--runs must be between 1 and 50") }
    if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be between 1 and 256") }
  }

  func run() async throws {
    try await reportingFailures {
      let model = model ?? EngineConfiguration().speechModelPath
      guard FileManager.default.fileExists(atPath: model) else {
        throw ValidationError("the speech model \(model) is not installed; pass --model FILE")
      }
      let threads = threads ?? Processors.available
      var output = Output()
      if only != .voice {
        output.recognition = try await recognition(model: model, threads: threads)
        if !json, let rows = output.recognition { Terminal.write(SpeechBenchmark.table(rows, threads: threads)) }
      }
      if only != .recognition {
        let benchmark = VoiceBenchmark(
          voiceModel: voiceModel ?? EngineConfiguration().voiceModelPath, speechModel: model, runs: runs)
        let report = try await benchmark.run { line in Terminal.writeError(Terminal.dim("· \(line)") + "\n") }
        output.voice = report
        if !json { Terminal.write((only == .voice ? "" : "\n") + VoiceBenchmark.table(report)) }
      }
      if json { Terminal.write(try JSONOutput.encode(output) + "\n") }
    }
  }

  /// What `--json` prints: each part measured.
  struct Output: Encodable {
    var recognition: [SpeechBenchmark.Row]?
    var voice: VoiceBenchmark.Report?
  }

  private func recognition(model: String, threads: Int) async throws -> [SpeechBenchmark.Row] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-speech-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clips = try await SpeechClips.make(in: folder)
    let benchmark = SpeechBenchmark(
      hearth: BenchLlamaCommand.ownExecutable(), whisperCLI: "\(SpeechClips.whisperPrefix())/bin/whisper-cli",
      model: model, threads: threads, runs: runs)
    return try await benchmark.run(clips) { line in Terminal.writeError(Terminal.dim("· \(line)") + "\n") }
  }
}
