public import Foundation

/// One HTTP request of the DAV client.
public struct DAVRequest: Sendable, Hashable {
  public var method: String
  public var url: URL
  /// Header names as written; `Authorization` is the transport's to add.
  public var headers: [String: String]
  public var body: Data?

  public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// The server's answer.
public struct DAVReply: Sendable, Hashable {
  public var status: Int
  /// Header names lower-cased.
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
  }

  /// The entity tag the server gave, as sent (quotes kept: it goes back verbatim in `If-Match`).
  public var etag: String? { headers["etag"] }
}

/// The network seam: sends one request, following no redirects, and signs it with the account's credentials.
public protocol DAVTransport: Sendable {
  /// - Throws: `DAVError.unreachable` when no answer came back.
  func send(_ request: DAVRequest) async throws(DAVError) -> DAVReply
}
