import Foundation
import Testing

@testable import HearthDAV

/// The client's steps over a scripted transport (the real servers are in the engine's sync tests): discovery
/// through the well-known address and a redirect, a refused token, the conditional headers of writes.
@Suite struct DAVClientTests {
  /// Answers by method and path, recording what was asked.
  final class Script: DAVTransport, @unchecked Sendable {
    let answers: [String: DAVReply]
    private let lock = NSLock()
    private var asked: [DAVRequest] = []

    init(_ answers: [String: DAVReply]) { self.answers = answers }

    var requests: [DAVRequest] { lock.withLock { asked } }

    func send(_ request: DAVRequest) async throws(DAVError) -> DAVReply {
      lock.withLock { asked.append(request) }
      return answers["\(request.method) \(request.url.path)"] ?? DAVReply(status: 404)
    }
  }

  static func multistatus(_ body: String) -> DAVReply {
    DAVReply(
      status: 207,
      body: Data(
        (#"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"# + body
          + "</d:multistatus>").utf8))
  }

  @Test func findsThePrincipalThroughTheWellKnownAddressAndARedirect() async throws {
    let script = Script([
      "PROPFIND /.well-known/caldav": DAVReply(status: 301, headers: ["Location": "/dav/"]),
      "PROPFIND /dav": Self.multistatus(
        "<d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/dav/alice/</d:href>"
          + "</d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"),
      "PROPFIND /dav/alice": Self.multistatus(
        "<d:response><d:href>/dav/alice/</d:href><d:propstat><d:prop><c:calendar-home-set><d:href>/dav/alice/cal/"
          + "</d:href></c:calendar-home-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"),
      "PROPFIND /dav/alice/cal": Self.multistatus(
        "<d:response><d:href>/dav/alice/cal/work/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/>"
          + "<c:calendar/></d:resourcetype><d:displayname>Work</d:displayname><c:supported-calendar-component-set>"
          + #"<c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop><d:status>HTTP/1.1 200 OK"#
          + "</d:status></d:propstat></d:response>"),
    ])
    let client = DAVClient(base: URL(string: "https://dav.example.com/")!, transport: script)
    let found = try await client.discover(.caldav)
    #expect(found.map(\.href) == ["/dav/alice/cal/work/"])
    #expect(found.map(\.content) == [.events])
    // The server's own URL first, then the well-known address, then where it pointed.
    #expect(script.requests.prefix(3).map(\.url.path) == ["/", "/.well-known/caldav", "/dav"])
    #expect(script.requests.allSatisfy { $0.headers["Depth"] != nil })
  }

  @Test func aRefusedSyncTokenSaysSoForTheCallerToList() async throws {
    let script = Script([
      "REPORT /cal": DAVReply(
        status: 403,
        body: Data(#"<d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>"#.utf8))
    ])
    let client = DAVClient(base: URL(string: "https://dav.example.com/")!, transport: script)
    let collection = DAVCollection(href: "/cal/", displayName: "Cal", content: .events, offersSyncToken: true)
    await #expect(throws: DAVError.syncTokenRefused(href: "/cal/", status: 403)) {
      _ = try await client.changes(in: collection, since: "old")
    }
  }

  @Test func writesAreConditionalAndA412IsSomeoneElsesChange() async throws {
    let script = Script([
      "PUT /cal/new.ics": DAVReply(status: 201, headers: ["ETag": "\"1\""]),
      "PUT /cal/old.ics": DAVReply(status: 412),
      "DELETE /cal/gone.ics": DAVReply(status: 404),
      "PUT /cal/read-only.ics": DAVReply(status: 403),
    ])
    let client = DAVClient(base: URL(string: "https://dav.example.com/")!, transport: script)
    let tag = try await client.put(Data("x".utf8), at: "/cal/new.ics", contentType: "text/calendar", replacing: nil)
    #expect(tag == "\"1\"")
    await #expect(throws: DAVError.changedOnServer(href: "/cal/old.ics")) {
      _ = try await client.put(Data("x".utf8), at: "/cal/old.ics", contentType: "text/calendar", replacing: "\"7\"")
    }
    // A read-only calendar refuses one write, not the account.
    await #expect(throws: DAVError.writeRefused(href: "/cal/read-only.ics", status: 403)) {
      _ = try await client.put(
        Data("x".utf8), at: "/cal/read-only.ics", contentType: "text/calendar", replacing: "\"1\"")
    }
    // Already gone is what a deletion wanted.
    try await client.delete("/cal/gone.ics", etag: "\"3\"")
    let headers = script.requests.map(\.headers)
    #expect(headers[0]["If-None-Match"] == "*")
    #expect(headers[1]["If-Match"] == "\"7\"")
    #expect(headers[3]["If-Match"] == "\"3\"")
  }

  @Test func aPasswordRefusedIsNamedAsSuch() async throws {
    let script = Script(["PROPFIND /": DAVReply(status: 401)])
    let client = DAVClient(base: URL(string: "https://dav.example.com/")!, transport: script)
    let error = await #expect(throws: DAVError.self) { _ = try await client.discover(.carddav) }
    #expect(error?.description.contains("refused the user name or password") == true)
  }
}
