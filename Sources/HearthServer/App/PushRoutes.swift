import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// `/api/push`: notifications that reach a browser when no Hearth page is open. A page subscribes with the key
/// from `/api/push/key` through its browser's push service and gives the subscription here; Hearth then pushes
/// each reminder coming due, event about to start and automation result to it. `/api/push/test` sends one now.
struct PushRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var push: PushService { dependencies.engine.push }

  var paths: [RouterPath] { ["/api/push"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get("key") { _, _ in
      try AppJSON.make(PushKey(publicKey: try push.publicKey(), subscriptions: try push.subscriptionCount()))
    }
    router.post("subscriptions") { request, _ in
      // A paired device's subscription goes with it when it is revoked.
      let device = try DeviceRoutes<Context>.asking(
        request, secure: configuration.tls != nil, devices: dependencies.engine.devices)
      let input = try await RequestReader.decodeStrict(
        SubscriptionInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let endpoint = input.endpoint else {
        throw APIError.invalidRequest("endpoint is required", parameter: "endpoint")
      }
      guard let receiver = input.keys?.p256dh, let secret = input.keys?.auth else {
        throw APIError.invalidRequest("keys.p256dh and keys.auth are required", parameter: "keys")
      }
      try await push.subscribe(
        endpoint: endpoint, receiverKey: receiver, authSecret: secret,
        expiresAt: input.expirationTime.map { Date(timeIntervalSince1970: $0 / 1000) }, device: device)
      return Response(status: .created)
    }
    router.delete("subscriptions") { request, _ in
      let input = try await RequestReader.decodeStrict(
        EndpointInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let endpoint = input.endpoint else {
        throw APIError.invalidRequest("endpoint is required", parameter: "endpoint")
      }
      guard try push.unsubscribe(endpoint: endpoint) else {
        throw APIError.notFound("no subscription at that endpoint")
      }
      return Response(status: .noContent)
    }
    router.post("test") { request, _ in
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      let report = await push.send(
        PushNotice(title: "Hearth", body: "Notifications reach this device.", url: "/", tag: "hearth-test"))
      return try AppJSON.make(report)
    }
  }
}

struct PushKey: Encodable {
  /// The key browsers subscribe with (`applicationServerKey`), base64url.
  var publicKey: String
  var subscriptions: Int
}

/// The subscription to forget.
struct EndpointInput: StrictInput {
  var endpoint: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case endpoint }
}

/// A subscription as the browser's `PushSubscription.toJSON()` writes it.
struct SubscriptionInput: StrictInput {
  struct Keys: Decodable {
    var p256dh: String?
    var auth: String?
  }
  var endpoint: String?
  var keys: Keys?
  /// When the browser says the subscription ends, in milliseconds since 1970 (`null` when it does not say); none
  /// is sent to after it.
  var expirationTime: Double?

  enum CodingKeys: String, CodingKey, CaseIterable { case endpoint, keys, expirationTime = "expiration_time" }
  static var nested: [String: Set<String>] { ["keys": ["p256dh", "auth"]] }
}
