#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names and addresses a server certificate is made for.
public struct MachineNames: Sendable, Hashable {
  /// Host names, lower-cased.
  public var dnsNames: [String]
  /// IP addresses in their usual text form.
  public var addresses: [String]

  public init(dnsNames: [String] = [], addresses: [String] = []) {
    self.dnsNames = Self.unique(dnsNames.map { $0.lowercased() })
    self.addresses = Self.unique(addresses)
  }

  /// Sorts `names` (host names or addresses, as a user types them) into the two kinds.
  public init(mixed names: [String]) {
    let addresses = names.filter { IPAddress.bytes(of: $0) != nil }
    self.init(dnsNames: names.filter { IPAddress.bytes(of: $0) == nil }, addresses: addresses)
  }

  /// This machine as the network sees it: `localhost`, its host name (and, for a single-label name, the
  /// `.local` name phones resolve by multicast DNS), loopback, and the address of every interface that is up
  /// (link-local IPv6 left out: an address that needs a zone cannot be typed into a browser).
  public static func thisMachine() -> MachineNames {
    var names = ["localhost"]
    if let host = hostName(), !host.isEmpty, host != "localhost" {
      names.append(host)
      if !host.contains(".") { names.append(host + ".local") }
    }
    return MachineNames(dnsNames: names, addresses: ["127.0.0.1", "::1"] + interfaceAddresses())
  }

  /// Both lists, in order, each name once.
  public func merged(with other: MachineNames) -> MachineNames {
    MachineNames(dnsNames: dnsNames + other.dnsNames, addresses: addresses + other.addresses)
  }

  static func hostName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
  }

  static func interfaceAddresses() -> [String] {
    var first: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&first) == 0 else { return [] }
    defer { freeifaddrs(first) }
    var found: [String] = []
    var cursor = first
    while let entry = cursor {
      defer { cursor = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      switch Int32(address.pointee.sa_family) {
      case AF_INET:
        var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { continue }
      case AF_INET6:
        var ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
        guard inet_ntop(AF_INET6, &ipv6, &text, socklen_t(text.count)) != nil else { continue }
      default: continue
      }
      let shown = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !shown.lowercased().hasPrefix("fe80") { found.append(shown) }
    }
    return found
  }

  private static func unique(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
  }
}

/// IP addresses as bytes.
public enum IPAddress {
  /// The 4 or 16 bytes of an IPv4 or IPv6 address in text form (brackets allowed); `nil` for anything else.
  public static func bytes(of text: String) -> [UInt8]? {
    var trimmed = text
    if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") { trimmed = String(trimmed.dropFirst().dropLast()) }
    var ipv4 = in_addr()
    if inet_pton(AF_INET, trimmed, &ipv4) == 1 {
      return withUnsafeBytes(of: &ipv4) { Array($0) }
    }
    var ipv6 = in6_addr()
    if inet_pton(AF_INET6, trimmed, &ipv6) == 1 {
      return withUnsafeBytes(of: &ipv6) { Array($0) }
    }
    return nil
  }

  /// The usual text form of 4 or 16 address bytes.
  public static func text(of bytes: [UInt8]) -> String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = bytes.count == 4 ? AF_INET : AF_INET6
    guard bytes.count == 4 || bytes.count == 16, inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil
    else { return bytes.map(String.init).joined(separator: ".") }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `address` lies in the range given as network bytes followed by mask bytes (RFC 5280's form).
  static func contains(range: [UInt8], _ address: [UInt8]) -> Bool {
    guard range.count == address.count * 2 else { return false }
    let network = range.prefix(address.count)
    let mask = range.suffix(address.count)
    return zip(zip(network, mask), address).allSatisfy { pair, byte in byte & pair.1 == pair.0 & pair.1 }
  }
}
