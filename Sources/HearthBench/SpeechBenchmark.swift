import Foundation
import HearthCore
import HearthSpeech

/// Speech recognition, Hearth against whisper.cpp's own `whisper-cli`: the same model, threads, greedy
/// decoding and WAV file, each run as a fresh process, alternating (who goes first flips every run). Hearth runs `hearth transcribe --json`;
/// whisper-cli's figures come from its own timing report. "Recognition" is the time from audio in memory to
/// text (whisper-cli's total minus its load); "wall" is the whole command, start-up and model load included.
public struct SpeechBenchmark: Sendable {
  /// One clip's figures.
  public struct Row: Sendable, Encodable {
    public var clip: String
    public var audioSeconds: Double
    public var hearthRecognition: Samples
    public var cliRecognition: Samples
    public var hearthWall: Samples
    public var cliWall: Samples
    public var hearthWordErrorRate: Double
    public var cliWordErrorRate: Double

    enum CodingKeys: String, CodingKey {
      case clip, audioSeconds, hearthRecognition, cliRecognition, hearthWall, cliWall, hearthWordErrorRate
      case cliWordErrorRate, speedRatio
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(clip, forKey: .clip)
      try container.encode(audioSeconds, forKey: .audioSeconds)
      try container.encode(hearthRecognition, forKey: .hearthRecognition)
      try container.encode(cliRecognition, forKey: .cliRecognition)
      try container.encode(hearthWall, forKey: .hearthWall)
      try container.encode(cliWall, forKey: .cliWall)
      try container.encode(hearthWordErrorRate, forKey: .hearthWordErrorRate)
      try container.encode(cliWordErrorRate, forKey: .cliWordErrorRate)
      try container.encode(speedRatio, forKey: .speedRatio)
    }

    /// whisper-cli's recognition time over Hearth's, the median of the runs' own ratios (each run pairs the
    /// two back to back, so the machine's drift hits both alike): above 1, Hearth is faster.
    public var speedRatio: Double {
      Samples(
        samples: zip(cliRecognition.samples, hearthRecognition.samples).map { $0 / max($1, 1e-9) }
      ).median
    }
    /// Hearth's real-time factor (recognition over audio length).
    public var hearthRealTimeFactor: Double { hearthRecognition.median / audioSeconds }
    /// whisper-cli's real-time factor.
    public var cliRealTimeFactor: Double { cliRecognition.median / audioSeconds }
  }

  /// A clip to transcribe and what it says.
  public struct Clip: Sendable {
    public var name: String
    public var path: String
    public var reference: String
  }

  public var hearth: String
  public var whisperCLI: String
  public var model: String
  public var threads: Int
  public var runs: Int

  public init(hearth: String, whisperCLI: String, model: String, threads: Int, runs: Int) {
    self.hearth = hearth
    self.whisperCLI = whisperCLI
    self.model = model
    self.threads = threads
    self.runs = runs
  }

  /// Measures each clip; `progress` hears a line per run.
  public func run(_ clips: [Clip], progress: @Sendable (String) -> Void) async throws(BenchmarkError) -> [Row] {
    var rows: [Row] = []
    for clip in clips {
      let audio: AudioClip
      do {
        audio = try AudioLoader().load(path: clip.path)
      } catch {
        throw .measurementFailed("\(clip.path): \(error)")
      }
      var hearthTimes: [Double] = []
      var cliTimes: [Double] = []
      var hearthWalls: [Double] = []
      var cliWalls: [Double] = []
      var hearthText = ""
      var cliText = ""
      // A first, unmeasured run of each warms the file cache.
      for run in 0...runs {
        // Who goes first flips every run, so that neither always meets the other's leftovers.
        let ours: Measured
        let theirs: Measured
        if run.isMultiple(of: 2) {
          ours = try await runHearth(clip.path)
          theirs = try await runCLI(clip.path)
        } else {
          theirs = try await runCLI(clip.path)
          ours = try await runHearth(clip.path)
        }
        if run == 0 { continue }
        hearthTimes.append(ours.recognition)
        hearthWalls.append(ours.wall)
        cliTimes.append(theirs.recognition)
        cliWalls.append(theirs.wall)
        hearthText = ours.text
        cliText = theirs.text
        progress(
          "\(clip.name) run \(run): "
            + String(format: "hearth %.3f s, whisper-cli %.3f s", ours.recognition, theirs.recognition))
      }
      rows.append(
        Row(
          clip: clip.name, audioSeconds: audio.duration, hearthRecognition: Samples(samples: hearthTimes),
          cliRecognition: Samples(samples: cliTimes), hearthWall: Samples(samples: hearthWalls),
          cliWall: Samples(samples: cliWalls),
          hearthWordErrorRate: WordErrorRate.of(hearthText, against: clip.reference),
          cliWordErrorRate: WordErrorRate.of(cliText, against: clip.reference)))
    }
    return rows
  }

  private struct Measured {
    var recognition: Double
    var wall: Double
    var text: String
  }

  private func runHearth(_ path: String) async throws(BenchmarkError) -> Measured {
    let started = ContinuousClock.now
    let output = try await ChildProcess(
      executable: hearth,
      // The whole clip, as whisper-cli hears it: the same work on both sides.
      arguments: ["transcribe", path, "--json", "--keep-silence", "--threads", String(threads), "--model", model]
    ).run()
    let wall = (ContinuousClock.now - started).seconds
    guard output.status == 0 else { throw .toolFailed(tool: "hearth transcribe", reason: output.standardError) }
    struct Reply: Decodable {
      struct Timings: Decodable { var recognitionSeconds: Double }
      var text: String
      var timings: Timings
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    guard let reply = try? decoder.decode(Reply.self, from: Data(output.standardOutput.utf8)) else {
      throw .unreadableOutput(tool: "hearth transcribe", detail: String(output.standardOutput.prefix(200)))
    }
    return Measured(recognition: reply.timings.recognitionSeconds, wall: wall, text: reply.text)
  }

  private func runCLI(_ path: String) async throws(BenchmarkError) -> Measured {
    let started = ContinuousClock.now
    let output = try await ChildProcess(
      executable: whisperCLI,
      arguments: ["-m", model, "-f", path, "-t", String(threads), "-bs", "1", "-sns", "-l", "en"]
    ).run()
    let wall = (ContinuousClock.now - started).seconds
    guard output.status == 0 else { throw .toolFailed(tool: "whisper-cli", reason: output.standardError) }
    guard let total = Self.timing("total time", in: output.standardError),
      let load = Self.timing("load time", in: output.standardError)
    else {
      throw .unreadableOutput(tool: "whisper-cli", detail: "no timing report on standard error")
    }
    // Lines of `[00:00:00.000 --> 00:00:08.000]   text`: timestamps are decoded by both, as Hearth keeps them.
    let text = output.standardOutput.split(separator: "\n").map { line in
      let words = line.firstIndex(of: "]").map { line[line.index(after: $0)...] } ?? line[...]
      return words.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }.joined(separator: " ")
    return Measured(recognition: (total - load) / 1_000, wall: wall, text: text)
  }

  /// A figure in milliseconds from whisper.cpp's `whisper_print_timings:     load time =   104.23 ms`.
  static func timing(_ name: String, in report: String) -> Double? {
    for line in report.split(separator: "\n") where line.contains("whisper_print_timings") && line.contains(name) {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let number = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        .split(separator: " ").first
      return number.flatMap { Double($0) }
    }
    return nil
  }

  /// The results as a table.
  public static func table(_ rows: [Row], threads: Int) -> String {
    var text = "Speech recognition, Whisper tiny.en, \(threads) threads, greedy; medians\n"
    text +=
      "clip          audio   hearth   whisper-cli  speed ratio  RTF hearth  RTF cli  wall hearth  wall cli  WER hearth  WER cli\n"
    for row in rows {
      let name = row.clip.padding(toLength: 12, withPad: " ", startingAt: 0)
      text +=
        name
        + String(
          format: " %5.1f s %7.3f s %9.3f s %10.3f× %11.3f %8.3f %10.2f s %8.2f s %10.1f%% %7.1f%%\n",
          row.audioSeconds, row.hearthRecognition.median, row.cliRecognition.median,
          row.speedRatio, row.hearthRealTimeFactor, row.cliRealTimeFactor, row.hearthWall.median, row.cliWall.median,
          row.hearthWordErrorRate * 100, row.cliWordErrorRate * 100)
    }
    text += "speed ratio = whisper-cli's recognition time ÷ Hearth's, median of the runs' ratios (≥ 1: Hearth as "
    text += "fast or faster); RTF = "
    text += "recognition ÷ audio length; wall = the whole command, model load included.\n"
    return text
  }
}
