import AsyncHTTPClient
import Crypto
public import Foundation
public import HearthCore
import HearthPush
public import HearthStore
import HearthTLS
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Notifications that reach a browser even when no Hearth page is open (Web Push): browsers subscribe through
/// the push service they chose, and Hearth sends each notice to every subscription, encrypted for it (RFC 8291)
/// and signed with the profile's own key (VAPID, RFC 8292). Only a title, a line and the page to open leave the
/// machine, and only to those push services.
public final class PushService: Sendable {
  private let database: HearthDatabase
  private let keyFile: URL
  private let clock: @Sendable () -> Date
  private let logger: Logger
  private let vapid = Mutex<VAPID?>(nil)
  private let privateNetwork = Mutex(false)

  /// Who runs this sender, for the push services' operators (RFC 8292 asks for a contact).
  static let subject = "mailto:hearth@localhost"

  init(database: HearthDatabase, folder: URL, clock: @escaping @Sendable () -> Date, logger: Logger) {
    self.database = database
    self.keyFile = folder.appendingPathComponent("vapid-key.pem")
    self.clock = clock
    self.logger = logger
  }

  /// Lets subscriptions point at loopback and private addresses (a push service of the user's own, or a test's);
  /// otherwise only public https addresses are sent to.
  public func allowPrivateNetwork(_ allowed: Bool) { privateNetwork.withLock { $0 = allowed } }

  /// The profile's VAPID key, made once and kept readable by the user alone. Loading and making happen under one
  /// lock, so two first pushes at once cannot make two keys.
  func signer() throws(PushError) -> VAPID {
    try vapid.withLock { (loaded: inout VAPID?) throws(PushError) -> VAPID in
      if let loaded { return loaded }
      let signer = VAPID(key: try loadOrMakeKey(), subject: Self.subject)
      loaded = signer
      return signer
    }
  }

  private func loadOrMakeKey() throws(PushError) -> P256.Signing.PrivateKey {
    do {
      if FileManager.default.fileExists(atPath: keyFile.path) {
        return try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOf: keyFile, encoding: .utf8))
      }
      let key = P256.Signing.PrivateKey()
      try ProtectedFile.write(Data(key.pemRepresentation.utf8), to: keyFile.path, permissions: 0o600)
      return key
    } catch {
      throw .key("\(keyFile.path): \(error)")
    }
  }

  /// The key a browser subscribes with (`applicationServerKey`).
  public func publicKey() throws(PushError) -> String { try signer().publicKey }

  /// Keeps a browser's subscription, after checking its address may be sent to and its keys are well formed.
  /// `device` is the paired device subscribing, if one is: revoking it forgets the subscription.
  public func subscribe(
    endpoint: String, receiverKey: String, authSecret: String, expiresAt: Date? = nil, device: UUID? = nil
  ) async throws(PushError) {
    if let expiresAt, expiresAt <= clock() { throw .expired }
    try await check(endpoint)
    guard let key = Base64URL.decode(receiverKey), Self.isPublicKey(key) else {
      throw .badKeys("keys.p256dh must be a P-256 public key, base64url")
    }
    guard let secret = Base64URL.decode(authSecret), secret.count == 16 else {
      throw .badKeys("keys.auth must be 16 bytes, base64url")
    }
    let sender = try publicKey()
    do {
      try database.savePushSubscription(
        PushSubscription(
          endpoint: endpoint, receiverKey: Data(key), authSecret: Data(secret), createdAt: clock(),
          expiresAt: expiresAt,
          deviceID: device, senderKey: sender))
    } catch {
      throw .store(error)
    }
  }

  private static func isPublicKey(_ bytes: [UInt8]) -> Bool {
    do {
      _ = try P256.KeyAgreement.PublicKey(x963Representation: bytes)
      return true
    } catch {
      return false
    }
  }

  /// Forgets the subscription at `endpoint`; `false` when there was none.
  public func unsubscribe(endpoint: String) throws(PushError) -> Bool {
    do { return try database.removePushSubscription(endpoint: endpoint) } catch { throw .store(error) }
  }

  /// How many subscriptions there are.
  public func subscriptionCount() throws(PushError) -> Int {
    do { return try database.pushSubscriptions().count } catch { throw .store(error) }
  }

  private func check(_ endpoint: String) async throws(PushError) {
    guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased() else {
      throw .badEndpoint("\(endpoint) is not a URL")
    }
    let allowsPrivate = privateNetwork.withLock { $0 }
    guard scheme == "https" || (allowsPrivate && scheme == "http") else {
      throw .badEndpoint("a push service is reached over https")
    }
    do {
      try await PullDestination(allowsPrivateNetwork: allowsPrivate).check(url)
    } catch {
      throw .badEndpoint("\(error)")
    }
  }

  /// Sends `notice` to the subscriptions of `audience` (all of them by default). A subscription its push service
  /// says is gone (404, 410) is forgotten; any other failure is counted and logged by kind, never with what was sent.
  @discardableResult
  public func send(_ notice: PushNotice, to audience: PushAudience = .everyone) async -> PushReport {
    var report = PushReport()
    let subscriptions: [PushSubscription]
    let signer: VAPID
    let payload: [UInt8]
    do {
      subscriptions = try database.pushSubscriptions().filter(audience.includes)
      guard !subscriptions.isEmpty else { return report }
      signer = try self.signer()
      payload = Array(try JSONEncoder().encode(notice))
    } catch {
      logger.warning("push notifications could not be prepared", metadata: ["error": "\(type(of: error))"])
      report.failed = 1
      return report
    }
    let now = clock()
    // Its own client, following no redirect: a push service that answers with one is not followed to an address
    // that was never checked.
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.timeout = .init(connect: .seconds(10), read: .seconds(15))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let outcomes = await withTaskGroup(of: (String, Outcome).self) { group in
      for subscription in subscriptions {
        group.addTask {
          // One its browser said has ended, or made for another key (a restore elsewhere), is gone without asking.
          if subscription.expiresAt.map({ $0 <= now }) == true || subscription.senderKey != signer.publicKey {
            return (subscription.endpoint, .gone)
          }
          return (subscription.endpoint, await self.deliver(payload, to: subscription, signer: signer, client: client))
        }
      }
      return await group.reduce(into: [(String, Outcome)]()) { $0.append($1) }
    }
    do {
      try await client.shutdown()
    } catch {
      logger.info("the push client did not shut down cleanly", metadata: ["error": "\(type(of: error))"])
    }
    for (endpoint, outcome) in outcomes {
      switch outcome {
      case .sent: report.sent += 1
      case .failed: report.failed += 1
      case .gone:
        report.removed += 1
        do {
          _ = try database.removePushSubscription(endpoint: endpoint)
        } catch {
          logger.warning("a gone push subscription could not be forgotten", metadata: ["error": "\(type(of: error))"])
        }
      }
    }
    return report
  }

  private enum Outcome: Sendable { case sent, gone, failed }

  private func deliver(
    _ payload: [UInt8], to subscription: PushSubscription, signer: VAPID, client: HTTPClient
  ) async
    -> Outcome
  {
    do {
      try await check(subscription.endpoint)
      guard let url = URL(string: subscription.endpoint) else { return .failed }
      let body = try WebPushMessage.encrypt(
        payload, receiver: try P256.KeyAgreement.PublicKey(x963Representation: subscription.receiverKey),
        authSecret: Array(subscription.authSecret))
      var request = HTTPClientRequest(url: subscription.endpoint)
      request.method = .POST
      request.headers.add(name: "Authorization", value: try signer.authorization(for: url, now: clock()))
      request.headers.add(name: "Content-Encoding", value: "aes128gcm")
      request.headers.add(name: "Content-Type", value: "application/octet-stream")
      request.headers.add(name: "TTL", value: "86400")
      request.headers.add(name: "Urgency", value: "normal")
      request.body = .bytes(ByteBuffer(bytes: body))
      let response = try await client.execute(request, timeout: .seconds(15))
      _ = try await response.body.collect(upTo: 64 << 10)
      switch response.status.code {
      case 200..<300: return .sent
      case 404, 410: return .gone
      default:
        logger.info("a push service refused a notification", metadata: ["status": "\(response.status.code)"])
        return .failed
      }
    } catch {
      logger.info("a notification could not be pushed", metadata: ["error": "\(type(of: error))"])
      return .failed
    }
  }
}

/// What a pushed notification says: its title, one line, and the page a tap opens.
public struct PushNotice: Sendable, Hashable, Codable {
  public var title: String
  public var body: String
  /// The app's address to open, from its root (`/#/reminders`).
  public var url: String
  /// Notifications with one tag replace each other on the device.
  public var tag: String

  public init(title: String, body: String, url: String, tag: String) {
    (self.title, self.body, self.url, self.tag) = (title, body, url, tag)
  }

  /// A notice as its notification: the page of its kind, its words cut to what a notification shows (so a long
  /// one never makes the message too large to send).
  public init(_ notice: Notice) {
    let page =
      switch notice.kind {
      case .reminder: "/#/reminders"
      case .event: "/#/calendar"
      case .habit: "/#/habits"
      case .automation, .sync: "/"
      }
    self.init(title: Self.cut(notice.title, 200), body: Self.cut(notice.detail, 600), url: page, tag: notice.id)
  }

  /// `text` cut to `limit` characters, with an ellipsis when it was longer.
  public static func cut(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }
}

/// Who a notification is for: every subscribed browser (a reminder, an event), or the browsers of one paired
/// device (an answer its page was waiting for); `.device(nil)` is those subscribed with the server's key.
public enum PushAudience: Sendable, Hashable {
  case everyone
  case device(UUID?)

  func includes(_ subscription: PushSubscription) -> Bool {
    switch self {
    case .everyone: true
    case .device(let device): subscription.deviceID == device
    }
  }
}

/// What one round of pushes did.
public struct PushReport: Sendable, Hashable, Codable {
  public var sent = 0
  public var failed = 0
  /// Subscriptions their push service said are gone, now forgotten.
  public var removed = 0
}

/// Why a subscription was refused or the push key could not be had.
public enum PushError: Error, Sendable, CustomStringConvertible {
  case badEndpoint(String)
  case badKeys(String)
  /// The browser said the subscription has already ended.
  case expired
  case key(String)
  case store(StoreError)

  public var description: String {
    switch self {
    case .badEndpoint(let reason): "the subscription's endpoint cannot be used: \(reason)"
    case .badKeys(let reason): reason
    case .expired: "expirationTime has passed: the subscription has ended"
    case .key(let reason): "the push key could not be read or made: \(reason)"
    case .store(let error): "the subscriptions could not be read or written: \(error)"
    }
  }
}
