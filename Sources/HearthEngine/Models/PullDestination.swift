public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a model pull may connect. A pull is a request the server makes on a client's behalf, so by default
/// it reaches only public addresses: never this machine, the local network, or a cloud's metadata service
/// (169.254.169.254), neither directly nor through a redirect. The user can allow private networks for a
/// model server of their own.
public struct PullDestination: Sendable {
  /// Whether loopback, private and link-local addresses are allowed.
  public var allowsPrivateNetwork: Bool
  /// The addresses a host name resolves to.
  var resolve: @Sendable (String) async throws(ModelDownloadError) -> [String]

  public init(allowsPrivateNetwork: Bool) {
    self.allowsPrivateNetwork = allowsPrivateNetwork
    self.resolve = Self.systemResolve
  }

  init(
    allowsPrivateNetwork: Bool, resolve: @escaping @Sendable (String) async throws(ModelDownloadError) -> [String]
  ) {
    self.allowsPrivateNetwork = allowsPrivateNetwork
    self.resolve = resolve
  }

  /// Checks `url` may be fetched: an http(s) URL whose host resolves only to allowed addresses.
  /// - Throws: ``ModelDownloadError/invalidURL(_:)`` or ``ModelDownloadError/privateAddress(host:address:kind:)``.
  public func check(_ url: URL) async throws(ModelDownloadError) {
    guard url.isWebAddress, let host = url.host else { throw .invalidURL(url.absoluteString) }
    guard !allowsPrivateNetwork else { return }
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    if bare.lowercased() == "localhost" || bare.lowercased().hasSuffix(".localhost") {
      throw .privateAddress(host: host, address: bare, kind: "loopback")
    }
    for address in try await resolve(bare) {
      if let kind = Self.restrictedKind(of: address) {
        throw .privateAddress(host: host, address: address, kind: kind)
      }
    }
  }

  /// What kind of non-public address `address` (a numeric IPv4 or IPv6 address) is, or `nil` for a public one.
  static func restrictedKind(of address: String) -> String? {
    var v4 = in_addr()
    if inet_pton(AF_INET, address, &v4) == 1 {
      return restrictedKind(ipv4: withUnsafeBytes(of: v4) { Array($0) })
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, address, &v6) == 1 else { return "unreadable" }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes[0..<15].allSatisfy({ $0 == 0 }) { return bytes[15] == 1 ? "loopback" : "unspecified" }
    // An IPv4 address written as IPv6 (::ffff:a.b.c.d) or through NAT64 (64:ff9b::a.b.c.d) is judged as IPv4.
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
      || bytes[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
    {
      return restrictedKind(ipv4: Array(bytes[12..<16]))
    }
    switch (bytes[0], bytes[1] & 0xC0) {
    case (0xFE, 0x80): return "link-local"
    case (0xFE, 0xC0): return "site-local"
    default: break
    }
    if bytes[0] & 0xFE == 0xFC { return "private (unique local)" }
    if bytes[0] == 0xFF { return "multicast" }
    return nil
  }

  private static func restrictedKind(ipv4 bytes: [UInt8]) -> String? {
    switch (bytes[0], bytes[1]) {
    case (127, _): return "loopback"
    case (10, _), (172, 16...31), (192, 168): return "private"
    case (169, 254): return "link-local"
    case (100, 64...127): return "shared (carrier-grade NAT)"
    case (0, _): return "unspecified"
    case (224...239, _): return "multicast"
    case (240...255, _): return "reserved"
    default: return nil
    }
  }

  /// The system resolver, off the cooperative pool (it blocks).
  private static let systemResolve: @Sendable (String) async throws(ModelDownloadError) -> [String] = { host in
    let result: Result<[String], ModelDownloadError> = await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: addresses(of: host)) }
    }
    return try result.get()
  }

  private static func string(_ text: [CChar]) -> String {
    String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func addresses(of host: String) -> Result<[String], ModelDownloadError> {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
    hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, nil, &hints, &list)
    guard status == 0, let first = list else {
      return .failure(.unresolvable(host: host, detail: String(cString: gai_strerror(status))))
    }
    defer { freeaddrinfo(first) }
    var found: [String] = []
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let entry = next?.pointee {
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      if entry.ai_family == AF_INET, let socket = entry.ai_addr {
        var address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        found.append(Self.string(text))
      } else if entry.ai_family == AF_INET6, let socket = entry.ai_addr {
        var address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
        inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        found.append(Self.string(text))
      }
      next = entry.ai_next
    }
    return found.isEmpty ? .failure(.unresolvable(host: host, detail: "no addresses")) : .success(found)
  }
}
