public import HearthTLS

/// How `hearth serve` listens and what it lets in.
public struct ServerConfiguration: Sendable, Hashable {
  /// The address to bind; loopback unless an API key is set.
  public var host: String
  /// The port; 0 picks a free one.
  public var port: Int
  /// When set, every API route requires `Authorization: Bearer <key>`.
  public var apiKey: String?
  /// Origins allowed to call the API from a browser page of theirs (CORS). Empty: none.
  public var allowedOrigins: [String]
  /// Host names accepted in the `Host` header besides the loopback names and the bound host; guards
  /// against DNS rebinding.
  public var allowedHosts: [String]
  /// The largest request body accepted, in bytes.
  public var maxBodyBytes: Int
  /// The largest file accepted by an import route (iCalendar, vCard, Markdown), in bytes.
  public var maxImportBytes: Int
  /// The largest audio upload accepted by the transcription route, in bytes (OpenAI's limit, 25 MB, by default).
  public var maxAudioBytes = 25 << 20
  /// The longest prompt accepted, in characters, summed over a request's messages.
  public var maxPromptCharacters: Int
  /// The most requests waiting for the model at once; more are refused with 429.
  public var maxQueuedRequests: Int
  /// Whether a request naming a model that is not installed here is answered by the chosen model (as
  /// llama-server answers every name) rather than refused with `model_not_found`.
  public var answersAnyModelName = false
  /// Whether every whole chat answer carries the prompt as the model saw it (`__verbose.prompt`), as the
  /// llama.cpp server's `--verbose` does; a request's own `verbose` decides for it either way.
  public var showsPrompts = false
  /// Whether model downloads started through the API may reach this machine and private networks (a model
  /// server of the user's own); otherwise only public addresses.
  public var allowsPrivateNetworkPulls = false
  /// The certificate and key to serve HTTPS with; `nil` serves plain HTTP.
  public var tls: ServerCredentials?

  public init(
    host: String = "127.0.0.1", port: Int = 8080, apiKey: String? = nil, allowedOrigins: [String] = [],
    allowedHosts: [String] = [], maxBodyBytes: Int = 1 << 20, maxPromptCharacters: Int = 200_000,
    maxQueuedRequests: Int = 64, maxImportBytes: Int = 32 << 20
  ) {
    self.maxImportBytes = maxImportBytes
    self.host = host
    self.port = port
    self.apiKey = apiKey
    self.allowedOrigins = allowedOrigins
    self.allowedHosts = allowedHosts
    self.maxBodyBytes = maxBodyBytes
    self.maxPromptCharacters = maxPromptCharacters
    self.maxQueuedRequests = maxQueuedRequests
  }

  /// Whether `host` reaches only this machine.
  public var bindsLoopbackOnly: Bool { Self.isLoopback(host) }

  /// Whether a host name or address names this machine's loopback.
  static func isLoopback(_ host: String) -> Bool {
    ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) || host.hasPrefix("127.")
  }

  /// The scheme pages and clients reach the server with.
  public var scheme: String { tls == nil ? "http" : "https" }

  /// Checks the configuration is safe to serve.
  public func validate() throws(ServerConfigurationError) {
    guard (0...65_535).contains(port) else { throw .invalidPort(port) }
    if let apiKey, apiKey.count < 16 { throw .weakAPIKey }
    guard bindsLoopbackOnly || apiKey != nil else { throw .exposedWithoutKey(host: host) }
    guard maxBodyBytes > 0, maxPromptCharacters > 0, maxQueuedRequests > 0, maxImportBytes > 0, maxAudioBytes > 0 else {
      throw .invalidLimit
    }
  }
}

/// A configuration `hearth serve` refuses.
public enum ServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  case exposedWithoutKey(host: String)
  case weakAPIKey
  case invalidPort(Int)
  case invalidLimit
  /// The TLS library refused the certificate or key.
  case unusableCertificate(String)

  public var description: String {
    switch self {
    case .exposedWithoutKey(let host):
      "refusing to listen on \(host) without an API key: anyone on the network could read your chats; pass --api-key (or HEARTH_API_KEY) or bind 127.0.0.1"
    case .weakAPIKey: "the API key is too short; use at least 16 characters"
    case .invalidPort(let port): "invalid port \(port): expected 0 to 65535"
    case .invalidLimit: "request limits must be positive"
    case .unusableCertificate(let reason): "the certificate or key cannot be served: \(reason)"
    }
  }
}
