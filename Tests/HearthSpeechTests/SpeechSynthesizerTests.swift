import Foundation
import HearthSpeech
import HearthTestSupport
import Testing

/// The real voice (Piper's joe through sherpa-onnx, phonemes from espeak-ng) heard by the real recognizer.
@Suite(.heavy, .serialized) struct SpeechSynthesizerTests {
  static let voice = SpeechSynthesizer(modelPath: TestModels.piperVoice)
  let recognizer = SpeechRecognizer(path: TestModels.whisperTinyEn, line: OwnThreadLine())

  /// Ten of the benchmark's kind of sentence, different from the benchmark's own twenty.
  static let sentences = [
    "Your flight to Lisbon leaves on Monday morning.",
    "I moved the team review to the afternoon.",
    "The library closes early on Sundays.",
    "You have a call with Maria after lunch.",
    "Please remember to bring the signed forms.",
    "The weather will be windy and cold tonight.",
    "I could not find any notes about the kitchen.",
    "Your habit streak is still going strong.",
    "Would you like me to add that to your list?",
    "The package should arrive before the weekend.",
  ]

  @Test func spokenSentencesAreHeardBack() async throws {
    var errors = 0.0
    var words = 0
    for sentence in Self.sentences {
      let clip = try await Self.voice.speak(sentence)
      #expect(clip.sampleRate == 22_050)
      #expect(clip.duration > 1 && clip.duration < 6, "\(sentence): \(clip.duration) s")
      let heard = try await recognizer.transcribe(clip).text
      let count = WordErrorRate.words(sentence).count
      errors += WordErrorRate.of(heard, against: sentence) * Double(count)
      words += count
      print("voice: \"\(sentence)\" → \"\(heard)\"")
    }
    #expect(errors / Double(words) <= 0.10, "word error rate \(errors / Double(words))")
  }

  @Test func speechComesSentenceBySentence() async throws {
    var clips: [AudioClip] = []
    for try await clip in try await Self.voice.sentences(of: "Good morning. **Two** meetings today!\n- Lunch") {
      clips.append(clip)
    }
    #expect(clips.count == 3)
    #expect(clips.allSatisfy { $0.duration > 0.3 })
    // Leaving the stream after the first sentence stops the rest without an error.
    var heard = 0
    for try await _ in try await Self.voice.sentences(of: "One. Two. Three. Four. Five.") {
      heard += 1
      break
    }
    #expect(heard == 1)
  }

  @Test func speedChangesThePace() async throws {
    let text = "The package should arrive before the weekend."
    // The voice draws each sound's length with some noise (0.72 of the normal length at speed 2 was seen once),
    // so the pace is judged between far-apart speeds: a quarter of the length, give or take that noise.
    let normal = try await Self.voice.speak(text)
    let slow = try await Self.voice.speak(text, options: SynthesisOptions(speed: 0.5))
    let fast = try await Self.voice.speak(text, options: SynthesisOptions(speed: 2))
    #expect(fast.duration < normal.duration && normal.duration < slow.duration)
    #expect(fast.duration < slow.duration * 0.5, "\(fast.duration) vs \(slow.duration)")
  }

  @Test func withoutThePiperVoiceEspeakSpeaks() async throws {
    let missing = SpeechSynthesizer(modelPath: "/nonexistent/en_US-joe-medium.onnx")
    #expect(missing.voice(for: SynthesisOptions()) == .espeak)
    let clip = try await missing.speak("Please remember to bring the signed forms.")
    #expect(clip.duration > 1)
    let heard = try await recognizer.transcribe(clip).text
    #expect(WordErrorRate.of(heard, against: "Please remember to bring the signed forms.") <= 0.5, "\(heard)")
    await #expect(throws: VoiceError.voiceMissing(path: "/nonexistent/en_US-joe-medium.onnx")) {
      try await missing.speak("Hello.", options: SynthesisOptions(voice: .piper))
    }
  }

  @Test func aDamagedVoiceIsAnErrorNotACrash() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = folder.appendingPathComponent("en_US-broken-medium.onnx")
    try Data(repeating: 0x5A, count: 4096).write(to: model)
    try Data(contentsOf: URL(fileURLWithPath: TestModels.piperTokens)).write(
      to: folder.appendingPathComponent("en_US-broken-medium.tokens.txt"))
    let broken = SpeechSynthesizer(modelPath: model.path)
    await #expect(throws: VoiceError.voiceLoadFailed(path: model.path)) { try await broken.prepare() }
  }

  @Test func badTextIsRefusedBeforeAnythingIsSpoken() async throws {
    await #expect(throws: VoiceError.nothingToSay) { try await Self.voice.speak(" ... ") }
    await #expect(throws: VoiceError.tooLong(characters: 5000, limit: 4096)) {
      try await Self.voice.speak(String(repeating: "a", count: 5000))
    }
    await #expect(throws: VoiceError.speedOutOfRange(5)) {
      try await Self.voice.speak("Hello.", options: SynthesisOptions(speed: 5))
    }
  }
}
