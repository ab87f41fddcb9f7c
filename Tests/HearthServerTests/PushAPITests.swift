import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

/// The push subscription routes in process: what a browser's `PushSubscription.toJSON()` sends is kept, anything
/// else is refused by name. Delivery to a real push service and its decryption are in the web tests.
@Suite("Web Push subscriptions through the API")
struct PushAPITests {
  static let receiver = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

  static func subscription(
    _ endpoint: String, key: String = receiver, auth: String = "BTBZMqHH6r4Tts7J_aSIgg"
  ) -> String {
    #"{"endpoint": "\#(endpoint)", "expiration_time": null, "keys": {"p256dh": "\#(key)", "auth": "\#(auth)"}}"#
  }

  @Test func aBrowsersSubscriptionIsKeptAndABadOneRefusedByName() async throws {
    try await LiveServer.inProcess { server in
      let key = try await server.request(.GET, "/api/push/key")
      #expect(key.json?["public_key"]?.stringValue?.count == 87 && key.json?["subscriptions"]?.numberValue == 0)
      // The key is the profile's own: asked again, it is the same.
      #expect(try await server.request(.GET, "/api/push/key").json?["public_key"] == key.json?["public_key"])
      // An address, not a name: nothing is resolved or sent to in this test.
      let endpoint = "https://1.1.1.1/send/abc"
      #expect(
        try await server.request(.POST, "/api/push/subscriptions", body: Self.subscription(endpoint)).status == 201)
      #expect(try await server.request(.GET, "/api/push/key").json?["subscriptions"]?.numberValue == 1)
      // Plain http, or a private address, is no push service unless private networks are allowed.
      for refused in ["http://push.example.com/x", "https://127.0.0.1/x", "https://10.0.0.5/x", "not a url"] {
        let reply = try await server.request(.POST, "/api/push/subscriptions", body: Self.subscription(refused))
        #expect(reply.status == 400 && reply.json?["error"]?["param"]?.stringValue == "endpoint", "\(refused)")
      }
      let badKey = try await server.request(
        .POST, "/api/push/subscriptions", body: Self.subscription(endpoint, key: "AAAA"))
      #expect(badKey.status == 400 && badKey.json?["error"]?["param"]?.stringValue == "keys")
      let badAuth = try await server.request(
        .POST, "/api/push/subscriptions", body: Self.subscription(endpoint, auth: "AAAA"))
      #expect(badAuth.status == 400)
      let nested = try await server.request(
        .POST, "/api/push/subscriptions",
        body: #"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(Self.receiver)", "auth": "x", "extra": 1}}"#)
      #expect(nested.status == 400 && nested.json?["error"]?["param"]?.stringValue == "keys.extra")
      let ended = try await server.request(
        .POST, "/api/push/subscriptions",
        body:
          #"{"endpoint": "\#(endpoint)", "expiration_time": 1000, "keys": {"p256dh": "\#(Self.receiver)", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}"#
      )
      #expect(ended.status == 400 && ended.json?["error"]?["param"]?.stringValue == "expiration_time")
      // Forgetting takes the endpoint alone, and a test push no fields: anything more is refused by name.
      let extra = try await server.request(
        .DELETE, "/api/push/subscriptions", body: #"{"endpoint": "\#(endpoint)", "keys": {}}"#)
      #expect(extra.status == 400 && extra.json?["error"]?["param"]?.stringValue == "keys")
      let loud = try await server.request(.POST, "/api/push/test", body: #"{"title": "x"}"#)
      #expect(loud.status == 400 && loud.json?["error"]?["param"]?.stringValue == "title")
      #expect(
        try await server.request(.DELETE, "/api/push/subscriptions", body: #"{"endpoint": "\#(endpoint)"}"#).status
          == 204)
      #expect(
        try await server.request(.DELETE, "/api/push/subscriptions", body: #"{"endpoint": "\#(endpoint)"}"#).status
          == 404)
    }
  }
}
