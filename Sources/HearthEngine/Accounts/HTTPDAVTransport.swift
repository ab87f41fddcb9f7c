import AsyncHTTPClient
import Foundation
public import HearthDAV
import NIOCore
import NIOHTTP1

/// The DAV client's requests over AsyncHTTPClient: Basic authentication with the account's app password,
/// TLS verified by the system's roots, no redirects followed (the client follows those it expects itself),
/// and bodies capped so a misbehaving server cannot fill memory.
public final class HTTPDAVTransport: DAVTransport {
  /// The largest answer read (a multiget of 100 members with attachments stays far below).
  static let maximumBody = 64 * 1024 * 1024

  private let client: HTTPClient
  private let authorization: String

  public init(username: String, password: String) {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    authorization = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
  }

  /// Runs `body` with a transport for this account and shuts its connections down after.
  static func using<Result: Sendable>(
    username: String, password: String, _ body: (HTTPDAVTransport) async throws -> Result
  ) async throws -> Result {
    let transport = HTTPDAVTransport(username: username, password: password)
    do {
      let result = try await body(transport)
      await transport.shutdown()
      return result
    } catch {
      await transport.shutdown()
      throw error
    }
  }

  public func send(_ request: DAVRequest) async throws(DAVError) -> DAVReply {
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = HTTPMethod(rawValue: request.method)
    outgoing.headers.add(name: "Authorization", value: authorization)
    outgoing.headers.add(name: "User-Agent", value: "Hearth")
    for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
    if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
    do {
      let response = try await client.execute(outgoing, timeout: .seconds(120))
      let body = try await response.body.collect(upTo: Self.maximumBody)
      var headers: [String: String] = [:]
      for header in response.headers { headers[header.name.lowercased()] = header.value }
      return DAVReply(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    } catch {
      throw .unreachable(url: Self.hostOnly(request.url), reason: Self.reason(error))
    }
  }

  public func shutdown() async {
    do {
      try await client.shutdown()
    } catch {
      // Nothing to release any more: the client was already shut down.
    }
  }

  static func hostOnly(_ url: URL) -> String {
    "\(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
  }

  static func reason(_ error: any Error) -> String {
    if let error = error as? HTTPClientError { return "\(error)" }
    return String(describing: error)
  }
}
