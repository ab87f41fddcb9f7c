import Foundation
import HearthEngine
import HearthSpeech
import Hummingbird

/// `POST /api/voice/activity`: where speech is in a piece of audio, found by Silero VAD on this machine. The
/// hands-free mode sends the last second it heard, every quarter second, to hear when a person starts and stops
/// talking. The body is 16-bit little-endian mono PCM at 16 kHz (`audio/pcm`) or a WAV file (`audio/wav`).
struct VoiceRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  /// The longest audio looked at in one request.
  static var longestSeconds: Double { 30 }

  var paths: [RouterPath] { ["/api/voice"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("activity") { request, _ in try await activity(request) }
  }

  private func activity(_ request: Request) async throws -> Response {
    let limit = min(configuration.maxAudioBytes, Int(Self.longestSeconds) * AudioClip.recognitionRate * 2 + 44)
    let type = request.headers[.contentType]?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    let body = try await RequestReader.bytes(of: request, limit: limit)
    let clip: AudioClip
    switch type {
    case "audio/pcm", "audio/l16", "application/octet-stream":
      guard body.count.isMultiple(of: 2) else {
        throw APIError.invalidRequest("16-bit PCM has an even number of bytes; this body has \(body.count)")
      }
      clip = AudioClip(pcm16: body, sampleRate: AudioClip.recognitionRate)
    case "audio/wav", "audio/x-wav", "audio/wave":
      do {
        clip = try WAVDecoder.decode(body)
      } catch {
        throw APIError.invalidRequest(error.description)
      }
    default:
      throw APIError(
        .unsupportedMediaType,
        "send the audio as audio/pcm (16-bit little-endian mono at 16 kHz) or audio/wav, not \(type ?? "no type")")
    }
    guard clip.duration <= Self.longestSeconds else {
      throw APIError.invalidRequest(
        "the audio is \(Int(clip.duration)) s; at most \(Int(Self.longestSeconds)) s at once")
    }
    let activity: VoiceActivityDetector.Activity
    do {
      activity = try await dependencies.engine.voiceActivity.activity(in: clip)
    } catch {
      throw TranscriptionReply.apiError(error)
    }
    return try AppJSON.make(
      ActivityReply(
        windowSeconds: Double(VoiceActivityDetector.window) / Double(AudioClip.recognitionRate),
        probabilities: activity.probabilities.map { ($0 * 1000).rounded() / 1000 },
        speech: activity.speech.map { ActivityReply.Stretch(start: $0.lowerBound, end: $0.upperBound) }))
  }
}

struct ActivityReply: Encodable {
  struct Stretch: Encodable {
    var start: Double
    var end: Double
  }

  var windowSeconds: Double
  var probabilities: [Float]
  var speech: [Stretch]

  enum CodingKeys: String, CodingKey {
    case probabilities, speech
    case windowSeconds = "window_seconds"
  }
}
