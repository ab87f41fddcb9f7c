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

  @Test(
    "on a terminal the speech goes to the player sentence by sentence; a player that quits is an error, not a crash")
  func playsThroughAPlayer() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Stand-ins for aplay, found first on PATH: one keeps what it is sent, one quits at once.
    let keeping = folder.appendingPathComponent("keeping")
    let quitting = folder.appendingPathComponent("quitting")
    let played = folder.appendingPathComponent("played.raw")
    for (bin, body) in [(keeping, "cat > '\(played.path)'"), (quitting, "exit 0")] {
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      let player = bin.appendingPathComponent("aplay")
      try "#!/bin/sh\n\(body)\n".write(to: player, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: player.path)
    }
    let hearth = CommandRunner().executable.path
    // `script` gives hearth a terminal for its standard output, as a person running it has.
    func onTerminal(_ bin: URL) async throws -> CommandRunner.Result {
      var runner = try runner()
      runner.executable = URL(fileURLWithPath: "/usr/bin/script")
      runner.environment["PATH"] = "\(bin.path):/usr/bin:/bin"
      return try await runner.run(["-qec", "'\(hearth)' say 'One. Two. Three.'", "/dev/null"])
    }
    let kept = try await onTerminal(keeping)
    #expect(kept.status == 0, "\(kept)")
    // 16-bit samples at 22,050 Hz, for about a second and a half of speech.
    let bytes = try Data(contentsOf: played).count
    #expect(bytes.isMultiple(of: 2) && bytes > 22_050, "\(bytes) bytes")
    let quit = try await onTerminal(quitting)
    #expect(quit.status != 0)
    #expect(quit.standardOutput.contains("the audio player stopped"), "\(quit)")
  }
}
