import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("The accounts API against a real Radicale server", .heavy, .enabled(if: DAVServer.isInstalled))
struct AccountAPITests {
  static let key = "accounts-test-key-0123456789"

  @Test func anAccountIsAddedSyncedChangedAndRemovedAndItsPasswordNeverComesBack() async throws {
    let server = try DAVServer(.radicale)
    try server.phone("make-calendar", "family", "Family")
    let event =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VEVENT", "UID:api-1",
        "DTSTAMP:20261201T000000Z", "DTSTART:20261210T090000Z", "DTEND:20261210T100000Z", "SUMMARY:Concert",
        "END:VEVENT", "END:VCALENDAR",
      ].joined(separator: "\r\n") + "\r\n"
    try server.phone("save", "family", server.file(event))
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let auth = ("Authorization", "Bearer \(Self.key)")
      let body = """
        {"service":"caldav","url":"\(server.base)","username":"\(server.user)","password":"\(server.password)",\
        "name":"home"}
        """
      // Guarded as every data route is: the key, the page's own origin, the size limit.
      #expect(try await live.request(.POST, "/api/accounts", body: body).status == 401)
      let foreign = try await live.request(
        .POST, "/api/accounts", body: body, headers: [auth, ("Origin", "http://evil.example")])
      #expect(foreign.status == 403)
      let unknownField = try await live.request(
        .POST, "/api/accounts", body: #"{"service":"caldav","colour":"red"}"#, headers: [auth])
      #expect(unknownField.status == 400)
      #expect(unknownField.body.contains("colour"))
      let wrong = try await live.request(
        .POST, "/api/accounts", body: body.replacingOccurrences(of: server.password, with: "nope"), headers: [auth])
      #expect(wrong.status == 400, "\(wrong.body)")
      #expect(wrong.body.contains("account_refused"))

      let added = try await live.request(.POST, "/api/accounts", body: body, headers: [auth])
      #expect(added.status == 201, "\(added.body)")
      #expect(!added.body.contains(server.password))
      let collection = try #require(added.json?["collections"]?.arrayValue?.first?["id"]?.stringValue)
      let twice = try await live.request(.POST, "/api/accounts", body: body, headers: [auth])
      #expect(twice.status == 409, "\(twice.body)")

      let synced = try await live.request(.POST, "/api/accounts/home/sync", headers: [auth])
      #expect(synced.status == 200, "\(synced.body)")
      #expect(synced.json?["results"]?.arrayValue?.first?["reports"]?.arrayValue?.first?["added"] == .number(1))
      let events = try await live.request(
        .GET, "/api/calendar/occurrences?from=2026-12-10&to=2026-12-11", headers: [auth])
      #expect(events.body.contains("Concert"), "\(events.body)")

      let listed = try await live.request(.GET, "/api/accounts", headers: [auth])
      #expect(listed.status == 200)
      #expect(!listed.body.contains(server.password))
      #expect(listed.json?["accounts"]?.arrayValue?.first?["waiting"] == .number(0))
      #expect(listed.json?["accounts"]?.arrayValue?.first?["account"]?["last_sync_at"] != nil)

      let off = try await live.request(
        .PATCH, "/api/accounts/home/collections/\(collection)", body: #"{"is_enabled":false}"#, headers: [auth])
      #expect(off.status == 200, "\(off.body)")
      #expect(off.json?["is_enabled"] == .bool(false))

      let removed = try await live.request(.DELETE, "/api/accounts/home", headers: [auth])
      #expect(removed.status == 200)
      let after = try await live.request(.GET, "/api/accounts", headers: [auth])
      #expect(after.json?["accounts"]?.arrayValue?.isEmpty == true)
      // Its items stay, as local ones.
      let kept = try await live.request(
        .GET, "/api/calendar/occurrences?from=2026-12-10&to=2026-12-11", headers: [auth])
      #expect(kept.body.contains("Concert"))
    }
  }
}
