import Foundation
import HTTPTypes
import HearthCore
import HearthEngine
import Hummingbird

/// `/api/devices`: the phones and other computers paired with this profile. A trusted device (one with the key
/// or paired already) makes a short code; a new device redeems it at `/api/devices/pair`, which needs no key but
/// allows only a few wrong codes a minute, and gets a secret of its own: a cookie the page's scripts cannot read
/// (HttpOnly, SameSite=Strict, Secure over HTTPS) for a browser, a bearer token for an API client. Each device
/// can be renamed or revoked on its own; a revoked one is refused at its next request.
struct DeviceRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  /// The route a device with nothing yet calls: it passes the `Host` and origin checks, not the key's.
  static var pairingPath: String { "/api/devices/pair" }
  /// The cookie a paired browser sends. Over HTTPS it carries the `__Host-` prefix, which browsers keep only when
  /// it is `Secure`, for this host and every path, never shared with a subdomain.
  static func cookieName(secure: Bool) -> String { secure ? "__Host-hearth_device" : "hearth_device" }

  private var secure: Bool { configuration.tls != nil }

  private var devices: DeviceService { dependencies.engine.devices }

  var paths: [RouterPath] { ["/api/devices"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let current = try asking(request)
      return try AppJSON.make(DeviceList(devices: try devices.list().map { DeviceView($0, current: current) }))
    }
    router.post("codes") { request, _ in
      let input = try await RequestReader.decodeStrict(
        PairingCodeInput.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      // A code made by a paired device is tied to it: revoking that device revokes what it let in.
      let code = try devices.makePairingCode(minutes: input.minutes ?? 10, by: try asking(request))
      return try AppJSON.make(code, status: .created)
    }
    // An app password: a device added at once by a trusted one, for a calendar or contacts app (CalDAV and
    // CardDAV at /dav/) that takes a user name and a password and cannot redeem a code.
    router.post("app-passwords") { request, _ in
      let input = try await RequestReader.decodeStrict(
        AppPasswordInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let name = input.name else { throw APIError.invalidRequest("name is required", parameter: "name") }
      let added = try devices.addAppPassword(name: name, by: try asking(request))
      return try AppJSON.make(
        AppPasswordView(device: DeviceView(added.device, current: nil), password: added.secret, address: "/dav/"),
        status: .created)
    }
    router.post("pair") { request, context in
      let input = try await RequestReader.decodeStrict(
        PairingInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let code = input.code else { throw APIError.invalidRequest("code is required", parameter: "code") }
      guard let name = input.name else { throw APIError.invalidRequest("name is required", parameter: "name") }
      let client = input.client ?? "browser"
      guard ["browser", "api"].contains(client) else {
        throw APIError.invalidRequest("client must be browser or api", parameter: "client")
      }
      let paired: (device: PairedDevice, secret: String)
      do throws(DeviceError) {
        paired = try devices.pair(code: code, name: name, from: (context as? any PeerAddressContext)?.peerAddress)
      } catch {
        guard case .tooManyAttempts(let seconds) = error else { throw error }
        var answer = ErrorMapping.apiError(error)
        answer.retryAfter = seconds
        throw answer
      }
      let view = PairedView(device: DeviceView(paired.device, current: paired.device.id), token: nil)
      guard client == "browser" else {
        return try AppJSON.make(PairedView(device: view.device, token: paired.secret), status: .created)
      }
      var response = try AppJSON.make(view, status: .created)
      response.headers[.setCookie] =
        "\(Self.cookieName(secure: secure))=\(paired.secret); Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"
        + (secure ? "; Secure" : "")
      return response
    }
    router.patch(":id") { request, context in
      let id = try RouteInput.id(context, of: "device")
      let input = try await RequestReader.decodeStrict(
        DeviceInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let name = input.name else { throw APIError.invalidRequest("name is required", parameter: "name") }
      try devices.rename(id, to: name)
      return try AppJSON.make(DeviceView(try devices.find(id.uuidString), current: try asking(request)))
    }
    router.delete(":id") { _, context in
      try devices.revoke(try RouteInput.id(context, of: "device"))
      return Response(status: .noContent)
    }
  }

  /// The paired device making the request, if one is.
  private func asking(_ request: Request) throws -> UUID? {
    try Self.asking(request, secure: secure, devices: devices)
  }

  /// The paired device making `request` (its cookie or bearer token), if one is; `secure` says whether the server
  /// speaks HTTPS (the cookie's name differs).
  static func asking(_ request: Request, secure: Bool, devices: DeviceService) throws -> UUID? {
    try askingDevice(request, secure: secure, devices: devices)?.id
  }

  /// The paired device whose secret the request carries, `nil` when it carries none that is paired.
  static func askingDevice(_ request: Request, secure: Bool, devices: DeviceService) throws -> PairedDevice? {
    try secret(in: request, secure: secure).flatMap { try devices.device(holding: $0) }
  }

  /// A device's secret as the request carries it: the paired browser's cookie, or a bearer token.
  static func secret(in request: Request, secure: Bool) -> String? {
    if let bearer = SecurityMiddleware<Context>.bearerToken(request.headers[.authorization]), bearer.hasPrefix("hd_") {
      return bearer
    }
    // A calendar or contacts app sends the device's secret as its password.
    if let password = SecurityMiddleware<Context>.basicPassword(request.headers[.authorization]),
      password.hasPrefix("hd_")
    {
      return password
    }
    return cookie(cookieName(secure: secure), in: request.headers[values: .cookie])
  }

  static func cookie(_ name: String, in headers: [String]) -> String? {
    for header in headers {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
          return parts[1].trimmingCharacters(in: .whitespaces)
        }
      }
    }
    return nil
  }
}

/// `POST /api/devices/app-passwords`: the new device's name.
struct AppPasswordInput: StrictInput {
  var name: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case name }
}

/// The device an app password was made for, the password (shown once, kept only as a hash) and where the app
/// finds the calendars and contacts.
struct AppPasswordView: Encodable {
  var device: DeviceView
  var password: String
  var address: String
}

struct DeviceView: Encodable {
  var id: UUID
  var name: String
  var createdAt: Date
  var lastUsedAt: Date?
  /// Whether this is the device that asked.
  var current: Bool
  /// An app password, which reaches only the calendars and contacts.
  var isAppPassword: Bool

  init(_ device: PairedDevice, current: UUID?) {
    (id, name, createdAt, lastUsedAt) = (device.id, device.name, device.createdAt, device.lastUsedAt)
    self.current = device.id == current
    isAppPassword = device.isAppPassword
  }
}

struct DeviceList: Encodable {
  var devices: [DeviceView]
}

struct PairedView: Encodable {
  var device: DeviceView
  /// The secret, for an API client only; a browser gets it as a cookie its scripts cannot read.
  var token: String?
}

struct PairingCodeInput: StrictInput {
  var minutes: Int?
  enum CodingKeys: String, CodingKey, CaseIterable { case minutes }
}

struct PairingInput: StrictInput {
  var code: String?
  var name: String?
  /// `browser` (a cookie) or `api` (a token in the answer).
  var client: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case code, name, client }
}

struct DeviceInput: StrictInput {
  var name: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case name }
}
