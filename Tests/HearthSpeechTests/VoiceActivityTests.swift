import Foundation
import HearthSpeech
import HearthTestSupport
import Testing

/// Silero VAD, converted by the set-up, run by the real whisper.cpp; and the recognizer cutting silence with it.
@Suite(.heavy) struct VoiceActivityTests {
  let detector = VoiceActivityDetector(path: TestModels.sileroVAD)

  /// jfk.wav with `seconds` of silence before it.
  func jfkAfterSilence(_ seconds: Double) throws -> AudioClip {
    let clip = try AudioLoader().load(path: TestModels.jfkWAV)
    return AudioClip(
      samples: [Float](repeating: 0, count: Int(seconds * Double(clip.sampleRate))) + clip.samples,
      sampleRate: clip.sampleRate)
  }

  @Test func findsTheSpeechAndNotTheSilence() async throws {
    let activity = try await detector.activity(in: try jfkAfterSilence(3))
    // One probability per 32 ms window: 14 s of audio.
    #expect(activity.probabilities.count == 438)
    #expect(activity.probabilities.prefix(80).allSatisfy { $0 < 0.1 }, "the first 2.5 s are silent")
    #expect(activity.probabilities.filter { $0 > 0.5 }.count > 150)
    let first = try #require(activity.speech.first)
    let last = try #require(activity.speech.last)
    #expect(abs(first.lowerBound - 3.3) < 0.2, "\(activity.speech)")
    #expect(last.upperBound > 13 && last.upperBound <= 14, "\(activity.speech)")

    let silence = try await detector.activity(
      in: AudioClip(samples: .init(repeating: 0, count: 48_000), sampleRate: 16_000))
    #expect(silence.speech.isEmpty)
    #expect(silence.probabilities.allSatisfy { $0 < 0.05 })
  }

  @Test func theRecognizerTranscribesOnlyTheSpeechWithItsOwnTimes() async throws {
    let recognizer = SpeechRecognizer(
      path: TestModels.whisperTinyEn, line: OwnThreadLine(), detectorPath: TestModels.sileroVAD)
    let transcript = try await recognizer.transcribe(try jfkAfterSilence(5))
    #expect(WordErrorRate.of(transcript.text, against: TestModels.jfkText) <= 0.1, "\(transcript.text)")
    #expect(transcript.duration == 16)
    // Times count from the clip's start, silence included.
    let first = try #require(transcript.segments.first)
    #expect(first.start >= 5 && first.start < 5.6, "\(transcript.segments)")
    // Noise alone is no speech: no words are made up for it.
    let noise = (0..<48_000).map { _ in Float.random(in: -0.01...0.01) }
    #expect(try await recognizer.transcribe(AudioClip(samples: noise, sampleRate: 16_000)).text.isEmpty)
  }

  /// The file with the first tensor's first dimension (3, the kernel) turned into 5.
  static func reshaped(_ data: Data) -> Data {
    var bytes = [UInt8](data)
    let name = Array("_model.encoder.0.reparam_conv.weight".utf8)
    guard let at = (0..<(bytes.count - name.count)).first(where: { Array(bytes[$0..<$0 + name.count]) == name }) else {
      return data
    }
    // Before the name: the three dimensions (innermost first), 4 bytes each.
    bytes[at - 12] = 5
    return Data(bytes)
  }

  @Test func aMissingOrDamagedModelIsAnErrorNotACrash() async throws {
    await #expect(throws: SpeechError.detectorMissing(path: "/nonexistent/vad.bin")) {
      try await VoiceActivityDetector(path: "/nonexistent/vad.bin").activity(in: try jfkAfterSilence(0))
    }
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = folder.appendingPathComponent("vad.bin")
    try Data("not a model at all".utf8).write(to: damaged)
    await #expect(throws: SpeechError.self) {
      try await VoiceActivityDetector(path: damaged.path).activity(in: try jfkAfterSilence(0))
    }
    // The real file cut short, and with a tensor's bytes changed into another shape: refused, never handed to
    // whisper.cpp (which would stop the process).
    let whole = try Data(contentsOf: URL(fileURLWithPath: TestModels.sileroVAD))
    for (name, bytes) in [("cut.bin", whole.prefix(whole.count - 100)), ("shape.bin", Self.reshaped(whole))] {
      let file = folder.appendingPathComponent(name)
      try bytes.write(to: file)
      await #expect(throws: SpeechError.self) {
        try await VoiceActivityDetector(path: file.path).activity(in: try jfkAfterSilence(0))
      }
    }
    // A recognizer whose detector cannot be used still transcribes, the whole clip.
    let recognizer = SpeechRecognizer(path: TestModels.whisperTinyEn, line: OwnThreadLine(), detectorPath: damaged.path)
    #expect(try await recognizer.transcribe(try jfkAfterSilence(0)).text.contains("country"))
  }
}
