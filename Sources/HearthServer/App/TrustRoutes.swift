import Foundation
import HearthQR
import HearthTLS
import Hummingbird
import NIOCore

/// `/ca`: how a phone comes to trust this server. The page shows a QR code of its own address on the network,
/// the local authority's fingerprint and the steps for each kind of phone; `/ca/hearth-ca.crt` is the authority's
/// certificate in the form phones install. Both hold only public data, so they need no key (a phone has none
/// yet), and they pass the `Host` and origin checks like every route.
struct TrustRoutes<Context: RequestContext>: RouteArea {
  let configuration: ServerConfiguration

  static var publicPaths: Set<String> { ["/ca", "/ca/hearth-ca.crt"] }

  var paths: [RouterPath] { ["/ca"] }

  func addRoutes(to routes: RouteCollection<Context>) {
    routes.get { request, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page(for: request.head.authority))))
    }
    routes.get("hearth-ca.crt") { _, _ in
      guard let authority = configuration.tls?.authority else {
        throw APIError(.notFound, "this server has no local certificate authority", code: "not_found")
      }
      return Response(
        status: .ok,
        headers: [
          .contentType: "application/x-x509-ca-cert",
          .contentDisposition: "attachment; filename=\"hearth-ca.crt\"",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: authority.der)))
    }
  }

  /// The address a phone on the network opens: the one this page was reached by, unless that is loopback, then
  /// the first of the certificate's local addresses (a private IPv4 address first), else its `.local` name.
  func phoneAddress(seenAs authority: String?) -> String? {
    guard !configuration.bindsLoopbackOnly, let credentials = configuration.tls, let authority else { return nil }
    let host = SecurityMiddleware<Context>.hostName(of: authority)
    let port = authority.hasSuffix("]") ? nil : authority.split(separator: ":").last.flatMap { Int($0) }
    let portText = port.map { ":\($0)" } ?? ""
    if !ServerConfiguration.isLoopback(host) {
      return "https://\(host.contains(":") ? "[\(host)]" : host)\(portText)/ca"
    }
    let addresses = credentials.names.addresses.filter { !ServerConfiguration.isLoopback($0) && $0 != "::1" }
    let privateIPv4 = addresses.first(where: Self.isHomeNetwork)
    if let chosen = privateIPv4 ?? addresses.first {
      return "https://\(chosen.contains(":") ? "[\(chosen)]" : chosen)\(portText)/ca"
    }
    return credentials.names.dnsNames.first { $0.hasSuffix(".local") }.map { "https://\($0)\(portText)/ca" }
  }

  /// Whether an address is on a home network as routers number them (RFC 1918's 192.168/16, 10/8 and 172.16/12).
  static func isHomeNetwork(_ address: String) -> Bool {
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return false }
    return parts[0] == 192 && parts[1] == 168 || parts[0] == 10 || parts[0] == 172 && (16...31).contains(parts[1])
  }

  func page(for authority: String?) -> String {
    let body: String
    if let credentials = configuration.tls, let trusted = credentials.authority {
      body = steps(trusted, names: credentials.names, address: phoneAddress(seenAs: authority))
    } else if let credentials = configuration.tls {
      body = """
        <p>This server presents the certificate you gave it, for \
        \(Self.escaped((credentials.names.dnsNames + credentials.names.addresses).joined(separator: ", "))). \
        A phone trusts it when it trusts the authority that signed it; there is nothing to install from here.</p>
        """
    } else {
      body = """
        <p>This server speaks plain HTTP. Phones refuse the microphone and app installs on plain HTTP, and an API key \
        would cross the network unencrypted. Start it with <code>hearth serve --tls</code> (and <code>--host \
        0.0.0.0</code> with an API key, to be reached from the network), then open this page again.</p>
        """
    }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Hearth: trust this server</title><link rel="stylesheet" href="/assets/trust.css"></head>
      <body><main><h1>Use Hearth from your phone</h1>\(body)</main></body></html>
      """
  }

  private func steps(_ trusted: AuthorityCertificate, names: MachineNames, address: String?) -> String {
    let open: String
    if let address {
      let typed = "<code id=\"phone-address\">\(Self.escaped(address))</code>"
      // An address too long for a code (over 213 bytes) is still given as text to type.
      let shown =
        (try? QRCode(text: address)).map {
          "<figure id=\"address-code\">\($0.svg(pixelsPerModule: 6, title: address))<figcaption>\(typed)</figcaption></figure>"
        } ?? "<p>\(typed)</p>"
      open = """
        <li><p>On the phone, scan this code with the camera, or type the address. The phone warns that the \
        connection is not private until the last step is done: that is expected, for this page only.</p>
        \(shown)</li>
        """
    } else {
      open = """
        <li><p>This server listens on this machine only. Start it with <code>--host 0.0.0.0</code> and an API \
        key to reach it from a phone on your network, then open this page again.</p></li>
        """
    }
    let scope = (names.dnsNames + names.addresses).map { "<code>\(Self.escaped($0))</code>" }.joined(separator: " ")
    return """
      <p>Hearth made its own certificate authority, <strong>\(Self.escaped(trusted.name))</strong>, for this \
      machine. A phone that trusts it reaches Hearth over HTTPS: the microphone works, the app can be installed, and \
      your key and chats are encrypted on the network. The authority may vouch only for this machine's names and \
      the local name spaces (<code>.local</code>, <code>.lan</code>, <code>.home.arpa</code>, <code>.internal</code>), \
      so it cannot stand in for any named site on the internet.</p>
      <ol>\(open)
      <li><p><a id="download-authority" href="/ca/hearth-ca.crt" download>Download the certificate</a> and check \
      that the phone shows this SHA-256 fingerprint:</p><p><code id="fingerprint">\(trusted.fingerprint)</code></p>
      <p>Compare it with this page <strong>as the computer Hearth runs on shows it</strong> (at \
      <code>https://localhost</code>, or in what <code>hearth serve</code> printed when it started), not only with \
      this page on the phone: until the last step the phone cannot tell this server from another on the network.</p></li>
      <li><p><strong>iPhone and iPad:</strong> Settings, General, VPN &amp; Device Management: install the profile. \
      Then Settings, General, About, Certificate Trust Settings: turn on full trust for it.</p>
      <p><strong>Android:</strong> Settings, Security, More security settings, Encryption &amp; credentials, Install \
      a certificate, CA certificate.</p>
      <p><strong>A computer:</strong> import it as a certificate authority in the system's or the browser's \
      certificate settings.</p></li>
      </ol>
      <p>The server's certificate is valid for: \(scope)</p>
      """
  }

  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
