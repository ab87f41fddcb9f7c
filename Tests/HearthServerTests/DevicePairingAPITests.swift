import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

/// Pairing through the API, on the very app `hearth serve` runs, with a key set as beyond loopback.
@Suite("Paired devices through the API")
struct DevicePairingAPITests {
  static let key = "pairing-test-key-0123456789"
  static let keyed = [("Authorization", "Bearer \(key)")]

  static func code(_ server: LiveServer) async throws -> String {
    let made = try await server.request(.POST, "/api/devices/codes", body: "{\"minutes\": 5}", headers: keyed)
    #expect(made.status == 201)
    return try #require(made.json?["code"]?.stringValue)
  }

  @Test func aBrowserPairsWithACodeUsesTheAppAndIsRefusedOnceRevoked() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { server in
      // Making a code needs the key (or a paired device).
      #expect(try await server.request(.POST, "/api/devices/codes", body: "{}").status == 401)
      let code = try await Self.code(server)
      let paired = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"\(code)\", \"name\": \"Alice's phone\"}")
      #expect(paired.status == 201, "\(paired.body)")
      #expect(paired.json?["token"] == nil && paired.json?["device"]?["name"]?.stringValue == "Alice's phone")
      let cookie = try #require(paired.header("Set-Cookie"))
      #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"))
      let secret = try #require(cookie.split(separator: ";").first.map(String.init))
      let asDevice = [("Cookie", "theme=dark; \(secret)")]
      #expect(try await server.request(.GET, "/api/sessions", headers: asDevice).status == 200)
      let listed = try await server.request(.GET, "/api/devices", headers: asDevice)
      #expect(listed.json?["devices"]?.arrayValue?.first?["current"] == .bool(true))
      // The same code again is refused.
      let again = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"\(code)\", \"name\": \"Eve\"}")
      #expect(again.status == 400 && again.json?["error"]?["code"]?.stringValue == "wrong_pairing_code")
      // Revoked: refused at its very next request.
      let id = try #require(listed.json?["devices"]?.arrayValue?.first?["id"]?.stringValue)
      #expect(try await server.request(.DELETE, "/api/devices/\(id)", headers: asDevice).status == 204)
      #expect(try await server.request(.GET, "/api/sessions", headers: asDevice).status == 401)
      #expect(try await server.request(.DELETE, "/api/devices/\(id)", headers: Self.keyed).status == 404)
    }
  }

  @Test func anAPIClientGetsATokenAndTheDeviceIsRenamed() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { server in
      let code = try await Self.code(server)
      let paired = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"\(code)\", \"name\": \"Script\", \"client\": \"api\"}")
      #expect(paired.status == 201 && paired.header("Set-Cookie") == nil)
      let token = try #require(paired.json?["token"]?.stringValue)
      let bearer = [("Authorization", "Bearer \(token)")]
      #expect(try await server.request(.GET, "/v1/models", headers: bearer).status == 200)
      let id = try #require(paired.json?["device"]?["id"]?.stringValue)
      let renamed = try await server.request(
        .PATCH, "/api/devices/\(id)", body: "{\"name\": \"Backup script\"}", headers: bearer)
      #expect(renamed.json?["name"]?.stringValue == "Backup script" && renamed.json?["current"] == .bool(true))
      // The pairing route takes only POST without the key.
      #expect(try await server.request(.GET, "/api/devices/pair").status == 401)
      // Fields that are not the API's are refused by name, never ignored.
      let unknown = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"x\", \"name\": \"y\", \"remember\": true}")
      #expect(unknown.status == 400 && unknown.json?["error"]?["param"]?.stringValue == "remember")
      let client = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"x\", \"name\": \"y\", \"client\": \"tv\"}")
      #expect(client.status == 400 && client.json?["error"]?["param"]?.stringValue == "client")
    }
  }

  @Test func guessingCodesIsStoppedWithRetryAfter() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { server in
      let code = try await Self.code(server)
      // Ten guesses at once, as a script would send them: five are answered, the rest wait out the minute.
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for guess in 0..<10 {
          group.addTask {
            try await server.request(
              .POST, "/api/devices/pair", body: "{\"code\": \"ZZZZ-000\(guess)\", \"name\": \"Guess\"}"
            ).status
          }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses.sorted() == [400, 400, 400, 400, 400, 429, 429, 429, 429, 429])
      let blocked = try await server.request(
        .POST, "/api/devices/pair", body: "{\"code\": \"\(code)\", \"name\": \"Phone\"}")
      #expect(blocked.status == 429 && blocked.header("Retry-After").flatMap(Int.init).map { $0 > 0 } == true)
      #expect(blocked.json?["error"]?["code"]?.stringValue == "too_many_pairing_attempts")
    }
  }
}
