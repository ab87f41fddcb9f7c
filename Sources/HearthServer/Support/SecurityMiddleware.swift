import Foundation
import HTTPTypes
import HearthCore
import HearthEngine
import Hummingbird

/// The checks every request passes before any route sees it: the `Host` header names this server (DNS
/// rebinding), cross-origin calls come only from listed origins, and, when a key is set, the request carries
/// it or the secret of a paired device (its cookie, or its bearer token). The CORS headers and preflight answers for listed origins are Hummingbird's `CORSMiddleware`,
/// which runs next; a same-origin call loses its `Origin` header here so that it gets none.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
  let configuration: ServerConfiguration
  /// The paired devices, whose secrets are accepted beside the key.
  let devices: DeviceService

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws
    -> Response
  {
    guard hostIsAllowed(request.head.authority) else {
      throw APIError(.misdirectedRequest, "this server does not answer for that host name", code: "host_not_allowed")
    }
    var request = request
    if let origin = request.headers[.origin] {
      if isSameOrigin(origin, authority: request.head.authority) {
        var head = request.head
        head.headerFields[.origin] = nil
        request = Request(head: head, body: request.body)
      } else if !configuration.allowedOrigins.contains(origin) {
        throw APIError(.forbidden, "cross-origin requests from \(origin) are not allowed", code: "origin_not_allowed")
      }
    }
    // A browser's preflight never carries credentials; it is answered by the CORS middleware.
    let isPreflight = request.method == .options && request.headers[.origin] != nil
    if !isPreflight, requiresKey(request.uri.path, method: request.method), let key = configuration.apiKey {
      // Anthropic's clients send the key as `x-api-key`; a calendar or contacts app as the password of HTTP
      // Basic authentication; every other client as a bearer token.
      let given =
        Self.bearerToken(request.headers[.authorization]) ?? request.headers[.apiKey]
        ?? Self.basicPassword(request.headers[.authorization])
      let keyMatches = given.map { constantTimeEquals($0, key) } == true
      // A device's secret is looked up by its hash, so its check takes the same time whatever it holds.
      let device =
        keyMatches
        ? nil : try DeviceRoutes<Context>.askingDevice(request, secure: configuration.tls != nil, devices: devices)
      guard keyMatches || device != nil else {
        throw APIError(
          .unauthorized, "a valid API key is required (Authorization: Bearer …, or x-api-key)", code: "invalid_api_key")
      }
      // An app password lives in a calendar app's settings: it reaches the calendars and contacts, nothing else.
      if device?.isAppPassword == true, !Self.isCalendarRoute(request) {
        throw APIError(
          .forbidden, "an app password reaches only the calendars and contacts (/dav/)", code: "app_password_scope")
      }
    }
    return try await next(request, context)
  }

  /// The CalDAV and CardDAV routes, with the root's `PROPFIND` that leads a calendar app to them.
  static func isCalendarRoute(_ request: Request) -> Bool {
    DAVPath.applies(to: request.uri.path) || (request.uri.path == "/" && request.method.rawValue == "PROPFIND")
  }

  /// The web app's page and assets, the health check and the page that helps a phone trust this server
  /// (`/ca`, with the authority's public certificate) carry no data; everything else, whatever name it answers to
  /// (`/v1/…`, the llama.cpp server's root aliases, `/api/…`, `/metrics`), needs the key.
  private func requiresKey(_ path: String, method: HTTPRequest.Method) -> Bool {
    // `/` answers a calendar app's PROPFIND with the user's principal, which needs the key like any DAV route.
    !((path == "/" && (method == .get || method == .head)) || path == "/health" || path.hasPrefix("/assets/")
      || Self.topLevelAssets.contains(path)
      || TrustRoutes<Context>.publicPaths.contains(path)
      || (path == DeviceRoutes<Context>.pairingPath && method == .post))
  }

  /// The app's files a browser looks for at the top: the manifest and icon an install reads, and the service
  /// worker, which a page with no key yet must be able to register.
  static var topLevelAssets: Set<String> { ["/manifest.webmanifest", "/apple-touch-icon.png", "/sw.js"] }

  /// Behind a network bind every request carries the key, so a rebound name gains nothing; on loopback
  /// the name must be one of ours.
  private func hostIsAllowed(_ authority: String?) -> Bool {
    guard let authority else { return false }
    let host = Self.hostName(of: authority)
    let allowed = ["localhost", "127.0.0.1", "::1", configuration.host] + configuration.allowedHosts
    return allowed.contains { $0.lowercased() == host }
      || (!configuration.bindsLoopbackOnly && configuration.apiKey != nil)
  }

  private func isSameOrigin(_ origin: String, authority: String?) -> Bool {
    guard let authority else { return false }
    // Served over TLS, a page of the same origin is an https one; served plainly, it may sit behind a proxy
    // that speaks TLS to the browser.
    return origin == "https://\(authority)" || (configuration.tls == nil && origin == "http://\(authority)")
  }

  static func hostName(of authority: String) -> String {
    let lowered = authority.lowercased()
    if lowered.hasPrefix("[") {
      return String(lowered.dropFirst().prefix { $0 != "]" })
    }
    return String(lowered.split(separator: ":", maxSplits: 1).first ?? "")
  }

  /// The password of HTTP Basic authentication (`Basic base64(user:password)`); the user name is not checked.
  static func basicPassword(_ header: String?) -> String? {
    guard let header, header.lowercased().hasPrefix("basic ") else { return nil }
    let encoded = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
    guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
      let colon = text.firstIndex(of: ":")
    else { return nil }
    return String(text[text.index(after: colon)...])
  }

  static func bearerToken(_ header: String?) -> String? {
    guard let header, header.lowercased().hasPrefix("bearer ") else { return nil }
    return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
  }

  private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let left = Array(a.utf8)
    let right = Array(b.utf8)
    var difference = UInt8(left.count == right.count ? 0 : 1)
    for index in 0..<max(left.count, right.count) {
      difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
    }
    return difference == 0
  }
}

/// Headers every response carries: the page may run only its own scripts and load nothing remote, so
/// model output rendered in it can neither run code nor fetch images.
struct ContentSecurityMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws
    -> Response
  {
    var response = try await next(request, context)
    response.headers[.contentSecurityPolicy] =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    response.headers[.xContentTypeOptions] = "nosniff"
    response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
    return response
  }
}

extension HTTPField.Name {
  /// The header Anthropic's clients send their key in.
  static let apiKey = HTTPField.Name("x-api-key")!
}
