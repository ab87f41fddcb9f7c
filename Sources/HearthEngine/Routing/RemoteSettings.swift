public import Foundation

/// Which wire format a remote server speaks.
public enum RemoteKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// OpenAI's chat completions with SSE streaming: llama-server, vLLM, LM Studio, Ollama, OpenAI itself.
  case openai
  /// Google Gemini's `streamGenerateContent` with `alt=sse`.
  case gemini
}

/// A remote model server the user allows turns to go to.
public struct RemoteSettings: Sendable, Hashable {
  /// The API's base URL, e.g. `http://host:8080/v1` or `https://generativelanguage.googleapis.com/v1beta`.
  public var url: URL
  public var kind: RemoteKind
  /// The model to ask for.
  public var model: String
  /// Sent as a bearer token (OpenAI) or `x-goog-api-key` (Gemini); never logged or shown in full.
  public var apiKey: String?
  /// How long the server may take to send its first token before the turn goes to the local model.
  public var firstTokenTimeout: Duration
  /// This long after the switch to the server is confirmed (its first answer), the local model's weights are
  /// let go until it fails; `nil` keeps them loaded.
  public var parkLocalAfter: Duration?
  /// Whether the server's model is trusted to write an answer from what a look-up found (the second pass). Its
  /// size is unknown, so it is, unless the user says otherwise.
  public var writesFromFacts: Bool

  /// The seeds' time before the local model is let go once the remote server answers.
  public static let defaultParkLocalAfter: Duration = .seconds(30)

  /// Creates settings.
  public init(
    url: URL, kind: RemoteKind, model: String, apiKey: String? = nil, firstTokenTimeout: Duration = .seconds(20),
    parkLocalAfter: Duration? = Self.defaultParkLocalAfter, writesFromFacts: Bool = true
  ) {
    self.firstTokenTimeout = firstTokenTimeout
    self.parkLocalAfter = parkLocalAfter
    self.writesFromFacts = writesFromFacts
    self.url = url
    self.kind = kind
    self.model = model
    self.apiKey = apiKey
  }

  /// The settings in `HEARTH_REMOTE_URL`, `HEARTH_REMOTE_KIND`, `HEARTH_REMOTE_MODEL`,
  /// `HEARTH_REMOTE_API_KEY`, `HEARTH_REMOTE_FIRST_TOKEN_TIMEOUT`, `HEARTH_REMOTE_PARK_AFTER` (seconds; 0
  /// keeps the local model loaded) and `HEARTH_REMOTE_WRITES_FROM_FACTS` (`1` or `0`), or `nil` when no URL is
  /// set.
  /// - Throws: ``RemoteError/invalidSettings(_:)`` naming a variable whose value cannot be used.
  public static func from(environment: [String: String]) throws(RemoteError) -> RemoteSettings? {
    guard let text = environment["HEARTH_REMOTE_URL"], !text.isEmpty else { return nil }
    guard let url = URL(webAddress: text) else {
      throw .invalidSettings("HEARTH_REMOTE_URL \(text) is not an http:// or https:// URL")
    }
    let kindText = environment["HEARTH_REMOTE_KIND"].flatMap { $0.isEmpty ? nil : $0 } ?? "openai"
    guard let kind = RemoteKind(rawValue: kindText) else {
      throw .invalidSettings("HEARTH_REMOTE_KIND \(kindText) is not openai or gemini")
    }
    let model = environment["HEARTH_REMOTE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    guard let model = model ?? (kind == .openai ? "default" : nil) else {
      throw .invalidSettings("HEARTH_REMOTE_MODEL is needed for a Gemini server")
    }
    var timeout = Duration.seconds(20)
    if let text = environment["HEARTH_REMOTE_FIRST_TOKEN_TIMEOUT"], !text.isEmpty {
      guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
        throw .invalidSettings("HEARTH_REMOTE_FIRST_TOKEN_TIMEOUT \(text) is not a number of seconds (0 to 3600)")
      }
      timeout = .milliseconds(Int64(seconds * 1000))
    }
    var parkAfter: Duration? = defaultParkLocalAfter
    if let text = environment["HEARTH_REMOTE_PARK_AFTER"], !text.isEmpty {
      guard let seconds = Double(text), seconds == 0 || (1...86_400).contains(seconds) else {
        throw .invalidSettings("HEARTH_REMOTE_PARK_AFTER \(text) is not 0 or a number of seconds from 1 to 86400")
      }
      parkAfter = seconds == 0 ? nil : .seconds(seconds)
    }
    var writesFromFacts = true
    if let text = environment["HEARTH_REMOTE_WRITES_FROM_FACTS"], !text.isEmpty {
      guard let flag = ["1": true, "true": true, "yes": true, "0": false, "false": false, "no": false][text] else {
        throw .invalidSettings("HEARTH_REMOTE_WRITES_FROM_FACTS \(text) is not 1 or 0")
      }
      writesFromFacts = flag
    }
    return RemoteSettings(
      url: url, kind: kind, model: model,
      apiKey: environment["HEARTH_REMOTE_API_KEY"].flatMap { $0.isEmpty ? nil : $0 },
      firstTokenTimeout: timeout, parkLocalAfter: parkAfter, writesFromFacts: writesFromFacts)
  }

  /// The key as it may be shown: its last four characters.
  public var maskedKey: String? {
    apiKey.map { $0.count > 8 ? "…" + $0.suffix(4) : "…" }
  }
}

/// Why a remote turn failed.
public enum RemoteError: Error, Sendable, Hashable, CustomStringConvertible {
  case invalidSettings(String)
  /// The server could not be reached or the connection broke.
  case unreachable(String)
  /// The server answered with an error.
  case server(status: Int, message: String)
  /// The stream could not be read.
  case malformed(String)

  public var description: String {
    switch self {
    case .invalidSettings(let detail): "remote provider: \(detail)"
    case .unreachable(let detail): "the remote server cannot be reached: \(detail)"
    case .server(let status, let message): "the remote server answered \(status): \(message)"
    case .malformed(let detail): "the remote server's stream is unreadable: \(detail)"
    }
  }
}
