import AsyncHTTPClient
import Foundation
import HearthTLS
import HearthTestSupport
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

@testable import HearthServer

/// `hearth serve` over HTTPS: the app the server runs, on a real socket, reached by a client that trusts only the
/// profile's own authority; and the `/ca` page that helps a phone come to trust it.
@Suite("HTTPS and the page that helps a phone trust the server", .heavy)
struct TLSServingTests {
  static let key = "tls-test-key-0123456789"

  static func credentials() throws -> ServerCredentials {
    try ServerCredentials.local(
      in: TestModels.temporaryDirectory().appendingPathComponent("tls"),
      machine: MachineNames(
        dnsNames: ["localhost", "hearthbox.local"], addresses: ["127.0.0.1", "::1", "192.168.1.20"]),
      given: MachineNames(mixed: ["phone.hearth.test"]))
  }

  /// A client that trusts the given authority alone (`nil`: the system's usual roots).
  /// A refused handshake is tried again until the connect timeout ends, so the refusing client's is short.
  static func client(trusting authority: AuthorityCertificate?) throws -> HTTPClient {
    var tls = TLSConfiguration.makeClientConfiguration()
    if let authority {
      tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(authority.pem.utf8), format: .pem)])
    }
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
    configuration.timeout = .init(connect: .seconds(authority == nil ? 2 : 10), read: .seconds(30))
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  static func get(_ client: HTTPClient, _ url: String, key: String? = nil) async throws -> (Int, [UInt8], String?) {
    var request = HTTPClientRequest(url: url)
    if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
    let response = try await client.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), Array(body.readableBytesView), response.headers.first(name: "Content-Type"))
  }

  @Test func aClientThatTrustsTheLocalAuthorityGetsThroughAndNoOtherDoes() async throws {
    let credentials = try Self.credentials()
    let authority = try #require(credentials.authority)
    var configuration = ServerConfiguration(host: "0.0.0.0", port: 0, apiKey: Self.key)
    configuration.tls = credentials
    let trusting = try Self.client(trusting: authority)
    let usual = try Self.client(trusting: nil)
    var failure: (any Error)?
    do {
      try await checks(configuration, authority, trusting, usual)
    } catch {
      failure = error
    }
    try await trusting.shutdown()
    try await usual.shutdown()
    if let failure { throw failure }
  }

  private func checks(
    _ configuration: ServerConfiguration, _ authority: AuthorityCertificate, _ trusting: HTTPClient,
    _ usual: HTTPClient
  ) async throws {
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      let base = "https://127.0.0.1:\(server.port)"
      #expect(try await Self.get(trusting, base + "/health").0 == 200)
      #expect(try await Self.get(trusting, "https://localhost:\(server.port)/health").0 == 200)
      // Behind TLS the key is still asked for, and still enough.
      #expect(try await Self.get(trusting, base + "/api/sessions").0 == 401)
      #expect(try await Self.get(trusting, base + "/api/sessions", key: Self.key).0 == 200)
      // A client with only the usual roots refuses the server: nothing here turns certificate checks off.
      await #expect(throws: (any Error).self) { _ = try await Self.get(usual, base + "/health") }
      // Plain HTTP to the TLS port gets no answer.
      await #expect(throws: (any Error).self) {
        _ = try await Self.get(trusting, "http://127.0.0.1:\(server.port)/health")
      }

      // The page and the authority's certificate need no key: a phone has none yet.
      let (status, page, type) = try await Self.get(trusting, base + "/ca")
      let text = String(decoding: page, as: UTF8.self)
      #expect(status == 200 && type?.hasPrefix("text/html") == true)
      #expect(text.contains(authority.fingerprint) && text.contains("<svg"))
      // Reached by loopback, the page shows the address a phone on the network opens.
      #expect(text.contains("<code id=\"phone-address\">https://192.168.1.20:\(server.port)/ca</code>"))
      let named = try await Self.get(trusting, "https://localhost:\(server.port)/ca")
      #expect(String(decoding: named.1, as: UTF8.self).contains("https://192.168.1.20:\(server.port)/ca"))
      let (certificateStatus, der, certificateType) = try await Self.get(trusting, base + "/ca/hearth-ca.crt")
      #expect(certificateStatus == 200 && der == authority.der && certificateType == "application/x-x509-ca-cert")
    }
  }

  @Test func withoutHTTPSOrWithACertificateOfTheUsersOwnThePageSaysSo() async throws {
    try await LiveServer.inProcess { server in
      let page = try await server.request(.GET, "/ca")
      #expect(page.status == 200 && page.body.contains("hearth serve --tls") && !page.body.contains("<svg"))
      #expect(try await server.request(.GET, "/ca/hearth-ca.crt").status == 404)
    }
    var own = try Self.credentials()
    own.authority = nil
    var configuration = ServerConfiguration(port: 0)
    configuration.tls = own
    try await LiveServer.inProcess(configuration: configuration) { server in
      let page = try await server.request(.GET, "/ca")
      #expect(page.body.contains("the certificate you gave it") && page.body.contains("phone.hearth.test"))
      #expect(try await server.request(.GET, "/ca/hearth-ca.crt").status == 404)
    }
  }

  @Test func aKeyThatIsNotTheCertificatesIsRefusedBeforeServing() throws {
    var mismatched = try Self.credentials()
    mismatched.privateKeyPEM = try Self.credentials().privateKeyPEM
    #expect(throws: ServerConfigurationError.self) { _ = try mismatched.serverTLSConfiguration() }
    #expect(throws: Never.self) { _ = try Self.credentials().serverTLSConfiguration() }
  }
}
