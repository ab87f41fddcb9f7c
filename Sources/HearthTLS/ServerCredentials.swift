import Crypto
public import Foundation
import SwiftASN1
import X509

/// What an HTTPS server presents: its certificate chain and private key in PEM form, the names the
/// certificate is valid for, and the local authority that signed it when Hearth made it.
public struct ServerCredentials: Sendable, Hashable {
  /// The server's certificate first, then the certificates that lead to a root.
  public var certificateChainPEM: [String]
  /// The server's private key.
  public var privateKeyPEM: String
  /// The host names and addresses the certificate is valid for.
  public var names: MachineNames
  /// The authority Hearth made, which phones trust (shown at `/ca`); `nil` for a certificate the user brought.
  public var authority: AuthorityCertificate?

  /// How long a server certificate is made for: under the 398 days browsers and Apple's systems accept.
  static let serverDays = 397
  /// A server certificate is made again when it has fewer days left than this.
  static let renewalDays = 30

  /// The credentials in the profile's `folder` (its `tls` folder): the local authority (made once) and a server
  /// certificate for `machine` and `given` (the names and addresses the user asked the server to answer to),
  /// made again when a name is missing from it, when it is near its end, or when it was not signed by the
  /// authority. Addresses of this machine the authority may not vouch for are left out; a name the user gave
  /// is never left out: it is an error.
  public static func local(
    in folder: URL, machine: MachineNames = .thisMachine(), given: MachineNames, now: Date = Date()
  ) throws(TLSError) -> ServerCredentials {
    let authority = try LocalAuthority.loadOrCreate(in: folder, for: machine.merged(with: given), now: now)
    for name in given.dnsNames + given.addresses where !authority.permits(name) {
      throw .nameOutsideAuthority(name: name, authority: authority.certificatePath)
    }
    let wanted = MachineNames(
      dnsNames: (given.dnsNames + machine.dnsNames).filter(authority.permits),
      addresses: (given.addresses + machine.addresses).filter(authority.permits))
    let certificatePath = folder.appendingPathComponent("server.pem").path
    let keyPath = folder.appendingPathComponent("server-key.pem").path
    // A kept server certificate that cannot be read is simply made again: nothing trusts it but through the
    // authority.
    if let kept = try? reusable(certificatePath, keyPath, authority: authority, wanted: wanted, now: now) {
      return try credentials(kept.certificate, kept.key, authority: authority)
    }
    let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
    let certificate = try authority.issueServerCertificate(for: wanted, key: key, now: now, days: serverDays)
    try PEMFiles.writeKey(key, to: keyPath)
    try PEMFiles.write(certificates: [certificate, authority.certificate], to: certificatePath)
    return try credentials(certificate, key, authority: authority)
  }

  /// A certificate and key of the user's own (`--tls-cert`, `--tls-key`), checked to belong together.
  public static func own(
    certificate certificatePath: String, key keyPath: String
  ) throws(TLSError)
    -> ServerCredentials
  {
    let chain = try PEMFiles.certificates(at: certificatePath)
    let key = try PEMFiles.privateKey(at: keyPath)
    guard key.publicKey == chain[0].publicKey else {
      throw .keyDoesNotMatch(certificate: certificatePath, key: keyPath)
    }
    return ServerCredentials(
      certificateChainPEM: try pem(chain, path: certificatePath), privateKeyPEM: try PEMFiles.text(at: keyPath),
      names: names(in: chain[0]), authority: nil)
  }

  /// The kept server certificate, if it is still good for `wanted`.
  private static func reusable(
    _ certificatePath: String, _ keyPath: String, authority: LocalAuthority, wanted: MachineNames, now: Date
  ) throws(TLSError) -> (certificate: Certificate, key: Certificate.PrivateKey)? {
    let certificate = try PEMFiles.certificates(at: certificatePath)[0]
    let key = try PEMFiles.privateKey(at: keyPath)
    let held = names(in: certificate)
    guard key.publicKey == certificate.publicKey, certificate.issuer == authority.certificate.subject,
      authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate),
      certificate.notValidAfter > now.addingTimeInterval(Double(renewalDays) * 86_400),
      Set(wanted.dnsNames).isSubset(of: held.dnsNames),
      Set(wanted.addresses.compactMap(IPAddress.bytes(of:))).isSubset(
        of: held.addresses.compactMap(IPAddress.bytes(of:)))
    else { return nil }
    return (certificate, key)
  }

  private static func credentials(
    _ certificate: Certificate, _ key: Certificate.PrivateKey, authority: LocalAuthority
  )
    throws(TLSError) -> ServerCredentials
  {
    let keyPEM: String
    do {
      keyPEM = try key.serializeAsPEM().pemString
    } catch {
      throw .cannotIssue(reason: String(describing: error))
    }
    return ServerCredentials(
      certificateChainPEM: try pem([certificate, authority.certificate], path: authority.certificatePath),
      privateKeyPEM: keyPEM, names: names(in: certificate),
      authority: AuthorityCertificate(
        pem: try pem([authority.certificate], path: authority.certificatePath)[0], der: authority.derBytes,
        fingerprint: authority.fingerprint, name: authority.name))
  }

  private static func pem(_ certificates: [Certificate], path: String) throws(TLSError) -> [String] {
    do {
      return try certificates.map { try $0.serializeAsPEM().pemString }
    } catch {
      throw .notPEM(path: path, expected: "certificate")
    }
  }

  /// The host names and addresses in a certificate's subject alternative names.
  static func names(in certificate: Certificate) -> MachineNames {
    guard let alternatives = try? certificate.extensions.subjectAlternativeNames else { return MachineNames() }
    var dnsNames: [String] = []
    var addresses: [String] = []
    for name in alternatives {
      switch name {
      case .dnsName(let dns): dnsNames.append(dns)
      case .ipAddress(let octets): addresses.append(IPAddress.text(of: Array(octets.bytes)))
      default: continue
      }
    }
    return MachineNames(dnsNames: dnsNames, addresses: addresses)
  }
}

/// The local authority's certificate as the `/ca` page offers it.
public struct AuthorityCertificate: Sendable, Hashable {
  /// PEM text.
  public var pem: String
  /// DER bytes, which phones install.
  public var der: [UInt8]
  /// SHA-256 of the DER bytes, colon-separated upper-case hex.
  public var fingerprint: String
  /// Its common name, as a phone lists it.
  public var name: String
}
