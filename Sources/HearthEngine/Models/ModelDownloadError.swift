/// Why a model download did not install anything.
public enum ModelDownloadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not an http or https URL.
  case invalidURL(String)
  /// `--sha256` is not 64 hexadecimal digits.
  case invalidHash(String)
  /// `--name` (or the URL's file name) cannot name a model.
  case invalidName(String)
  /// The server answered with an error status.
  case httpStatus(Int, url: String)
  /// The URL redirects in a loop or more often than allowed.
  case tooManyRedirects(url: String)
  /// The transfer stopped before the end; what arrived is kept for the next attempt.
  case interrupted(received: UInt64, total: UInt64?, detail: String)
  /// The bytes do not have the promised hash; they were thrown away.
  case hashMismatch(expected: String, actual: String)
  /// The bytes are not a model llama.cpp can read; they were thrown away.
  case notAModel(String)
  /// The disk has no room for what is left to download.
  case notEnoughSpace(needed: UInt64, available: UInt64, folder: String)
  /// Another download of the same file is under way.
  case busy(file: String)
  /// A different file is installed under the same name.
  case conflict(file: String)
  /// The registry refused the new entry or cannot be written.
  case registry(ModelRegistryError)
  /// A file in the models folder cannot be written.
  case storage(path: String, detail: String)
  /// The URL (or a redirect) leads to this machine or a private network, which pulls do not reach unless
  /// the user allows it.
  case privateAddress(host: String, address: String, kind: String)
  /// The host name does not resolve.
  case unresolvable(host: String, detail: String)
  /// As many downloads as are allowed at once are under way.
  case tooManyPulls(limit: Int)
  /// A download of unknown length grew past the free space.
  case outgrewSpace(received: UInt64, available: UInt64, folder: String)

  public var description: String {
    switch self {
    case .invalidURL(let url): "\(url) is not an http:// or https:// URL"
    case .invalidHash(let hash): "--sha256 \(hash) is not 64 hexadecimal digits"
    case .invalidName(let name):
      "\(name) cannot name a model: use letters, digits, '.', '_' and '-' (at most 200 characters)"
    case .httpStatus(let status, let url): "the server answered \(status) for \(url); nothing was installed"
    case .tooManyRedirects(let url): "\(url) redirects in a loop or too many times; nothing was installed"
    case .interrupted(let received, let total, let detail):
      "the download stopped at \(received)\(total.map { " of \($0)" } ?? "") bytes (\(detail)); "
        + "what arrived is kept: run the same command again to resume"
    case .hashMismatch(let expected, let actual):
      "the downloaded file's SHA-256 is \(actual), not the expected \(expected); it was deleted and nothing was installed"
    case .notAModel(let problem): "the downloaded file is not a usable GGUF model (\(problem)); nothing was installed"
    case .notEnoughSpace(let needed, let available, let folder):
      "not enough free space in \(folder): \(needed) more bytes are needed, \(available) are free"
    case .busy(let file): "another download of \(file) is under way"
    case .conflict(let file):
      "a different model file is already installed as \(file); remove it (`hearth models rm`) or choose another --name"
    case .registry(let error): error.description
    case .storage(let path, let detail): "cannot write \(path): \(detail)"
    case .privateAddress(let host, let address, let kind):
      "\(host) is a \(kind) address (\(address)); pulls reach only public servers unless private networks are "
        + "allowed (--allow-private-network)"
    case .unresolvable(let host, let detail): "\(host) cannot be found (\(detail)); nothing was installed"
    case .tooManyPulls(let limit): "\(limit) downloads are under way, the most at once; try again when one ends"
    case .outgrewSpace(let received, let available, let folder):
      "the download, of no stated length, passed \(received) bytes with \(available) free in \(folder); "
        + "what arrived is kept"
    }
  }
}
