import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine

struct BenchSpeechCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "speech",
    abstract: "Speech recognition: Hearth against whisper.cpp's whisper-cli on the same model, threads and files.",
    discussion: """
      Transcribes whisper.cpp's jfk.wav and a 60 s clip spoken by espeak-ng, alternating `hearth transcribe` \
      and `whisper-cli` (greedy, non-speech tokens suppressed, English), each as a fresh process; prints \
      medians of recognition time, real-time factors, wall times and word error rates.
      """)

  @Option(name: .long, help: "whisper.cpp model file (default: the installed tiny.en).") var model: String?
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
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-speech-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let clips = try await SpeechClips.make(in: folder)
      let benchmark = SpeechBenchmark(
        hearth: BenchLlamaCommand.ownExecutable(), whisperCLI: "\(SpeechClips.whisperPrefix())/bin/whisper-cli",
        model: model, threads: threads, runs: runs)
      let rows = try await benchmark.run(clips) { line in Terminal.writeError(Terminal.dim("· \(line)") + "\n") }
      Terminal.write(json ? try JSONOutput.encode(rows) + "\n" : SpeechBenchmark.table(rows, threads: threads))
    }
  }
}
