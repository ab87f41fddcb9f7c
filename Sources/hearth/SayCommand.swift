import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthSpeech

/// `hearth say TEXT`: text to speech on this machine, with the Piper voice (espeak-ng's when it is missing).
struct SayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "say",
    abstract: "Speak text aloud on this machine, or write it to a WAV file.",
    discussion: """
      Speaks with the installed Piper voice through sherpa-onnx (phonemes from espeak-ng), or with espeak-ng's
      own voice when the Piper voice is missing or --voice espeak asks for it. Markdown marks are not read out.
      Without -o, the speech plays through aplay or paplay sentence by sentence as it is made; when standard
      output is not a terminal, a WAV file is written to it instead. TEXT may be - for standard input (at most
      4096 characters). The timings go to standard error.
      """)

  @Argument(help: "The text to speak, or - for standard input.") var text: String
  @Option(name: [.short, .customLong("output")], help: "Write a WAV file here instead of playing it.")
  var output: String?
  @Option(name: .long, help: "The voice: the installed Piper voice (its name, e.g. joe) or espeak.")
  var voice: String?
  @Option(name: .long, help: "Pace, from 0.25 to 4 (default 1).") var speed: Double = 1
  @Option(name: .long, help: "Piper voice file (default: $HEARTH_VOICE_MODEL, else the installed one).")
  var model: String?

  func validate() throws {
    guard SynthesisOptions.speeds.contains(speed) else { throw ValidationError("--speed must be from 0.25 to 4") }
  }

  func run() async throws {
    try await reportingFailures {
      var configuration = EngineConfiguration()
      if let model { configuration.voiceModel = model }
      let synthesizer = SpeechSynthesizer(modelPath: configuration.voiceModelPath)
      let options = SynthesisOptions(speed: speed, voice: try chosenVoice(synthesizer))
      let words = try readText()
      let started = ContinuousClock.now
      if synthesizer.voice(for: options) == .piper { try await synthesizer.prepare() }
      let loaded = ContinuousClock.now
      let sink = try AudioSink(output: output)
      var firstAudio: Duration?
      var samples = 0
      var rate = 22_050
      do {
        for try await clip in try await synthesizer.sentences(of: words, options: options) {
          if firstAudio == nil { firstAudio = ContinuousClock.now - loaded }
          try sink.write(clip)
          samples += clip.samples.count
          rate = clip.sampleRate
        }
      } catch let error as ValidationError {
        // The player went away: what is being made now finishes before the process ends.
        await synthesizer.settle()
        throw error
      } catch {
        await synthesizer.settle()
        throw SpeechSynthesizer.voiceError(error)
      }
      let made = ContinuousClock.now - loaded
      try sink.finish()
      let seconds = Double(samples) / Double(rate)
      Terminal.writeError(
        Terminal.dim(
          String(
            format:
              "%.1f s of speech in %.2f s (real-time factor %.3f; first audio after %.2f s; voice %@ loaded in %.2f s)\n",
            seconds, made.seconds, seconds > 0 ? made.seconds / seconds : 0, (firstAudio ?? made).seconds,
            synthesizer.voice(for: options) == .piper ? synthesizer.voiceName : "espeak-ng",
            (loaded - started).seconds)))
    }
  }

  private func chosenVoice(_ synthesizer: SpeechSynthesizer) throws -> SpeechVoice? {
    guard let voice else { return nil }
    switch voice.lowercased() {
    case "espeak", "espeak-ng": return .espeak
    case synthesizer.voiceName.lowercased(), "piper": return .piper
    default:
      throw ValidationError("--voice \(voice) is not installed; the voices are \(synthesizer.voiceName) and espeak")
    }
  }

  private func readText() throws -> String {
    if text == "-" {
      return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
    return text
  }
}
