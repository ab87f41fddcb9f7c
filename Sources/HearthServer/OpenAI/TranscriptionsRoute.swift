import Foundation
import HearthEngine
import HearthForms
import HearthSpeech
import Hummingbird
import NIOCore

/// `POST /v1/audio/transcriptions` in OpenAI's multipart shape: `file` and `model` (any Whisper name), with
/// `language`, `prompt`, `temperature`, `response_format` (json, text, verbose_json, srt, vtt) and
/// `timestamp_granularities[]` (segment). Transcribed on this machine with the engine's speech model.
struct TranscriptionsRoute<Context: ChannelRequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { OpenAIPaths.prefixes }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("audio/transcriptions") { request, context in
      try await self.transcribe(request, context: context)
    }
  }

  private func transcribe(_ request: Request, context: Context) async throws -> Response {
    guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
      throw APIError.invalidRequest(
        "send the audio as multipart/form-data (a file part named \"file\" and a model part), with its boundary")
    }
    let body = try await RequestReader.buffer(of: request, limit: configuration.maxAudioBytes)
    let form: MultipartForm
    do {
      form = try MultipartForm(body, boundary: boundary)
    } catch {
      throw APIError.invalidRequest(error.description)
    }
    let input = try TranscriptionInput(form)
    let speech = dependencies.engine.speech
    try checkModel(input.model, speech: speech)
    let options = TranscriptionOptions(language: input.language, prompt: input.prompt, temperature: input.temperature)
    // A client that hangs up stops its transcription: whisper.cpp checks between its computations.
    let transcript = try await ConnectionWatch.cancellingOnDeparture(of: context.channel) {
      do throws(SpeechError) {
        return try await speech.transcribe(data: input.audio, options: options)
      } catch {
        throw TranscriptionReply.apiError(error)
      }
    }
    return try TranscriptionReply.response(transcript, format: input.format)
  }

  private func checkModel(_ model: String, speech: SpeechRecognizer) throws {
    guard !configuration.answersAnyModelName else { return }
    // OpenAI's clients name their own models; any Whisper name is answered by the local Whisper model.
    let wanted = model.lowercased()
    let local = speech.name.lowercased()
    let stem = local.replacingOccurrences(of: "ggml-", with: "").replacingOccurrences(of: ".bin", with: "")
    guard wanted.hasPrefix("whisper") || wanted == local || wanted == stem || wanted.hasSuffix("transcribe") else {
      throw APIError(
        .notFound, "the model \"\(model)\" is not a speech model here; this server transcribes with \(speech.name)",
        parameter: "model", code: "model_not_found")
    }
  }

}

/// The formats a transcription is answered in.
enum TranscriptionFormat: String, CaseIterable {
  case json, text, srt, vtt
  case verboseJSON = "verbose_json"
}

/// A transcription, or why there is none, as OpenAI's clients read it.
enum TranscriptionReply {
  static func apiError(_ error: SpeechError) -> APIError {
    switch error {
    case .modelMissing, .detectorMissing, .modelInvalid, .modelLoadFailed:
      APIError(.serviceUnavailable, error.description, code: "speech_model_unavailable")
    case .unsupportedLanguage:
      APIError.invalidRequest(error.description, parameter: "language")
    case .timedOut:
      APIError(.serviceUnavailable, error.description, code: "timeout")
    case .cancelled:
      APIError(.serviceUnavailable, error.description, code: "cancelled")
    case .recognitionFailed:
      APIError(.internalServerError, error.description, code: "transcription_failed")
    case .emptyAudio, .invalidWAV, .decoderMissing, .undecodable, .tooLong:
      APIError.invalidRequest(error.description, parameter: "file")
    }
  }

  static func response(_ transcript: Transcript, format: TranscriptionFormat) throws -> Response {
    let usage = Usage(seconds: Int(transcript.duration.rounded(.up)))
    switch format {
    case .json:
      return try JSONResponse.make(Plain(text: transcript.text, usage: usage))
    case .verboseJSON:
      let segments = transcript.segments.enumerated().map { index, segment in
        Verbose.Segment(id: index, start: segment.start, end: segment.end, text: segment.text)
      }
      return try JSONResponse.make(
        Verbose(
          language: SpeechLanguage.name(of: transcript.language) ?? transcript.language,
          duration: transcript.duration, text: transcript.text, segments: segments, usage: usage))
    case .text:
      return textResponse(transcript.text + "\n", type: "text/plain; charset=utf-8")
    case .srt:
      return textResponse(transcript.srt, type: "text/plain; charset=utf-8")
    case .vtt:
      return textResponse(transcript.webVTT, type: "text/vtt; charset=utf-8")
    }
  }

  private static func textResponse(_ text: String, type: String) -> Response {
    Response(
      status: .ok, headers: [.contentType: type, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  struct Usage: Encodable {
    var type = "duration"
    var seconds: Int
  }

  struct Plain: Encodable {
    var text: String
    var usage: Usage
  }

  struct Verbose: Encodable {
    struct Segment: Encodable {
      var id: Int
      var start: Double
      var end: Double
      var text: String
    }

    var task = "transcribe"
    var language: String
    var duration: Double
    var text: String
    var segments: [Segment]
    var usage: Usage
  }
}

/// The form fields of a transcription request, checked: every field is known, single and in range.
struct TranscriptionInput {
  static let fields: Set<String> = [
    "file", "model", "language", "prompt", "temperature", "response_format", "timestamp_granularities[]", "stream",
  ]

  var audio: Data
  var model: String
  var language: String?
  var prompt: String?
  var temperature: Double
  var format: TranscriptionFormat

  init(_ form: MultipartForm) throws {
    var seen: Set<String> = []
    for part in form.parts {
      guard Self.fields.contains(part.name) else {
        throw APIError.invalidRequest("unknown field \"\(part.name)\"", parameter: part.name)
      }
      if part.name != "timestamp_granularities[]" {
        guard seen.insert(part.name).inserted else {
          throw APIError.invalidRequest("the field \"\(part.name)\" is given twice", parameter: part.name)
        }
      }
    }
    func field(_ name: String) -> String? { form.parts.first { $0.name == name }?.text }
    guard let file = form.parts.first(where: { $0.name == "file" }) else {
      throw APIError.invalidRequest("the audio file is missing: send it as the \"file\" part", parameter: "file")
    }
    guard !file.body.isEmpty else { throw APIError.invalidRequest("the audio file is empty", parameter: "file") }
    audio = file.body
    guard let model = field("model"), !model.isEmpty else {
      throw APIError.invalidRequest("model is required (for example \"whisper-1\")", parameter: "model")
    }
    self.model = model
    language = field("language").flatMap { $0.isEmpty ? nil : $0 }
    if let language, SpeechLanguage.name(of: language) == nil {
      throw APIError.invalidRequest(
        "language \"\(language)\" is not an ISO 639-1 code Whisper knows", parameter: "language")
    }
    prompt = field("prompt").flatMap { $0.isEmpty ? nil : $0 }
    if let text = field("temperature") {
      guard let value = Double(text), (0...1).contains(value) else {
        throw APIError.invalidRequest("temperature must be a number from 0 to 1", parameter: "temperature")
      }
      temperature = value
    } else {
      temperature = 0
    }
    let formatText = field("response_format") ?? "json"
    guard let format = TranscriptionFormat(rawValue: formatText) else {
      let known = TranscriptionFormat.allCases.map(\.rawValue).joined(separator: ", ")
      throw APIError.invalidRequest(
        "response_format \"\(formatText)\" is not one of \(known)", parameter: "response_format")
    }
    self.format = format
    for granularity in form.parts.filter({ $0.name == "timestamp_granularities[]" }).map(\.text) {
      guard granularity == "segment" else {
        throw APIError.invalidRequest(
          "timestamp_granularities[] \"\(granularity)\" is not supported; segment timestamps are",
          parameter: "timestamp_granularities[]")
      }
      guard format == .verboseJSON else {
        throw APIError.invalidRequest(
          "timestamp_granularities[] needs response_format verbose_json", parameter: "timestamp_granularities[]")
      }
    }
    if let stream = field("stream"), stream != "false" {
      throw APIError.invalidRequest("streamed transcription is not supported; send stream=false", parameter: "stream")
    }
  }
}
