import Foundation
import HearthSpeech
import HearthTestSupport
import Testing

/// The real model (Whisper tiny.en converted by the set-up) through the real whisper.cpp.
@Suite(.heavy) struct SpeechRecognizerTests {
  let recognizer = SpeechRecognizer(path: TestModels.whisperTinyEn, line: OwnThreadLine())

  @Test func transcribesJFKsSentence() async throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: TestModels.jfkWAV))
    let transcript = try await recognizer.transcribe(data: data)
    let rate = WordErrorRate.of(transcript.text, against: TestModels.jfkText)
    #expect(rate <= 0.10, "\(transcript.text)")
    #expect(transcript.language == "en")
    #expect(abs(transcript.duration - 11) < 0.01)
    #expect(transcript.processingSeconds > 0)
    let segments = try #require(transcript.segments.first)
    #expect(segments.start >= 0 && segments.end > segments.start && segments.end <= 11.01)
  }

  @Test func transcribesSentencesSpokenBySpeechSynthesis() async throws {
    // espeak-ng writes 22,050 Hz: every clip goes through the resampler too.
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var rates: [Double] = []
    for (index, sentence) in SpokenSentences.sentences.enumerated() {
      let path = folder.appendingPathComponent("\(index).wav").path
      try await SpokenSentences.speak(sentence, to: path)
      let transcript = try await recognizer.transcribe(data: try Data(contentsOf: URL(fileURLWithPath: path)))
      let rate = WordErrorRate.of(transcript.text, against: sentence)
      rates.append(rate)
      print("speech: WER \(String(format: "%.2f", rate)) \"\(sentence)\" → \"\(transcript.text)\"")
    }
    let mean = rates.reduce(0, +) / Double(rates.count)
    print("speech: mean WER \(String(format: "%.3f", mean)) over \(rates.count) espeak-ng sentences")
    // Synthetic voices are harder for Whisper than people; the bar is set where tiny.en clearly works.
    #expect(mean <= 0.25)
  }

  @Test func silenceIsAnEmptyTranscript() async throws {
    let transcript = try await recognizer.transcribe(
      AudioClip(samples: .init(repeating: 0, count: 48_000), sampleRate: 16_000))
    #expect(transcript.segments.isEmpty)
    #expect(transcript.text.isEmpty)
    let noise = (0..<32_000).map { _ in Float.random(in: -0.0005...0.0005) }
    #expect(try await recognizer.transcribe(AudioClip(samples: noise, sampleRate: 16_000)).text.isEmpty)
    #expect(try await recognizer.transcribe(AudioClip(samples: [], sampleRate: 16_000)).text.isEmpty)
  }

  @Test func anEnglishModelRefusesAnotherLanguage() async throws {
    let clip = try AudioLoader().load(path: TestModels.jfkWAV)
    await #expect(throws: SpeechError.unsupportedLanguage("fr", model: "ggml-tiny.en.bin")) {
      try await recognizer.transcribe(clip, options: .init(language: "fr"))
    }
    #expect(try await recognizer.transcribe(clip, options: .init(language: "EN")).text.contains("country"))
  }

  @Test func stopsAtItsTimeLimitAndWhenCancelled() async throws {
    let clip = try AudioLoader().load(path: TestModels.jfkWAV)
    try await recognizer.prepare()
    await #expect(throws: SpeechError.timedOut(seconds: 0.05)) {
      try await recognizer.transcribe(clip, options: .init(timeLimit: 0.05))
    }
    let started = ContinuousClock.now
    let task = Task { try await recognizer.transcribe(clip) }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    await #expect(throws: SpeechError.cancelled) { try await task.value }
    #expect(ContinuousClock.now - started < .seconds(5))
    // The recognizer is still good for the next clip.
    #expect(try await recognizer.transcribe(clip).text.contains("country"))
  }

  @Test func concurrentTranscriptionsEachGetTheirOwnText() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let sentences = Array(SpokenSentences.sentences.prefix(3))
    var clips: [AudioClip] = []
    for (index, sentence) in sentences.enumerated() {
      let path = folder.appendingPathComponent("\(index).wav").path
      try await SpokenSentences.speak(sentence, to: path)
      clips.append(try AudioLoader().load(path: path))
    }
    let recognizer = recognizer
    let texts = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for (index, clip) in clips.enumerated() {
        group.addTask { (index, try await recognizer.transcribe(clip).text) }
      }
      return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
    }
    for (index, sentence) in sentences.enumerated() {
      #expect(WordErrorRate.of(texts[index] ?? "", against: sentence) <= 0.34, "\(texts[index] ?? "")")
    }
  }

  @Test func aMissingOrDamagedModelIsAClearError() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("none.bin").path
    await #expect(throws: SpeechError.modelMissing(path: missing)) {
      try await SpeechRecognizer(path: missing, line: OwnThreadLine()).prepare()
    }
    let gguf = folder.appendingPathComponent("model.gguf").path
    try Data("GGUF".utf8 + [UInt8](repeating: 7, count: 200)).write(to: URL(fileURLWithPath: gguf))
    await #expect(
      throws: SpeechError.modelInvalid(path: gguf, reason: "it does not start with whisper.cpp's GGML magic")
    ) {
      try await SpeechRecognizer(path: gguf, line: OwnThreadLine()).prepare()
    }
    // The real model cut short, at two places: inside the header's tables and inside the tensors.
    let real = try Data(contentsOf: URL(fileURLWithPath: TestModels.whisperTinyEn))
    for length in [4_000, real.count - 1_000_000] {
      let cut = folder.appendingPathComponent("cut-\(length).bin").path
      try real.prefix(length).write(to: URL(fileURLWithPath: cut))
      await #expect(throws: SpeechError.self) {
        try await SpeechRecognizer(path: cut, line: OwnThreadLine()).prepare()
      }
    }
  }
}
