import Foundation
import HearthCore
public import HearthSpeech

/// Text to speech measured in this process: how soon a twenty-word answer starts to sound, how fast speech is
/// made against its length, and whether it is understood — twenty fixed sentences spoken by Hearth's voice and
/// transcribed by Hearth's recognizer.
public struct VoiceBenchmark: Sendable {
  /// What one run of the benchmark found.
  public struct Report: Sendable, Encodable {
    /// The voice measured (its speaker's name, or espeak-ng).
    public var voice: String
    /// Loading the voice, once, before anything is timed.
    public var loadSeconds: Double
    /// From the answer's text to its first sentence's audio, the voice loaded (seconds).
    public var firstAudio: Samples
    /// The whole answer's making time over its length.
    public var answerRealTimeFactor: Samples
    /// The same for a passage of about a minute.
    public var passageRealTimeFactor: Samples
    /// Word errors over all twenty sentences' words, spoken and heard back.
    public var roundTripWordErrorRate: Double
    /// The sentences heard worst: what was said, what was heard.
    public var worst: [Miss]
  }

  /// A sentence heard back with errors.
  public struct Miss: Sendable, Encodable {
    public var said: String
    public var heard: String
    public var wordErrorRate: Double
  }

  public var voiceModel: String
  public var speechModel: String
  public var runs: Int
  public var voice: SpeechVoice?

  /// A benchmark of the Piper voice at `voiceModel` (or `voice`), heard by the Whisper model at `speechModel`.
  public init(voiceModel: String, speechModel: String, runs: Int, voice: SpeechVoice? = nil) {
    self.voiceModel = voiceModel
    self.speechModel = speechModel
    self.runs = runs
    self.voice = voice
  }

  /// Measures; `progress` hears a line per step.
  public func run(progress: @Sendable (String) -> Void) async throws(BenchmarkError) -> Report {
    let synthesizer = SpeechSynthesizer(modelPath: voiceModel)
    let options = SynthesisOptions(voice: voice)
    let chosen = synthesizer.voice(for: options)
    do {
      let started = ContinuousClock.now
      if chosen == .piper { try await synthesizer.prepare() }
      let loadSeconds = (ContinuousClock.now - started).seconds
      var firstAudio: [Double] = []
      var answerFactors: [Double] = []
      var passageFactors: [Double] = []
      // A first, unmeasured run warms ONNX Runtime's kernels and espeak-ng's dictionaries.
      for run in 0...runs {
        let answer = try await timed(VoiceSentences.answer, synthesizer, options)
        let passage = try await timed(SpeechClips.passage, synthesizer, options)
        guard run > 0 else { continue }
        firstAudio.append(answer.first)
        answerFactors.append(answer.total / answer.audio)
        passageFactors.append(passage.total / passage.audio)
        progress(
          String(
            format: "run %d: first audio %.3f s, answer RTF %.3f, passage RTF %.3f (%.1f s of speech)", run,
            answer.first, answer.total / answer.audio, passage.total / passage.audio, passage.audio))
      }
      let recognizer = SpeechRecognizer(path: speechModel, line: OwnThreadLine())
      var errors = 0.0
      var words = 0
      var misses: [Miss] = []
      for sentence in VoiceSentences.roundTrip {
        let clip = try await synthesizer.speak(sentence, options: options)
        let heard = try await recognizer.transcribe(clip).text
        let rate = WordErrorRate.of(heard, against: sentence)
        let count = WordErrorRate.words(sentence).count
        errors += rate * Double(count)
        words += count
        if rate > 0 { misses.append(Miss(said: sentence, heard: heard, wordErrorRate: rate)) }
      }
      progress(String(format: "round trip: %.1f %% word errors over %d words", 100 * errors / Double(words), words))
      return Report(
        voice: chosen == .piper ? synthesizer.voiceName : "espeak-ng", loadSeconds: loadSeconds,
        firstAudio: Samples(samples: firstAudio), answerRealTimeFactor: Samples(samples: answerFactors),
        passageRealTimeFactor: Samples(samples: passageFactors), roundTripWordErrorRate: errors / Double(words),
        worst: Array(misses.sorted { $0.wordErrorRate > $1.wordErrorRate }.prefix(3)))
    } catch let error as VoiceError {
      throw .measurementFailed("the voice: \(error)")
    } catch let error as SpeechError {
      throw .measurementFailed("the recognizer: \(error)")
    } catch {
      throw .measurementFailed("\(error)")
    }
  }

  private struct Timing {
    var first: Double
    var total: Double
    var audio: Double
  }

  private func timed(
    _ text: String, _ synthesizer: SpeechSynthesizer, _ options: SynthesisOptions
  ) async throws -> Timing {
    let started = ContinuousClock.now
    var first: Double?
    var audio = 0.0
    for try await clip in try await synthesizer.sentences(of: text, options: options) {
      if first == nil { first = (ContinuousClock.now - started).seconds }
      audio += clip.duration
    }
    let total = (ContinuousClock.now - started).seconds
    return Timing(first: first ?? total, total: total, audio: max(audio, 0.001))
  }

  /// The report as a table, with the goals beside the figures.
  public static func table(_ report: Report) -> String {
    var text = "text to speech (voice \(report.voice), loaded in \(String(format: "%.2f", report.loadSeconds)) s)\n"
    text += String(
      format: "  time to first audio, 20-word answer   %6.0f ms median (min %.0f, max %.0f)   goal ≤ 500 ms\n",
      report.firstAudio.median * 1000, (report.firstAudio.samples.min() ?? 0) * 1000,
      (report.firstAudio.samples.max() ?? 0) * 1000)
    text += String(
      format: "  real-time factor, answer / passage     %.3f / %.3f (making time ÷ speech length)\n",
      report.answerRealTimeFactor.median, report.passageRealTimeFactor.median)
    text += String(
      format: "  round trip, 20 sentences               %.1f %% word errors   goal ≤ 10 %%\n",
      100 * report.roundTripWordErrorRate)
    for miss in report.worst {
      text += "    said \"\(miss.said)\"\n    heard \"\(miss.heard)\"\n"
    }
    return text
  }
}
