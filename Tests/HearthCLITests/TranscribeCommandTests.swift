import Foundation
import HearthSpeech
import HearthTestSupport
import Testing

@Suite("hearth transcribe, run as a user would", .heavy)
struct TranscribeCommandTests {
  private func runner(_ extra: [String: String] = [:]) throws -> CommandRunner {
    CommandRunner(
      environment: [
        "HEARTH_HOME": try TestModels.temporaryDirectory().path, "HEARTH_SPEECH_MODEL": TestModels.whisperTinyEn,
      ].merging(extra) { $1 })
  }

  @Test("jfk.wav comes back as the known sentence, in plain text and as one JSON object")
  func transcribesTheSample() async throws {
    let hearth = try runner()
    let plain = try await hearth.run(["transcribe", TestModels.jfkWAV])
    #expect(plain.status == 0, "\(plain.standardError)")
    #expect(WordErrorRate.of(plain.standardOutput, against: TestModels.jfkText) <= 0.10, "\(plain.standardOutput)")
    #expect(plain.standardError.contains("real-time factor"))

    let json = try await hearth.run(["transcribe", TestModels.jfkWAV, "--json"])
    #expect(json.status == 0, "\(json.standardError)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["text"] as? String == plain.standardOutput.trimmingCharacters(in: .newlines))
    #expect(object["language"] as? String == "en")
    #expect(object["duration"] as? Double == 11)
    #expect(object["model"] as? String == "ggml-tiny.en.bin")
    let factor = try #require(object["real_time_factor"] as? Double)
    #expect(factor > 0 && factor < 5)
    let segments = try #require(object["segments"] as? [[String: Any]])
    #expect(segments.first?["start"] as? Double == 0)
    let timings = try #require(object["timings"] as? [String: Any])
    #expect((timings["recognition_seconds"] as? Double ?? 0) > 0)
    #expect(json.standardOutput.split(separator: "\n").count == 1)

    let stamped = try await hearth.run(["transcribe", TestModels.jfkWAV, "--timestamps"])
    #expect(stamped.standardOutput.hasPrefix("[00:00:00.000 → "), "\(stamped.standardOutput)")
  }

  @Test("bad files, a missing model and a wrong language are clear errors, never a crash")
  func badInput() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hearth = try runner(["HEARTH_FFMPEG": "/nonexistent/ffmpeg"])
    func file(_ name: String, _ data: Data) throws -> String {
      let path = folder.appendingPathComponent(name).path
      try data.write(to: URL(fileURLWithPath: path))
      return path
    }
    let cases: [([String], String)] = [
      (["transcribe", try file("empty.wav", Data())], "holds no samples"),
      (["transcribe", try file("notes.txt", Data("shopping list".utf8))], "not WAV"),
      (["transcribe", try file("song.mp3", Data("ID3".utf8) + Data(count: 100))], "MP3 audio"),
      (["transcribe", folder.appendingPathComponent("absent.wav").path], "no such file"),
      (["transcribe", TestModels.jfkWAV, "--language", "de"], "English only"),
      (["transcribe", TestModels.jfkWAV, "--model", "/nowhere/ggml.bin"], "is not installed"),
      (["transcribe", TestModels.jfkWAV, "--model", TestModels.smolLM2], "not a usable whisper.cpp model"),
      (["transcribe", TestModels.jfkWAV, "--threads", "0"], "--threads"),
    ]
    for (arguments, message) in cases {
      let result = try await hearth.run(arguments)
      #expect(result.exitedNormally && result.status != 0, "\(arguments)")
      #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
    }
    // A sample rate of 0 in the header, and silence: an error and an empty transcript.
    var zeroRate = Data("RIFF".utf8) + Data([40, 0, 0, 0]) + Data("WAVEfmt ".utf8)
    zeroRate += Data([16, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 16, 0]) + Data("data".utf8)
    zeroRate += Data([4, 0, 0, 0, 0, 0, 0, 0])
    let zero = try await hearth.run(["transcribe", try file("zero.wav", zeroRate)])
    #expect(zero.status != 0 && zero.standardError.contains("sample rate of 0"), "\(zero.standardError)")
    let silent = folder.appendingPathComponent("silence.wav").path
    try await SpokenSentences.speak("", to: silent)
    let quiet = try await hearth.run(["transcribe", silent, "--json"])
    #expect(quiet.status == 0, "\(quiet.standardError)")
    #expect(quiet.standardOutput.contains(#""text":"""#), "\(quiet.standardOutput)")
  }
}

@Suite("hearth bench speech, against whisper.cpp's whisper-cli, and the voice", .heavy)
struct BenchSpeechCommandTests {
  @Test("both programs transcribe both clips, and the figures are read from each")
  func measuresBoth() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_HOME": try TestModels.temporaryDirectory().path])
    let result = try await hearth.run([
      "bench", "speech", "--runs", "1", "--json", "--only", "recognition", "--model", TestModels.whisperTinyEn,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let output = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(output["voice"] == nil)
    let rows = try #require(output["recognition"] as? [[String: Any]])
    #expect(rows.compactMap { $0["clip"] as? String } == ["jfk.wav", "60 s clip"])
    for row in rows {
      let ours = try #require((row["hearth_recognition"] as? [String: Any])?["samples"] as? [Double])
      let theirs = try #require((row["cli_recognition"] as? [String: Any])?["samples"] as? [Double])
      #expect(ours.count == 1 && theirs.count == 1)
      #expect(ours[0] > 0 && theirs[0] > 0)
      #expect((row["speed_ratio"] as? Double ?? 0) > 0.2)
      #expect((row["hearth_word_error_rate"] as? Double ?? 1) <= 0.15, "\(row)")
      #expect((row["cli_word_error_rate"] as? Double ?? 1) <= 0.15, "\(row)")
    }
    #expect(rows.first?["audio_seconds"] as? Double == 11)
    #expect(rows.last?["audio_seconds"] as? Double == 60)
  }

  @Test("the voice's first audio, real-time factors and round trip are measured")
  func measuresTheVoice() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_HOME": try TestModels.temporaryDirectory().path])
    let result = try await hearth.run([
      "bench", "speech", "--runs", "1", "--json", "--only", "voice", "--model", TestModels.whisperTinyEn,
      "--voice-model", TestModels.piperVoice,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let output = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(output["recognition"] == nil)
    let voice = try #require(output["voice"] as? [String: Any])
    #expect(voice["voice"] as? String == "joe")
    let first = try #require((voice["first_audio"] as? [String: Any])?["samples"] as? [Double])
    #expect(first.count == 1 && first[0] > 0 && first[0] < 5)
    let factor = try #require((voice["passage_real_time_factor"] as? [String: Any])?["samples"] as? [Double])
    #expect(factor.count == 1 && factor[0] > 0 && factor[0] < 2)
    #expect((voice["round_trip_word_error_rate"] as? Double ?? 1) <= 0.10, "\(voice)")
  }
}
