import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthSpeech
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite(
  "Speech to text through the API, the real whisper.cpp and Whisper tiny.en, in process and live", .serialized, .heavy)
struct TranscriptionAPITests {
  static let path = "/v1/audio/transcriptions"
  static var jfk: Data { get throws { try Data(contentsOf: URL(fileURLWithPath: TestModels.jfkWAV)) } }

  @Test func answersInEveryFormatOpenAIOffers() async throws {
    try await LiveServer.routed(withModel: false) { server in
      let audio = try Self.jfk
      func ask(_ format: String?, extra: [(String, String)] = []) async throws -> LiveServer.Reply {
        try await server.upload(
          Self.path, fields: [("model", "whisper-1")] + (format.map { [("response_format", $0)] } ?? []) + extra,
          files: [("file", "jfk.wav", audio)])
      }
      let json = try await ask(nil)
      #expect(json.status == 200, "\(json.body)")
      let text = try #require(json.json?["text"]?.stringValue)
      #expect(WordErrorRate.of(text, against: TestModels.jfkText) <= 0.1, "\(text)")
      #expect(json.json?["usage"]?["seconds"]?.numberValue == 11)

      let plain = try await ask("text")
      #expect(plain.header("Content-Type")?.hasPrefix("text/plain") == true)
      #expect(plain.body == text + "\n")

      let verbose = try await ask("verbose_json", extra: [("timestamp_granularities[]", "segment")])
      #expect(verbose.json?["language"]?.stringValue == "english")
      #expect(verbose.json?["duration"]?.numberValue == 11)
      let segments = try #require(verbose.json?["segments"]?.arrayValue)
      #expect(!segments.isEmpty)
      #expect(segments.compactMap { $0["text"]?.stringValue }.joined(separator: " ") == text)

      // The speech starts 0.32 s in; the silence before it is cut, all but 0.2 s, and times count from the start.
      let srt = try await ask("srt")
      #expect(srt.body.hasPrefix("1\n00:00:00,1"), "\(srt.body)")
      #expect(srt.body.contains(" --> 00:00:"))
      let vtt = try await ask("vtt")
      #expect(vtt.header("Content-Type")?.hasPrefix("text/vtt") == true)
      #expect(vtt.body.hasPrefix("WEBVTT\n\n00:00:00.1"), "\(vtt.body)")
    }
  }

  @Test func refusesWhatItCannotHonourByName() async throws {
    try await LiveServer.routed(withModel: false) { server in
      let audio = try Self.jfk
      let cases: [([(String, String)], String)] = [
        ([("model", "whisper-1"), ("user", "me")], "user"),
        ([("model", "whisper-1"), ("response_format", "mp3")], "response_format"),
        (
          [("model", "whisper-1"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word")],
          "timestamp_granularities[]"
        ),
        ([("model", "whisper-1"), ("timestamp_granularities[]", "segment")], "timestamp_granularities[]"),
        ([("model", "whisper-1"), ("temperature", "2")], "temperature"),
        ([("model", "whisper-1"), ("language", "xx")], "language"),
        ([("model", "whisper-1"), ("language", "fr")], "language"),
        ([("model", "whisper-1"), ("stream", "true")], "stream"),
        ([("model", "whisper-1"), ("model", "whisper-1")], "model"),
        ([], "model"),
      ]
      for (fields, parameter) in cases {
        let reply = try await server.upload(Self.path, fields: fields, files: [("file", "a.wav", audio)])
        #expect(reply.status == 400, "\(fields) → \(reply.body)")
        #expect(reply.json?["error"]?["param"]?.stringValue == parameter, "\(fields) → \(reply.body)")
      }
      let unknownModel = try await server.upload(
        Self.path, fields: [("model", "gpt-4o")], files: [("file", "a.wav", audio)])
      #expect(unknownModel.status == 404)
      #expect(unknownModel.json?["error"]?["code"]?.stringValue == "model_not_found")
    }
  }

  @Test func badAudioAndBadBodiesAreClearErrors() async throws {
    try await LiveServer.routed(withModel: false) { server in
      let whisper = [("model", "whisper-1")]
      let missing = try await server.upload(Self.path, fields: whisper, files: [])
      #expect(missing.json?["error"]?["param"]?.stringValue == "file")
      for (bytes, words) in [
        (Data(), "empty"), (Data("not audio at all".utf8), "not WAV"),
        (Data("RIFF\u{4}\0\0\0WAVE".utf8), "no fmt chunk"),
      ] {
        let reply = try await server.upload(Self.path, fields: whisper, files: [("file", "x.wav", bytes)])
        #expect(reply.status == 400, "\(reply.body)")
        #expect(reply.json?["error"]?["message"]?.stringValue?.contains(words) == true, "\(reply.body)")
      }
      // Cut in the middle of its data: what arrived is transcribed.
      let cut = try Self.jfk.prefix(100_000)
      let partial = try await server.upload(Self.path, fields: whisper, files: [("file", "cut.wav", cut)])
      #expect(partial.status == 200)
      #expect(partial.json?["text"]?.stringValue?.contains("Americans") == true, "\(partial.body)")
      // Silence: an empty transcript, not invented words.
      var silence = Data("RIFF".utf8) + Data([36, 125, 0, 0]) + Data("WAVEfmt ".utf8)
      silence += Data([16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0x3E, 0, 0, 0, 0x7D, 0, 0, 2, 0, 16, 0])
      silence += Data("data".utf8) + Data([0, 125, 0, 0]) + Data(count: 32_000)
      let quiet = try await server.upload(Self.path, fields: whisper, files: [("file", "quiet.wav", silence)])
      #expect(quiet.json?["text"]?.stringValue == "", "\(quiet.body)")

      let json = try await server.request(.POST, Self.path, body: #"{"model":"whisper-1"}"#)
      #expect(json.status == 400)
      #expect(json.json?["error"]?["message"]?.stringValue?.contains("multipart/form-data") == true)
      let truncated = MultipartBody.encode(fields: whisper, files: [("file", "a.wav", try Self.jfk)], boundary: "b0")
      let cutBody = try await server.request(
        .POST, Self.path, bytes: truncated.prefix(truncated.count - 20),
        headers: [("Content-Type", "multipart/form-data; boundary=b0")])
      #expect(cutBody.status == 400, "\(cutBody.body)")
    }
  }

  @Test func aClientThatHangsUpStopsItsTranscription() async throws {
    try await LiveServer.with(withModel: false) { server in
      // The unit of work: one short clip, which is one pass of Whisper's encoder over a 30 s window (the
      // model loaded beforehand, so the time is the work's alone).
      try await server.engine.speech.prepare()
      let alone = ContinuousClock.now
      let first = try await server.upload(
        Self.path, fields: [("model", "whisper-1")], files: [("file", "jfk.wav", try Self.jfk)])
      let window = ContinuousClock.now - alone
      #expect(first.status == 200)

      // jfk.wav 24 times over: 264 s of speech, some fifteen times one clip's work.
      let clip = try AudioLoader().load(path: TestModels.jfkWAV)
      let long = AudioClip(samples: Array(repeating: clip.samples, count: 24).flatMap { $0 }, sampleRate: 16_000)
      let body = long.wavData()
      let speech = server.engine.speech
      let abandoned = Task {
        try await server.upload(Self.path, fields: [("model", "whisper-1")], files: [("file", "long.wav", body)])
      }
      // The upload is read and decoded first: the client hangs up once whisper.cpp is at work on it, a window in.
      try await waitUntil(seconds: 60) { speech.transcriptionsInProgress == 1 }
      try await Task.sleep(for: window)
      let hangUp = ContinuousClock.now
      abandoned.cancel()
      _ = try? await abandoned.value
      // whisper.cpp hears the stop after the encoder pass it is in (it checks between passes and between the
      // decoder's tokens): about a window at most. Run on, the work would take some fourteen more.
      try await waitUntil(seconds: 60) { speech.transcriptionsInProgress == 0 }
      let stoppedAfter = ContinuousClock.now - hangUp
      #expect(stoppedAfter < window * 4, "the abandoned transcription ran on \(stoppedAfter); one clip takes \(window)")
      let short = try await server.upload(
        Self.path, fields: [("model", "whisper-1")], files: [("file", "jfk.wav", try Self.jfk)])
      #expect(short.status == 200)
      #expect(short.json?["text"]?.stringValue?.contains("country") == true)
    }
  }

  @Test func anUploadBeyondTheLimitIs413() async throws {
    var configuration = ServerConfiguration(port: 0)
    configuration.maxAudioBytes = 100_000
    try await LiveServer.routed(configuration: configuration, withModel: false) { server in
      let reply = try await server.upload(
        Self.path, fields: [("model", "whisper-1")], files: [("file", "jfk.wav", try Self.jfk)])
      #expect(reply.status == 413)
    }
  }

  @Test func transcriptionsAndChatAnswersRunTogether() async throws {
    try await LiveServer.with { server in
      let audio = try Self.jfk
      let chat = #"{"messages":[{"role":"user","content":"Name a colour."}],"max_tokens":16,"temperature":0}"#
      let replies = try await withThrowingTaskGroup(of: (String, LiveServer.Reply).self) { group in
        for index in 0..<3 {
          group.addTask {
            (
              "speech\(index)",
              try await server.upload(
                Self.path, fields: [("model", "whisper-1")], files: [("file", "jfk.wav", audio)])
            )
          }
          group.addTask { ("chat\(index)", try await server.request(.POST, "/v1/chat/completions", body: chat)) }
        }
        return try await group.reduce(into: [String: LiveServer.Reply]()) { $0[$1.0] = $1.1 }
      }
      for (name, reply) in replies {
        #expect(reply.status == 200, "\(name): \(reply.body)")
        if name.hasPrefix("speech") {
          #expect(reply.json?["text"]?.stringValue?.contains("country") == true, "\(reply.body)")
        } else {
          #expect(reply.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue?.isEmpty == false)
        }
      }
    }
  }
}
