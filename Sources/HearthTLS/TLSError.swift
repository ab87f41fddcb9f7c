/// Why `hearth serve` could not set up HTTPS; each case names the file or the name at fault and what to do.
public enum TLSError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A file could not be read.
  case unreadable(path: String, reason: String)
  /// A file holds no certificate, or no private key, in PEM form.
  case notPEM(path: String, expected: String)
  /// The private key is not the key of the certificate beside it.
  case keyDoesNotMatch(certificate: String, key: String)
  /// One half of the local authority is there and the other is not; neither is replaced.
  case halfAnAuthority(present: String, missing: String)
  /// A name the server was asked to answer to lies outside what the local authority may vouch for.
  case nameOutsideAuthority(name: String, authority: String)
  /// The local authority's certificate has run out.
  case authorityExpired(path: String)
  /// A file could not be written.
  case cannotWrite(path: String, reason: String)
  /// A certificate could not be made.
  case cannotIssue(reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    case .notPEM(let path, let expected): "\(path) holds no \(expected) in PEM form"
    case .keyDoesNotMatch(let certificate, let key):
      "the private key in \(key) does not belong to the certificate in \(certificate)"
    case .halfAnAuthority(let present, let missing):
      "\(present) is there but \(missing) is not; Hearth will not replace a certificate authority your devices may "
        + "trust. Restore the missing file, or remove both to make a new authority (every phone must then trust it again)"
    case .nameOutsideAuthority(let name, let authority):
      "the local certificate authority (\(authority)) may only vouch for this machine's own names and the local "
        + "name spaces (.local, .lan, .home.arpa, .internal), and \(name) is not among them: remove the folder it is in to make a new authority (every phone "
        + "must then trust it again), or bring your own certificate with --tls-cert and --tls-key"
    case .authorityExpired(let path):
      "the local certificate authority in \(path) has expired: remove its folder to make a new one (every phone must "
        + "then trust it again)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    case .cannotIssue(let reason): "cannot make a certificate: \(reason)"
    }
  }
}
