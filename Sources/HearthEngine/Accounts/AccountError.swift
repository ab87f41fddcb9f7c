import HearthCore
public import HearthDAV

/// Why an account could not be added, found or synced.
public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No account has this name.
  case notFound(String)
  /// An account has this name already.
  case nameTaken(String)
  /// The URL is not http(s).
  case badURL(String)
  /// A URL with a user name or password in it (they go in --user and the password file).
  case credentialsInURL
  /// Plain http to another machine, without the flag that accepts the risk.
  case plainHTTP(host: String)
  /// The password file could not be read, or is empty.
  case password(String)
  /// The server's answer, for this account.
  case server(account: String, DAVError)

  public var description: String {
    switch self {
    case .notFound(let name): "no account named \(name) (see hearth accounts list)"
    case .nameTaken(let name): "an account named \(name) exists already; choose another --name"
    case .badURL(let text): "\(text) is not an http:// or https:// URL"
    case .credentialsInURL:
      "the URL holds a user name or password: give the user with --user and the password in a file (--password-file)"
    case .plainHTTP(let host):
      "\(host) is reached over plain http, so the password would cross the network unencrypted; use https, "
        + "or pass --allow-plain-http if this network is yours and you accept that risk"
    case .password(let detail): "password: \(detail)"
    case .server(let account, let error): "account \(account): \(error)"
    }
  }
}
