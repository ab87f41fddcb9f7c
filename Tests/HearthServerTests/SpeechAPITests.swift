import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthSpeech
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@Suite("Text to speech through OpenAI's speech API, the real voice heard by the real recognizer", .serialized, .heavy)
struct SpeechAPITests {
  static let path = "/v1/audio/speech"
  static let sentence = "The package should arrive before the weekend."

  static func body(_ fields: [String: Any]) throws -> String {
    let defaults: [String: Any] = ["model": "tts-1", "input": sentence, "voice": "alloy"]
    let data = try JSONSerialization.data(withJSONObject: defaults.merging(fields) { $1 }, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func answersAWAVFileThatIsHeardAsTheInput() async throws {
    try await LiveServer.with(withModel: false) { server in
      let reply = try await server.request(.POST, Self.path, body: try Self.body([:]))
      #expect(reply.status == 200, "\(reply.body)")
      #expect(reply.header("Content-Type") == "audio/wav")
      // The voice's own rate, in the header (bytes 24–27).
      #expect(reply.data.count > 44 && reply.data[24] == 0x22 && reply.data[25] == 0x56, "22,050 Hz")
      let clip = try AudioLoader().load(reply.data)
      let heard = try await server.engine.speech.transcribe(clip).text
      #expect(WordErrorRate.of(heard, against: Self.sentence) <= 0.15, "\(heard)")

      // espeak-ng's voice by name, and at four times the pace. (At twice the pace the clip measured 0.63 to 0.73 of
      // the plain one's length, as the silence around the words keeps its length and the voice's own lengths vary
      // from run to run; at four times, 0.50 to 0.56.)
      let espeak = try await server.request(.POST, Self.path, body: try Self.body(["voice": "espeak"]))
      #expect(espeak.status == 200, "\(espeak.body)")
      let fast = try await server.request(.POST, Self.path, body: try Self.body(["speed": 4, "voice": "joe"]))
      let fastDuration = try AudioLoader().load(fast.data).duration
      #expect(fastDuration < clip.duration * 0.7, "\(fastDuration) s against \(clip.duration) s")
    }
  }

  @Test func pcmIsSixteenBitAtTwentyFourKilohertzAndStreamsAsEventsToo() async throws {
    try await LiveServer.with(withModel: false) { server in
      let text = "Good morning. You have two meetings today."
      let wav = try AudioLoader().load(
        try await server.request(.POST, Self.path, body: try Self.body(["input": text])).data)
      let pcm = try await server.request(
        .POST, Self.path, body: try Self.body(["input": text, "response_format": "pcm"]))
      #expect(pcm.status == 200)
      #expect(pcm.header("Content-Type") == "audio/pcm")
      #expect(pcm.data.count.isMultiple(of: 2))
      let seconds = Double(pcm.data.count / 2) / 24_000
      // The voice varies its timing a little from one synthesis to the next (VITS samples its durations).
      #expect(abs(seconds - wav.duration) < wav.duration * 0.1, "\(seconds) vs \(wav.duration)")

      let (status, chunks) = try await server.stream(
        Self.path, body: try Self.body(["input": text, "response_format": "pcm", "stream_format": "sse"]))
      #expect(status == 200)
      var parser = EventParser()
      var audio = Data()
      var types: [String] = []
      for try await chunk in chunks {
        for event in parser.feed(String(buffer: chunk)) {
          let object = try JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8))
          types.append(object["type"]?.stringValue ?? "?")
          if let base64 = object["audio"]?.stringValue { audio += try #require(Data(base64Encoded: base64)) }
        }
      }
      // One delta per sentence, then done; together as long as the plain pcm answer.
      #expect(types == ["speech.audio.delta", "speech.audio.delta", "speech.audio.done"])
      #expect(abs(audio.count - pcm.data.count) < pcm.data.count / 10, "\(audio.count) vs \(pcm.data.count)")
    }
  }

  @Test func refusesWhatItCannotHonourByName() async throws {
    try await LiveServer.routed(withModel: false) { server in
      let cases: [([String: Any], String)] = [
        (["response_format": "mp3"], "response_format"),
        (["instructions": "Speak like a pirate."], "instructions"),
        (["voice": "bob"], "voice"),
        (["speed": 5], "speed"),
        (["input": "   "], "input"),
        (["input": String(repeating: "a", count: 4097)], "input"),
        (["volume": 2], "volume"),
        (["stream_format": "sse"], "stream_format"),
        (["stream_format": "chunks"], "stream_format"),
      ]
      for (fields, parameter) in cases {
        let reply = try await server.request(.POST, Self.path, body: try Self.body(fields))
        #expect(reply.status == 400, "\(fields) → \(reply.body)")
        #expect(reply.json?["error"]?["param"]?.stringValue == parameter, "\(fields) → \(reply.body)")
      }
      let unknown = try await server.request(.POST, Self.path, body: try Self.body(["model": "eleven-v2"]))
      #expect(unknown.status == 404)
      #expect(unknown.json?["error"]?["code"]?.stringValue == "model_not_found")
      let missing = try await server.request(.POST, Self.path, body: #"{"model":"tts-1","voice":"alloy"}"#)
      #expect(missing.status == 400, "\(missing.body)")
    }
  }

  @Test func voiceActivityIsFoundInPCMAndWAVAndBadBodiesAreRefused() async throws {
    try await LiveServer.routed(withModel: false) { server in
      let clip = try AudioLoader().load(path: TestModels.jfkWAV)
      let pcm = clip.pcm16Data()
      let asPCM = try await server.request(
        .POST, "/api/voice/activity", bytes: pcm, headers: [("Content-Type", "audio/pcm")])
      #expect(asPCM.status == 200, "\(asPCM.body)")
      let probabilities = try #require(asPCM.json?["probabilities"]?.arrayValue)
      #expect(probabilities.count == 344)
      #expect(asPCM.json?["window_seconds"]?.numberValue == 0.032)
      let speech = try #require(asPCM.json?["speech"]?.arrayValue)
      #expect(!speech.isEmpty && (speech.last?["end"]?.numberValue ?? 0) <= 11)
      let asWAV = try await server.request(
        .POST, "/api/voice/activity", bytes: clip.wavData(), headers: [("Content-Type", "audio/wav")])
      #expect(asWAV.json?["probabilities"]?.arrayValue?.count == 344)

      let odd = try await server.request(
        .POST, "/api/voice/activity", bytes: Data([1, 2, 3]), headers: [("Content-Type", "audio/pcm")])
      #expect(odd.status == 400, "\(odd.body)")
      let text = try await server.request(.POST, "/api/voice/activity", body: "{}")
      #expect(text.status == 415, "\(text.body)")
      let long = try await server.request(
        .POST, "/api/voice/activity", bytes: Data(count: 31 * 32_000), headers: [("Content-Type", "audio/pcm")])
      #expect(long.status == 413, "\(long.body)")
    }
  }
}
