import Crypto
import Foundation
import SwiftASN1
import Testing
@_spi(FixedExpiryValidationTime) import X509

@testable import HearthTLS

/// The profile's certificate authority and the server certificate it signs, checked with swift-certificates'
/// own RFC 5280 verifier (the browser test checks the same files with Chromium).
@Suite("HTTPS credentials")
struct ServerCredentialsTests {
  static let machine = MachineNames(
    dnsNames: ["localhost", "hearthbox", "hearthbox.local"],
    addresses: ["127.0.0.1", "::1", "192.168.1.20", "203.0.113.7"])

  static func folder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tls-\(UUID().uuidString)/tls")
  }

  static func chain(_ credentials: ServerCredentials) throws -> [Certificate] {
    try credentials.certificateChainPEM.map { try Certificate(pemEncoded: $0) }
  }

  /// Whether the chain's first certificate verifies for `host` (a name or an address) under the chain's root.
  static func verifies(_ chain: [Certificate], for host: String, at time: Date = Date()) async -> Bool {
    let isAddress = IPAddress.bytes(of: host) != nil
    var verifier = Verifier(rootCertificates: CertificateStore([chain.last!])) {
      RFC5280Policy(fixedExpiryValidationTime: time)
      ServerIdentityPolicy(serverHostname: isAddress ? nil : host, serverIP: isAddress ? host : nil)
    }
    let result = await verifier.validate(leaf: chain[0], intermediates: CertificateStore())
    if case .validCertificate = result { return true }
    return false
  }

  @Test func theServerCertificateVerifiesForThisMachinesNamesAndTheNamesGiven() async throws {
    let credentials = try ServerCredentials.local(
      in: Self.folder(), machine: Self.machine, given: MachineNames(mixed: ["phone.hearth.test"]))
    let chain = try Self.chain(credentials)
    #expect(chain.count == 2)
    for host in ["hearthbox.local", "localhost", "phone.hearth.test", "192.168.1.20", "127.0.0.1", "::1"] {
      #expect(await Self.verifies(chain, for: host), "\(host)")
    }
    #expect(!(await Self.verifies(chain, for: "bank.example")))
    #expect(!(await Self.verifies(chain, for: "192.168.1.21")))
    // Far past its 397 days, the certificate is refused.
    #expect(!(await Self.verifies(chain, for: "hearthbox.local", at: Date().addingTimeInterval(400 * 86_400))))
    let authority = try #require(credentials.authority)
    #expect(authority.fingerprint.count == 32 * 3 - 1 && authority.name.contains("local authority"))
  }

  @Test func theAuthorityCannotVouchForAnotherSiteEvenWithItsOwnKey() async throws {
    let folder = Self.folder()
    _ = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    let authority = try LocalAuthority.loadOrCreate(in: folder, for: MachineNames())
    #expect(authority.permits("printer.lan") && authority.permits("hearthbox") && authority.permits("x.home.arpa"))
    #expect(
      !authority.permits("bank.example") && !authority.permits("mail.example.com") && !authority.permits("lan.com"))
    // Addresses are not constrained (BoringSSL refuses address constraints); sites are reached by name.
    #expect(authority.permits("10.1.2.3") && authority.permits("fd00::5"))
    // A certificate for a bank, signed with the authority's own key, still fails the name constraints.
    let forged = try authority.issueServerCertificate(
      for: MachineNames(dnsNames: ["bank.example"]), key: Certificate.PrivateKey(P256.Signing.PrivateKey()),
      now: Date(), days: 30)
    #expect(!(await Self.verifies([forged, authority.certificate], for: "bank.example")))
  }

  @Test func theAuthorityIsMadeOnceAndTheServerCertificateOnlyWhenItMustBe() throws {
    let folder = Self.folder()
    let first = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    let again = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    #expect(again == first)
    // A new name the authority admits: a new server certificate from the same authority.
    let named = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames(mixed: ["tv.lan"]))
    #expect(named.authority == first.authority)
    #expect(named.certificateChainPEM[0] != first.certificateChainPEM[0] && named.names.dnsNames.contains("tv.lan"))
    // Near the end of its 397 days, it is made again.
    let later = try ServerCredentials.local(
      in: folder, machine: Self.machine, given: MachineNames(mixed: ["tv.lan"]),
      now: Date().addingTimeInterval(380 * 86_400))
    #expect(later.authority == first.authority && later.certificateChainPEM[0] != named.certificateChainPEM[0])
    // A name of this machine the authority does not admit (the machine was renamed) is left out, not refused.
    let renamed = MachineNames(dnsNames: ["localhost", "newname"], addresses: Self.machine.addresses)
    let kept = try ServerCredentials.local(in: folder, machine: renamed, given: MachineNames())
    #expect(!kept.names.dnsNames.contains("newname") && kept.names.dnsNames.contains("localhost"))
  }

  @Test func keysAreTheOwnersAlone() throws {
    let folder = Self.folder()
    _ = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    func permissions(_ name: String) throws -> Int {
      let path = name.isEmpty ? folder.path : folder.appendingPathComponent(name).path
      return try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
    #expect(try permissions("") == 0o700)
    #expect(try permissions("authority-key.pem") == 0o600)
    #expect(try permissions("server-key.pem") == 0o600)
    #expect(try permissions("authority.pem") == 0o644)
  }

  @Test func aNameTheAuthorityMayNotVouchForIsRefusedByName() throws {
    let folder = Self.folder()
    _ = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    #expect {
      try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames(mixed: ["hearth.example.com"]))
    } throws: { error in
      guard case TLSError.nameOutsideAuthority(let name, let path) = error else { return false }
      return name == "hearth.example.com" && path.hasSuffix("tls/authority.pem")
        && String(describing: error).contains("--tls-cert")
    }
  }

  @Test func aDamagedOrHalfAuthorityIsNeverReplaced() throws {
    let folder = Self.folder()
    _ = try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    let certificate = folder.appendingPathComponent("authority.pem")
    let key = folder.appendingPathComponent("authority-key.pem")
    let keyBytes = try Data(contentsOf: key)
    try Data("not a certificate\n".utf8).write(to: certificate)
    #expect(throws: TLSError.notPEM(path: certificate.path, expected: "certificate")) {
      try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    }
    #expect(try Data(contentsOf: certificate) == Data("not a certificate\n".utf8))
    try FileManager.default.removeItem(at: certificate)
    #expect(throws: TLSError.halfAnAuthority(present: key.path, missing: certificate.path)) {
      try ServerCredentials.local(in: folder, machine: Self.machine, given: MachineNames())
    }
    #expect(try Data(contentsOf: key) == keyBytes)
  }

  @Test func aCertificateOfTheUsersOwnIsCheckedAgainstItsKey() throws {
    let mine = Self.folder()
    let other = Self.folder()
    _ = try ServerCredentials.local(in: mine, machine: Self.machine, given: MachineNames())
    _ = try ServerCredentials.local(in: other, machine: Self.machine, given: MachineNames())
    let certificate = mine.appendingPathComponent("server.pem").path
    let own = try ServerCredentials.own(
      certificate: certificate, key: mine.appendingPathComponent("server-key.pem").path)
    #expect(own.authority == nil && own.certificateChainPEM.count == 2 && own.names.dnsNames.contains("hearthbox"))
    let wrongKey = other.appendingPathComponent("server-key.pem").path
    #expect(throws: TLSError.keyDoesNotMatch(certificate: certificate, key: wrongKey)) {
      try ServerCredentials.own(certificate: certificate, key: wrongKey)
    }
    #expect(throws: TLSError.self) { try ServerCredentials.own(certificate: "/nonexistent/cert.pem", key: wrongKey) }
  }
}
