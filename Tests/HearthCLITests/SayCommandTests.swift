import Foundation
import HearthSpeech
import HearthTestSupport
import Testing

@Suite("hearth say, run as a user would", .heavy)
struct SayCommandTests {
  private func runner(voice: String = TestModels.piperVoice) throws -> CommandRunner {
    CommandRunner(environment: [
      "HEARTH_HOME": try TestModels.temporaryDirectory().path, "HEARTH_VOICE_MODEL": voice,
    ])
  }

  @Test("a sentence written to a WAV file is heard back as itself, and the timings are told")
  func writesAWAVFile() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("said.wav").path
    let sentence = "Remember to water the plants in the kitchen."
    let result = try await runner().run(["say", "**\(sentence)**", "-o", file])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("first audio after"))
    #expect(result.standardError.contains("voice joe"))
    let recognizer = SpeechRecognizer(path: TestModels.whisperTinyEn, line: OwnThreadLine())
    let heard = try await recognizer.transcribe(try AudioLoader().load(path: file)).text
    #expect(WordErrorRate.of(heard, against: sentence) <= 0.15, "\(heard)")
  }

  @Test("without a file or a terminal, the WAV goes to standard output; espeak-ng speaks when the voice is missing")
  func writesToStandardOutputAndFallsBack() async throws {
    let missing = try runner(voice: "/nonexistent/en_US-joe-medium.onnx")
    let piped = try await missing.run(["say", "Hello there."])
    #expect(piped.status == 0, "\(piped.standardError)")
    #expect(piped.standardOutput.hasPrefix("RIFF"))
    #expect(piped.standardError.contains("voice espeak-ng"))
    let asked = try await missing.run(["say", "--voice", "joe", "Hello there."])
    #expect(asked.status != 0)
    #expect(asked.standardError.contains("is not installed"), "\(asked.standardError)")
  }

  @Test("bad arguments are refused by name")
  func refusesBadArguments() async throws {
    let hearth = try runner()
    let voice = try await hearth.run(["say", "--voice", "alloy", "Hi."])
    #expect(voice.status != 0)
    #expect(voice.standardError.contains("--voice alloy"), "\(voice.standardError)")
    let speed = try await hearth.run(["say", "--speed", "9", "Hi."])
    #expect(speed.status != 0)
    #expect(speed.standardError.contains("--speed"), "\(speed.standardError)")
    let empty = try await hearth.run(["say", "..."])
    #expect(empty.status != 0)
    #expect(empty.standardError.contains("nothing to say"), "\(empty.standardError)")
  }
}
