import Foundation
import HearthEngine
import HearthSpeech
import Hummingbird
import NIOCore

/// `POST /v1/audio/speech` in OpenAI's shape: `model`, `input`, `voice`, `response_format`, `speed` and
/// `stream_format`, spoken on this machine by the engine's voice.
///
/// OpenAI's model and voice names, and `default`, are answered by the installed Piper voice (as Whisper names are by
/// the local recognizer), or espeak-ng's when it is missing; the Piper voice's own name asks for it, `espeak` for
/// espeak-ng's. The formats Hearth writes without an encoder are `wav` (the
/// default here, where OpenAI's is mp3) and `pcm` (16-bit little-endian mono at 24 kHz, as OpenAI sends it,
/// streamed sentence by sentence); the others, and `instructions`, are refused by name.
struct SpeechRoute<Context: ChannelRequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("audio/speech") { request, context in
      try await self.speak(request, context: context)
    }
  }

  private func speak(_ request: Request, context: Context) async throws -> Response {
    let body = try await RequestReader.decodeStrict(
      SpeechRequest.self, from: request, limit: configuration.maxBodyBytes)
    let synthesizer = dependencies.engine.voice
    let options = try body.options(synthesizer: synthesizer, answersAnyModelName: configuration.answersAnyModelName)
    let format = try body.format()
    let stream = try body.stream()
    let clips: AsyncThrowingStream<AudioClip, any Error>
    do {
      clips = try await synthesizer.sentences(of: body.input, options: options)
    } catch {
      throw SpeechReply.apiError(error)
    }
    switch (format, stream) {
    case (.wav, .audio):
      // A WAV header states the length: the whole speech is made first.
      let speech = try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
        do {
          var samples: [Float] = []
          var rate = 22_050
          for try await clip in clips {
            samples += clip.samples
            rate = clip.sampleRate
          }
          return AudioClip(samples: samples, sampleRate: rate)
        } catch {
          throw SpeechReply.apiError(SpeechSynthesizer.voiceError(error))
        }
      }
      return Response(
        status: .ok, headers: [.contentType: "audio/wav", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: speech.wavData())))
    case (.pcm, .audio):
      return Response(
        status: .ok, headers: [.contentType: "audio/pcm", .cacheControl: "no-store"],
        body: ResponseBody { writer in
          // A failed write (the client left) ends the loop, and with it the stream's synthesis.
          for try await clip in clips {
            try await writer.write(ByteBuffer(bytes: SpeechReply.pcm24k(clip)))
          }
          try await writer.finish(nil)
        })
    case (.pcm, .sse):
      return Response(
        status: .ok, headers: EventStream.headers,
        body: ResponseBody { writer in
          var samples = 0
          do {
            for try await clip in clips {
              let audio = SpeechReply.pcm24k(clip)
              samples += audio.count / 2
              try await writer.sendEvent(
                JSONResponse.encodedLine(
                  SpeechReply.Event(type: "speech.audio.delta", audio: audio.base64EncodedString())))
            }
            try await writer.sendEvent(JSONResponse.encodedLine(SpeechReply.Event(type: "speech.audio.done")))
          } catch {
            let failure = SpeechReply.apiError(SpeechSynthesizer.voiceError(error))
            try await writer.sendEvent(
              JSONResponse.encodedLine(SpeechReply.Event(type: "error", error: failure.message)))
          }
          try await writer.finish(nil)
        })
    case (.wav, .sse):
      throw APIError.invalidRequest(
        "stream_format sse sends pcm; set response_format to pcm, or stream_format to audio", parameter: "stream_format"
      )
    }
  }
}

/// The fields of a speech request, checked: every field known, every value honoured or refused by name.
struct SpeechRequest: StrictInput {
  enum Format: String {
    case wav, pcm
  }

  enum StreamFormat: String {
    case audio, sse
  }

  /// OpenAI's voices: each is answered by the installed voice.
  static let openAIVoices: Set<String> = [
    "alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse", "marin", "cedar",
  ]
  /// OpenAI's speech models: each is answered by the installed voice.
  static let openAIModels: Set<String> = ["tts-1", "tts-1-hd", "gpt-4o-mini-tts"]

  var model: String
  var input: String
  var voice: String
  var instructions: String?
  var responseFormat: String?
  var speed: Double?
  var streamFormat: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case model, input, voice, instructions, speed
    case responseFormat = "response_format"
    case streamFormat = "stream_format"
  }

  func options(synthesizer: SpeechSynthesizer, answersAnyModelName: Bool) throws -> SynthesisOptions {
    let own = synthesizer.voiceName.lowercased()
    let wantedModel = model.lowercased()
    let knownModel =
      Self.openAIModels.contains(wantedModel) || wantedModel.hasPrefix("tts")
      || [own, "piper", "espeak", "espeak-ng"].contains(wantedModel)
    guard knownModel || answersAnyModelName else {
      throw APIError(
        .notFound, "the model \"\(model)\" is not a speech model here; this server speaks with tts-1 (Piper's \(own))",
        parameter: "model", code: "model_not_found")
    }
    if let instructions, !instructions.isEmpty {
      throw APIError.invalidRequest(
        "instructions are not supported: the local voice cannot be steered by instructions", parameter: "instructions")
    }
    guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw APIError.invalidRequest("input is empty: send the text to speak", parameter: "input")
    }
    guard input.count <= SpeechSynthesizer.maxCharacters else {
      throw APIError.invalidRequest(
        "input is \(input.count) characters; at most \(SpeechSynthesizer.maxCharacters) are spoken at once",
        parameter: "input")
    }
    let speed = speed ?? 1
    guard SynthesisOptions.speeds.contains(speed) else {
      throw APIError.invalidRequest("speed must be from 0.25 to 4", parameter: "speed")
    }
    let wantedVoice = voice.lowercased()
    let chosen: SpeechVoice?
    if ["espeak", "espeak-ng"].contains(wantedVoice) || ["espeak", "espeak-ng"].contains(wantedModel) {
      chosen = .espeak
    } else if wantedVoice == own || wantedVoice == "piper" {
      chosen = .piper
    } else if Self.openAIVoices.contains(wantedVoice) || wantedVoice == "default" {
      chosen = nil
    } else {
      throw APIError.invalidRequest(
        "voice \"\(voice)\" is not known; use \(own), espeak, default or one of OpenAI's voice names (answered by \(own))",
        parameter: "voice")
    }
    return SynthesisOptions(speed: speed, voice: chosen)
  }

  func format() throws -> Format {
    let name = responseFormat ?? "wav"
    guard let format = Format(rawValue: name) else {
      throw APIError.invalidRequest(
        "response_format \(name) is not supported here; use wav or pcm (16-bit mono at 24 kHz)",
        parameter: "response_format")
    }
    return format
  }

  func stream() throws -> StreamFormat {
    let name = streamFormat ?? "audio"
    guard let stream = StreamFormat(rawValue: name) else {
      throw APIError.invalidRequest("stream_format \(name) is not one of audio, sse", parameter: "stream_format")
    }
    return stream
  }
}

/// Speech, or why there is none, as OpenAI's clients read it.
enum SpeechReply {
  /// The rate OpenAI's `pcm` is sent at.
  static let pcmRate = 24_000

  struct Event: Encodable {
    var type: String
    var audio: String?
    var error: String?
  }

  static func apiError(_ error: VoiceError) -> APIError {
    switch error {
    case .voiceMissing, .voiceLoadFailed, .espeakUnavailable, .unknownEspeakVoice:
      APIError(.serviceUnavailable, error.description, code: "voice_unavailable")
    case .nothingToSay, .tooLong:
      APIError.invalidRequest(error.description, parameter: "input")
    case .speedOutOfRange:
      APIError.invalidRequest(error.description, parameter: "speed")
    case .cancelled:
      APIError(.serviceUnavailable, error.description, code: "cancelled")
    case .synthesisFailed:
      APIError(.internalServerError, error.description, code: "speech_failed")
    }
  }

  /// A clip as OpenAI's `pcm`: 16-bit little-endian mono at 24 kHz.
  static func pcm24k(_ clip: AudioClip) -> Data {
    guard clip.sampleRate != pcmRate else { return clip.pcm16Data() }
    let samples = Resampler(from: clip.sampleRate, to: pcmRate).resample(clip.samples)
    return AudioClip(samples: samples, sampleRate: pcmRate).pcm16Data()
  }
}
