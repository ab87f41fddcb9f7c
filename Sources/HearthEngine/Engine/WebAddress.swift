import Foundation

extension URL {
  /// `text` read as a web address: an `http` or `https` URL (either case) naming a host, or `nil`.
  ///
  /// The one test every setting that takes a server's address applies (remote server, web search, accounts,
  /// model downloads, tool servers), so that each refuses the same things: no scheme, another scheme, no host.
  init?(webAddress text: String) {
    guard let url = URL(string: text), url.isWebAddress else { return nil }
    self = url
  }

  /// Whether this is an `http` or `https` URL (either case) naming a host.
  var isWebAddress: Bool {
    guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
    return host?.isEmpty == false
  }
}
