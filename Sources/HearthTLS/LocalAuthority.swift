import Crypto
public import Foundation
import SwiftASN1
public import X509

/// The profile's own certificate authority: made once, kept in the profile's `tls` folder, trusted by the user on
/// each phone, and used only to sign this server's certificate.
///
/// Its certificate carries name constraints (RFC 5280, 4.2.1.10): it may vouch only for this machine's names and
/// the local name spaces (`localhost`, `.local`, `.lan`, `.home.arpa`, `.internal`). A phone that trusts it
/// therefore trusts nothing more should its key ever leak: no bank's or mail provider's name can be forged with it.
/// Addresses are left unconstrained: BoringSSL (under Swift's TLS, and so under a Hearth that reaches another as
/// its remote server) refuses every certificate below an authority with address constraints, and sites are
/// reached by name, not by address.
public struct LocalAuthority: Sendable {
  /// The authority's certificate, as a phone installs it.
  public let certificate: Certificate
  let key: Certificate.PrivateKey
  /// Where the certificate is kept.
  public let certificatePath: String

  /// How long a new authority lasts.
  static let lifetime: TimeInterval = 10 * 365 * 86_400

  /// The local name spaces every authority may vouch for, besides this machine's names.
  static let localDomains = ["localhost", "local", "lan", "home.arpa", "internal"]

  /// Loads the authority kept in `folder`, or makes one whose constraints admit `names` (this machine's, and the
  /// ones the user gave) when the folder holds none.
  /// - Throws: ``TLSError`` for a file that cannot be read or written, half an authority, or one that expired.
  public static func loadOrCreate(
    in folder: URL, for names: MachineNames, now: Date = Date()
  ) throws(TLSError)
    -> LocalAuthority
  {
    let certificatePath = folder.appendingPathComponent("authority.pem").path
    let keyPath = folder.appendingPathComponent("authority-key.pem").path
    let manager = FileManager.default
    switch (manager.fileExists(atPath: certificatePath), manager.fileExists(atPath: keyPath)) {
    case (true, true):
      let certificate = try PEMFiles.certificates(at: certificatePath)[0]
      let key = try PEMFiles.privateKey(at: keyPath)
      guard key.publicKey == certificate.publicKey else {
        throw .keyDoesNotMatch(certificate: certificatePath, key: keyPath)
      }
      guard certificate.notValidAfter > now else { throw .authorityExpired(path: certificatePath) }
      return LocalAuthority(certificate: certificate, key: key, certificatePath: certificatePath)
    case (true, false): throw .halfAnAuthority(present: certificatePath, missing: keyPath)
    case (false, true): throw .halfAnAuthority(present: keyPath, missing: certificatePath)
    case (false, false):
      let authority = try make(for: names, now: now, certificatePath: certificatePath)
      try PEMFiles.writeKey(authority.key, to: keyPath)
      try PEMFiles.write(certificates: [authority.certificate], to: certificatePath)
      return authority
    }
  }

  private static func make(
    for names: MachineNames, now: Date, certificatePath: String
  ) throws(TLSError)
    -> LocalAuthority
  {
    let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
    let host = MachineNames.hostName() ?? "this machine"
    do {
      let subject = try DistinguishedName {
        OrganizationName("Hearth")
        CommonName("Hearth on \(host), local authority")
      }
      let domains = localDomains + names.dnsNames.filter { name in !localDomains.contains { permits(name, $0) } }
      let extensions = try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        Critical(NameConstraints(permittedDNSDomains: domains))
        SubjectKeyIdentifier(hash: key.publicKey)
      }
      let certificate = try Certificate(
        version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
        notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(lifetime),
        issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
        issuerPrivateKey: key)
      return LocalAuthority(certificate: certificate, key: key, certificatePath: certificatePath)
    } catch {
      throw .cannotIssue(reason: String(describing: error))
    }
  }

  /// Whether the authority's constraints admit the host name or address `name`.
  public func permits(_ name: String) -> Bool {
    let constraints: NameConstraints
    do {
      // An authority without constraints vouches for any name; one whose constraints cannot be read, for none.
      guard let read = try certificate.extensions.nameConstraints else { return true }
      constraints = read
    } catch {
      return false
    }
    // A kind of name with no permitted subtree is unconstrained (RFC 5280).
    if let address = IPAddress.bytes(of: name) {
      let ranges = constraints.permittedIPRanges
      return ranges.isEmpty || ranges.contains { IPAddress.contains(range: Array($0.bytes), address) }
    }
    let domains = constraints.permittedDNSDomains
    return domains.isEmpty || domains.contains { Self.permits(name.lowercased(), $0.lowercased()) }
  }

  /// RFC 5280's rule for a DNS constraint: the name itself, or any name below it.
  static func permits(_ name: String, _ domain: String) -> Bool {
    name == domain || name.hasSuffix("." + domain)
  }

  /// The certificate as DER bytes, the form phones install (`application/x-x509-ca-cert`).
  public var derBytes: [UInt8] {
    var serializer = DER.Serializer()
    // Serializing a certificate that was parsed or built here cannot fail.
    try? serializer.serialize(certificate)
    return serializer.serializedBytes
  }

  /// The SHA-256 fingerprint of the certificate, in the colon-separated upper-case hex phones show.
  public var fingerprint: String {
    SHA256.hash(data: derBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
  }

  /// The certificate's common name.
  public var name: String {
    certificate.subject.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.flatMap {
      String($0.value)
    } ?? "Hearth local authority"
  }

  /// Signs a certificate for this server's `names`, valid for `days` from `now`.
  func issueServerCertificate(
    for names: MachineNames, key serverKey: Certificate.PrivateKey, now: Date, days: Int
  )
    throws(TLSError) -> Certificate
  {
    do {
      let host = MachineNames.hostName() ?? "this machine"
      let subject = try DistinguishedName {
        OrganizationName("Hearth")
        CommonName("Hearth on \(host)")
      }
      let alternatives =
        names.dnsNames.map { GeneralName.dnsName($0) }
        + names.addresses.compactMap(IPAddress.bytes(of:)).map {
          GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...]))
        }
      let authorityKey = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
      let extensions = try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames(alternatives)
        SubjectKeyIdentifier(hash: serverKey.publicKey)
        if let authorityKey { AuthorityKeyIdentifier(keyIdentifier: authorityKey) }
      }
      return try Certificate(
        version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: serverKey.publicKey,
        notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Double(days) * 86_400),
        issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
        issuerPrivateKey: key)
    } catch {
      throw .cannotIssue(reason: String(describing: error))
    }
  }
}
