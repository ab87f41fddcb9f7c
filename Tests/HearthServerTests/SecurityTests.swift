import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@Suite("Security by default, in process and through the live server", .serialized, .heavy)
struct SecurityTests {
  static let key = "test-key-0123456789abcdef"

  @Test func listeningBeyondThisMachineNeedsAKey() throws {
    #expect(throws: ServerConfigurationError.exposedWithoutKey(host: "0.0.0.0")) {
      try ServerConfiguration(host: "0.0.0.0").validate()
    }
    #expect(throws: ServerConfigurationError.weakAPIKey) {
      try ServerConfiguration(host: "0.0.0.0", apiKey: "short").validate()
    }
    try ServerConfiguration(host: "0.0.0.0", apiKey: Self.key).validate()
    try ServerConfiguration(host: "127.0.0.1").validate()
  }

  @Test func everyAPIRouteNeedsTheKeyWhenOneIsSet() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { server in
      for path in [
        "/v1/models", "/api/sessions", "/api/settings", "/api/diagnostics", "/api/diagnostics/log", "/api/runtime",
        "/api/remote", "/metrics", "/api/devices", "/api/push/key",
      ]
        + Self.dataRoutes
      {
        let missing = try await server.request(.GET, path)
        #expect(missing.status == 401, "\(path)")
        #expect(missing.json?["error"]?["code"]?.stringValue == "invalid_api_key")
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let wrong = try await server.request(.GET, path, headers: [("Authorization", "Bearer nope-nope-nope-nope")])
        #expect(wrong.status == 401, "\(path)")
        let right = try await server.request(.GET, path, headers: [("Authorization", "Bearer \(Self.key)")])
        #expect(right.status == 200, "\(path): \(right.body)")
      }
      // The page itself holds no data and loads without the key; it asks for the key when the API does.
      #expect(try await server.request(.GET, "/").status == 200)
      #expect(try await server.request(.GET, "/health").status == 200)
      // So does the page that helps a phone trust the server: a phone has no key yet, and it shows public data;
      // and so do the manifest and the service worker, which a browser fetches before any key is asked.
      for path in ["/ca", "/manifest.webmanifest", "/sw.js"] {
        #expect(try await server.request(.GET, path).status == 200, "\(path)")
      }
    }
  }

  /// The device routes that change something: making a code needs the key, pairing needs none but passes the
  /// `Host` and origin checks and the size limit like every route.
  static let deviceWrites: [(HTTPMethod, String, String)] = [
    (.POST, "/api/devices/codes", "{}"), (.POST, "/api/devices/pair", #"{"code": "ABCD-EFGH", "name": "x"}"#),
    (.POST, "/api/devices/app-passwords", #"{"name": "x"}"#),
    (.PATCH, "/api/devices/\(UUID())", #"{"name": "x"}"#), (.DELETE, "/api/devices/\(UUID())", ""),
    (.POST, "/api/push/subscriptions", #"{"endpoint": "https://push.example.com/x"}"#), (.POST, "/api/push/test", "{}"),
    (.DELETE, "/api/push/subscriptions", #"{"endpoint": "https://push.example.com/x"}"#),
  ]

  /// Every read route of the user's own data.
  static let dataRoutes = [
    "/api/calendar/occurrences", "/api/calendar/free", "/api/calendar/hours", "/api/calendar/export", "/api/reminders",
    "/api/reminders/export", "/api/notes", "/api/notes?q=x", "/api/habits", "/api/contacts", "/api/contacts?q=x",
    "/api/contacts/export", "/api/actions", "/api/actions?state=pending", "/api/memory", "/api/memory/search?q=x",
    "/api/memory/facts", "/api/memory/facts?history=true", "/api/mcp", "/api/mcp/servers", "/api/prompts",
    "/api/sessions/export", "/api/sessions/export?format=md",
    "/api/briefing", "/api/briefing?date=2026-11-27", "/api/notices", "/api/accounts", "/api/backups",
    "/api/personas", "/api/web-search", "/api/templates", "/api/models/projector",
  ]
  /// Every route that changes the user's data or takes a file, with a body it would accept.
  static let dataWrites: [(HTTPMethod, String, String)] = [
    (.POST, "/api/calendar/events", #"{"title":"T","start":"2026-12-01T09:00","end":"2026-12-01T10:00"}"#),
    (.PUT, "/api/calendar/hours", #"{"hours":"09:00-17:00"}"#),
    (.POST, "/api/calendar/import", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
    (.POST, "/api/reminders", #"{"title":"T"}"#),
    (.POST, "/api/reminders/import", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
    (.POST, "/api/notes", #"{"title":"T"}"#),
    (.POST, "/api/notes/import?name=a.md", "# A\n"),
    (.POST, "/api/habits", #"{"name":"T"}"#),
    (.POST, "/api/contacts", #"{"full_name":"T"}"#),
    (.POST, "/api/contacts/import", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n"),
    (.POST, "/api/memory/documents?name=a.md", "# A\n\nThe spare key is under the blue pot.\n"),
    (.PUT, "/api/memory/persona", #"{"text":"I like tea."}"#),
    (.POST, "/api/memory/facts", #"{"text":"I like tea."}"#),
    (.POST, "/api/personas", #"{"name":"Ada","backstory":"Born in a lighthouse."}"#),
    (.POST, "/api/templates", #"{"name":"Plan","first_message":"Plan my day."}"#),
    (.POST, "/api/sessions/bulk", #"{"ids":[],"action":"archive"}"#),
    (.PUT, "/api/mcp", #"{"allows_creations":true}"#),
    (.POST, "/api/mcp/servers", ToolServerAPITests.selfServer(name: "itself")),
    (.POST, "/api/prompts", #"{"name":"Plan","text":"Plan my day."}"#),
    (.POST, "/api/notes/suggest", #"{"title":"T","body":"Some words. More words."}"#),
    (.POST, "/api/import/chatgpt", "[]"), (.POST, "/api/import/claude?memory=false", "[]"),
    (.POST, "/v1/embeddings", #"{"model":"all-MiniLM-L6-v2","input":"hello"}"#),
    (.PUT, "/api/backups/settings", #"{"scheduled":false}"#), (.POST, "/api/backups", "{}"),
    // Nothing listens on port 9: the check answers that the server cannot be reached.
    (.PUT, "/api/web-search", #"{"url":"http://127.0.0.1:9"}"#), (.POST, "/api/web-search/check", "{}"),
    (.DELETE, "/api/web-search", ""),
  ]

  /// Every route that names one item or action by id, with a body it would accept.
  static let itemRoutes: [(HTTPMethod, String, String?)] = {
    let id = UUID().uuidString
    let event = #"{"title":"T","start":"2026-12-01T09:00","end":"2026-12-01T10:00"}"#
    return [
      (.GET, "/api/calendar/events/\(id)", nil), (.PUT, "/api/calendar/events/\(id)", event),
      (.DELETE, "/api/calendar/events/\(id)", nil),
      (.GET, "/api/reminders/\(id)", nil), (.PUT, "/api/reminders/\(id)", #"{"title":"T"}"#),
      (.DELETE, "/api/reminders/\(id)", nil),
      (.POST, "/api/reminders/\(id)/complete", #"{"done":true}"#),
      (.GET, "/api/notes/\(id)", nil), (.PUT, "/api/notes/\(id)", #"{"title":"T"}"#),
      (.DELETE, "/api/notes/\(id)", nil),
      (.GET, "/api/notes/\(id)/export", nil),
      (.PUT, "/api/habits/\(id)", #"{"name":"T"}"#), (.DELETE, "/api/habits/\(id)", nil),
      (.POST, "/api/habits/\(id)/log", "{}"), (.GET, "/api/habits/\(id)/logs", nil),
      (.DELETE, "/api/habits/logs/\(id)", nil),
      (.GET, "/api/contacts/\(id)", nil), (.PUT, "/api/contacts/\(id)", #"{"full_name":"T"}"#),
      (.DELETE, "/api/contacts/\(id)", nil),
      (.POST, "/api/actions/\(id)/confirm", nil), (.POST, "/api/actions/\(id)/cancel", nil),
      (.POST, "/api/actions/\(id)/undo", nil),
      (.POST, "/api/actions/\(id)/reschedule", #"{"start":"2026-12-01T09:00"}"#),
      (.DELETE, "/api/memory/sources?id=file:/nowhere/\(id).md", nil),
      (.PATCH, "/api/memory/facts/\(id)", #"{"is_pinned":true}"#), (.DELETE, "/api/memory/facts/\(id)", nil),
      (.PUT, "/api/sessions/\(id)/memory", #"{"enabled":false}"#),
      (.GET, "/api/personas/\(id)", nil), (.PATCH, "/api/personas/\(id)", #"{"preset":"creative"}"#),
      (.DELETE, "/api/personas/\(id)", nil),
      (.GET, "/api/templates/\(id)", nil), (.PATCH, "/api/templates/\(id)", #"{"first_message":"x"}"#),
      (.DELETE, "/api/templates/\(id)", nil),
      (.POST, "/api/notices/reminder:\(id):0/done", nil), (.POST, "/api/notices/reminder:\(id):0/dismiss", nil),
      (.POST, "/api/notices/reminder:\(id):0/snooze", #"{"for":"1h"}"#),
      (.DELETE, "/api/mcp/servers/s\(id.prefix(8))", nil), (.POST, "/api/mcp/servers/s\(id.prefix(8))/refresh", nil),
      (.PUT, "/api/mcp/servers/s\(id.prefix(8))/tools/x", #"{"policy":"allow"}"#),
      (.PUT, "/api/prompts/\(id)", #"{"text":"x"}"#), (.DELETE, "/api/prompts/\(id)", nil),
      (.POST, "/api/prompts/\(id)/move", #"{"position":1}"#),
      (.POST, "/api/sessions/\(id)/attachments?name=a.txt", "Some text."), (.GET, "/api/attachments/\(id)", nil),
      (.GET, "/api/attachments/\(id)/content", nil), (.DELETE, "/api/attachments/\(id)", nil),
      // Accounts by name (adding one is tested against a real server in AccountAPITests).
      (.POST, "/api/accounts/n\(id.prefix(8))/sync", nil),
      (.PATCH, "/api/accounts/n\(id.prefix(8))/collections/\(id)", #"{"is_enabled":false}"#),
      (.DELETE, "/api/accounts/n\(id.prefix(8))", nil),
    ]
  }()

  @Test func everyItemRouteNeedsTheKeyAndAListedOrigin() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { server in
      let auth = ("Authorization", "Bearer \(Self.key)")
      for (method, path, body) in Self.itemRoutes {
        let missing = try await server.request(method, path, body: body)
        #expect(missing.status == 401, "\(path)")
        let foreign = try await server.request(
          method, path, body: body, headers: [auth, ("Origin", "http://evil.example")])
        #expect(foreign.status == 403, "\(path)")
        // Let in, the route looks the item up and finds none.
        let unknown = try await server.request(method, path, body: body, headers: [auth])
        #expect(unknown.status == 404, "\(path) → \(unknown.status) \(unknown.body)")
      }
    }
  }

  @Test func everyDataWriteNeedsTheKeyAndAListedOriginAndStaysWithinTheLimits() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096, maxImportBytes: 8192)
    try await LiveServer.inProcess(configuration: configuration) { server in
      let auth = ("Authorization", "Bearer \(Self.key)")
      for (method, path, body) in Self.dataWrites {
        #expect(try await server.request(method, path, body: body).status == 401, "\(path)")
        let foreign = try await server.request(
          method, path, body: body, headers: [auth, ("Origin", "http://evil.example")])
        #expect(foreign.status == 403, "\(path)")
        let takesFiles =
          path.hasSuffix("import") || path.contains("import?") || path.hasPrefix("/api/memory/documents")
          || path.hasPrefix("/api/import/")
        let huge = String(repeating: "x", count: takesFiles ? 9000 : 5000)
        let large = try await server.request(method, path, body: huge, headers: [auth])
        #expect(large.status == 413, "\(path) → \(large.status)")
        let accepted = try await server.request(method, path, body: body, headers: [auth])
        #expect((200..<300).contains(accepted.status), "\(path) → \(accepted.status) \(accepted.body)")
      }
    }
  }

  /// Every route that starts a chat turn, follows one or changes which version of a chat is shown, with a body it
  /// would accept.
  static let turnRoutes: [(HTTPMethod, String, String)] = {
    let chat = "/api/sessions/\(UUID().uuidString)"
    let message = "\(chat)/messages/\(UUID().uuidString)"
    return [
      (.POST, "\(chat)/turns", #"{"text":"Hi"}"#),
      (.POST, "\(message)/regenerate", "{}"),
      (.POST, "\(message)/edit", #"{"text":"Hi"}"#),
      (.POST, "\(message)/continue", "{}"),
      (.PUT, "\(chat)/forks/1", #"{"current":0}"#),
      // Following a chat from another page reads it as it is written.
      (.GET, "\(chat)/live", ""),
      // A page out of sight keeps its turn going (and is told when it ends); back in sight, it no longer is.
      (.POST, "\(chat)/away", ""), (.DELETE, "\(chat)/away", ""),
    ]
  }()

  @Test func everyTurnRouteNeedsTheKeyAListedOriginAndThisHostAndStaysWithinTheLimits() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      for (method, path, body) in Self.turnRoutes {
        // Let in, the route finds no such chat.
        try await Self.expectGuarded(server, method, path, body: body, accepted: 404...404)
      }
    }
  }

  /// Every kind of CalDAV/CardDAV route (discovery, listing, reports, reads, writes, making a calendar), with a
  /// body it would accept and the status it answers when let in.
  static let davRoutes: [(HTTPMethod, String, String?, ClosedRange<Int>)] = {
    let event =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:guarded-1\r\n"
      + "DTSTAMP:20261201T090000Z\r\nDTSTART:20261208T090000Z\r\nDTEND:20261208T100000Z\r\nSUMMARY:T\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    let propfind = #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:propfind>"#
    let sync =
      #"<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:prop><d:getetag/></d:prop></d:sync-collection>"#
    let color =
      #"<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:i="http://apple.com/ns/ical/"><d:set><d:prop><i:calendar-color>#FF0000</i:calendar-color></d:prop></d:set></d:propertyupdate>"#
    return [
      (.OPTIONS, "/dav/", nil, 200...200), (.RAW(value: "PROPFIND"), "/", propfind, 207...207),
      (.RAW(value: "PROPFIND"), "/dav/principal/", propfind, 207...207),
      (.RAW(value: "PROPFIND"), "/dav/calendars/", propfind, 207...207),
      (.RAW(value: "PROPFIND"), "/dav/contacts/addressbook/", propfind, 207...207),
      (.RAW(value: "REPORT"), "/dav/calendars/Personal/", sync, 207...207),
      (.RAW(value: "PROPPATCH"), "/dav/calendars/Personal/", color, 207...207),
      (.RAW(value: "MKCALENDAR"), "/dav/calendars/guarded/", nil, 201...201),
      (.PUT, "/dav/calendars/Personal/guarded.ics", event, 201...201),
      (.GET, "/dav/calendars/Personal/guarded.ics", nil, 200...200),
      (.DELETE, "/dav/calendars/Personal/guarded.ics", nil, 204...204),
      (.GET, "/dav/contacts/addressbook/nobody.vcf", nil, 404...404),
      // The client follows the discovery addresses' redirect to /dav/ (its 301 is checked in DAVServingTests).
      (.GET, "/.well-known/caldav", nil, 200...200), (.RAW(value: "PROPFIND"), "/.well-known/carddav", nil, 207...207),
    ]
  }()

  @Test func everyDAVRouteNeedsTheKeyOrADevicesPasswordAListedOriginAndThisHost() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      for (method, path, body, accepted) in Self.davRoutes {
        try await Self.expectGuarded(
          server, method, path, bytes: body.map { Data($0.utf8) }, contentType: "application/xml",
          headers: [("Depth", "0")], accepted: accepted)
      }
      // A calendar app is challenged for a password, and a paired device's secret is one; a revoked one is not.
      let challenged = try await server.request(.RAW(value: "PROPFIND"), "/dav/", headers: [("Depth", "0")])
      #expect(challenged.header("WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
      // An app password is made only with the key (or by a paired device) and is a device of its own.
      let unasked = try await server.request(.POST, "/api/devices/app-passwords", body: #"{"name":"Phone"}"#)
      #expect(unasked.status == 401)
      let made = try await server.request(
        .POST, "/api/devices/app-passwords", body: #"{"name":"Phone"}"#,
        headers: [("Authorization", "Bearer \(Self.key)")])
      #expect(made.status == 201, "\(made.body)")
      let secret = try #require(made.json?["password"]?.stringValue)
      #expect(made.json?["address"]?.stringValue == "/dav/")
      let paired = try #require(try server.engine.devices.list().first { $0.name == "Phone" })
      func basic(_ password: String) -> (String, String) {
        ("Authorization", "Basic " + Data("me:\(password)".utf8).base64EncodedString())
      }
      let asDevice = try await server.request(
        .RAW(value: "PROPFIND"), "/dav/calendars/", headers: [basic(secret), ("Depth", "1")])
      #expect(asDevice.status == 207)
      #expect(try await server.request(.GET, "/dav/", headers: [basic("hd_wrong")]).status == 401)
      try server.engine.devices.revoke(paired.id)
      let revoked = try await server.request(
        .RAW(value: "PROPFIND"), "/dav/calendars/", headers: [basic(secret), ("Depth", "1")])
      #expect(revoked.status == 401)
    }
  }

  /// Routes that change which model answers: they need a model, so they are checked against a live one.
  static let modelWrites: [(HTTPMethod, String, String)] = [
    (.PUT, "/api/models/active", #"{"model":"SmolLM2-135M-Instruct.Q4_1.gguf"}"#),
    (.POST, "/api/runtime/preview", #"{"preset":"efficient","context_size":1024}"#),
    (.PUT, "/api/runtime", #"{"preset":"balanced"}"#),
    (.POST, "/api/runtime/validate", "{}"),
    (.POST, "/api/runtime/test", "{}"),
    // Nothing listens on port 9: the download starts and fails at once.
    (
      .POST, "/api/models/pulls",
      #"{"url":"http://127.0.0.1:9/x.gguf","sha256":"\#(String(repeating: "0", count: 64))"}"#
    ),
    (.DELETE, "/api/models/pulls/none", ""),
    (.PUT, "/api/remote", #"{"url":"http://127.0.0.1:9/v1","preference":"local"}"#),
    (.POST, "/api/remote/check", "{}"),
    (.DELETE, "/api/remote", ""),
    // No projector can be installed here: a file that is none is refused by name (400), once let in.
    (.PUT, "/api/models/projector", #"{"path":"/nonexistent/mmproj.gguf"}"#),
    (.DELETE, "/api/models/projector", ""),
  ]

  @Test func choosingAModelNeedsTheKeyAListedOriginAndThisHost() async throws {
    var configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    configuration.allowsPrivateNetworkPulls = true
    try await LiveServer.with(configuration: configuration) { server in
      for (method, path, body) in Self.modelWrites {
        // Let in, a cancel finds no download by that id.
        let accepted =
          path.hasPrefix("/api/models/pulls/")
          ? 404...404 : method == .PUT && path.hasSuffix("projector") ? 400...400 : 200...202
        try await Self.expectGuarded(server, method, path, body: body, accepted: accepted)
      }
    }
  }

  /// Without the key a route is a 401; with it, a foreign origin is a 403, a foreign host name a 421, a body
  /// beyond the server's 4,096-byte limit a 413, and `body` is answered with a status in `accepted`.
  static func expectGuarded(
    _ server: LiveServer, _ method: HTTPMethod, _ path: String, body: String?, accepted: ClosedRange<Int>
  ) async throws {
    try await expectGuarded(server, method, path, bytes: body.map { Data($0.utf8) }, accepted: accepted)
  }

  /// The same checks for a body of any type (`contentType` overrides JSON's).
  static func expectGuarded(
    _ server: LiveServer, _ method: HTTPMethod, _ path: String, bytes body: Data?, contentType: String? = nil,
    headers: [(String, String)] = [], accepted: ClosedRange<Int>
  ) async throws {
    let auth = ("Authorization", "Bearer \(Self.key)")
    let type = (contentType.map { [("Content-Type", $0)] } ?? []) + headers
    #expect(try await server.request(method, path, bytes: body, headers: type).status == 401, "\(path)")
    let foreign = try await server.request(
      method, path, bytes: body, headers: type + [auth, ("Origin", "http://evil.example")])
    #expect(foreign.status == 403, "\(path)")
    let rebound = try await server.request(
      method, path, bytes: body, headers: type + [auth, ("Host", "attacker.example:\(server.port)")])
    #expect(rebound.status == 421, "\(path)")
    if method == .POST || method == .PUT {
      let large = try await server.request(
        method, path, bytes: Data(repeating: UInt8(ascii: "x"), count: 5000), headers: type + [auth])
      #expect(large.status == 413, "\(path) → \(large.status)")
    }
    let reply = try await server.request(method, path, bytes: body, headers: type + [auth])
    #expect(accepted.contains(Int(reply.status)), "\(path) → \(reply.status) \(reply.body)")
  }

  /// Speech routes, under each name, with a body they accept: a short WAV of silence as multipart data.
  static let speechRoutes: [String] = ["/v1/audio/transcriptions", "/audio/transcriptions"]
  /// Text-to-speech routes, under each name, with a body they accept.
  static let voiceRoutes: [String] = ["/v1/audio/speech", "/audio/speech"]

  @Test func everySpeechRouteNeedsTheKeyAListedOriginAndThisHost() async throws {
    var configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    configuration.maxAudioBytes = 4096
    // 0.1 s of 16-bit silence at 11,025 Hz.
    var wav = Data("RIFF".utf8) + Data([0x2A, 0x09, 0, 0]) + Data("WAVEfmt ".utf8)
    wav += Data([16, 0, 0, 0, 1, 0, 1, 0, 0x11, 0x2B, 0, 0, 0x22, 0x56, 0, 0, 2, 0, 16, 0])
    wav += Data("data".utf8) + Data([0x06, 0x09, 0, 0]) + Data(count: 2_310)
    let boundary = "guarded-boundary"
    let body = MultipartBody.encode(
      fields: [("model", "whisper-1")], files: [("file", "a.wav", wav)], boundary: boundary)
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      for path in Self.speechRoutes {
        try await Self.expectGuarded(
          server, .POST, path, bytes: body, contentType: "multipart/form-data; boundary=\(boundary)",
          accepted: 200...200)
      }
      for path in Self.voiceRoutes {
        try await Self.expectGuarded(
          server, .POST, path, body: #"{"model":"tts-1","input":"Hi.","voice":"espeak"}"#, accepted: 200...200)
      }
      // Where speech is, for the hands-free mode: 0.1 s of 16 kHz PCM.
      try await Self.expectGuarded(
        server, .POST, "/api/voice/activity", bytes: Data(count: 3_200), contentType: "audio/pcm", accepted: 200...200)
    }
  }

  @Test func theMCPRouteNeedsTheKeyAListedOriginAndThisHostAndStaysWithinTheLimits() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    let initialize =
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"#
      + #""clientInfo":{"name":"guarded","version":"1"}}}"#
    try await LiveServer.with(configuration: configuration, withModel: false) { server in
      try await Self.expectGuarded(
        server, .POST, "/mcp", bytes: Data(initialize.utf8), contentType: "application/json",
        headers: [("Accept", "application/json, text/event-stream")], accepted: 200...200)
    }
  }

  /// Every route that reaches the model, under each name it answers to (the llama.cpp server's root aliases
  /// too), with a body it would accept.
  static let modelRoutes: [(HTTPMethod, String, String?)] = {
    let chat = #"{"messages":[{"role":"user","content":"Hi"}],"max_tokens":2,"temperature":0}"#
    let text = #"{"prompt":"Once upon a time","max_tokens":2,"temperature":0}"#
    let messages = #"{"messages":[{"role":"user","content":"Hi"}]}"#
    let embedding = #"{"model":"all-MiniLM-L6-v2","input":"hello"}"#
    return ["/v1", ""].flatMap { prefix -> [(HTTPMethod, String, String?)] in
      [
        (.GET, "\(prefix)/models", nil),
        (.POST, "\(prefix)/chat/completions", chat),
        (.POST, "\(prefix)/completions", text),
        (.POST, "\(prefix)/embeddings", embedding),
        (.POST, "\(prefix)/tokenize", #"{"content":"Hello"}"#),
        (.POST, "\(prefix)/detokenize", #"{"tokens":[19556]}"#),
        (.POST, "\(prefix)/apply-template", messages),
        (.POST, "\(prefix)/chat/completions/input_tokens", messages),
        (.POST, "\(prefix)/responses", #"{"input":"Hi","max_output_tokens":2,"temperature":0}"#),
        (.DELETE, "\(prefix)/responses/resp_none", nil),
      ]
    }
  }()

  /// Anthropic's Messages API, under `/v1` only, as Anthropic serves it.
  static let anthropicRoutes: [(String, String)] = {
    let conversation = #""model":"SmolLM2-135M-Instruct.Q4_1.gguf","messages":[{"role":"user","content":"Hi"}]"#
    return [
      ("/v1/messages", "{\(conversation),\"max_tokens\":2,\"temperature\":0}"),
      ("/v1/messages/count_tokens", "{\(conversation)}"),
    ]
  }()

  @Test func everyModelRouteNeedsTheKeyAListedOriginAndThisHost() async throws {
    let configuration = ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 4096)
    try await LiveServer.with(configuration: configuration) { server in
      for (method, path, body) in Self.modelRoutes {
        // Let in, a delete finds no stored response by that id.
        let accepted = method == .DELETE ? 404...404 : 200...200
        try await Self.expectGuarded(server, method, path, body: body, accepted: accepted)
      }
      for (path, body) in Self.anthropicRoutes {
        try await Self.expectGuarded(server, .POST, path, body: body, accepted: 200...200)
      }
    }
  }

  @Test func foreignHostNamesAreRefused() async throws {
    try await LiveServer.with(withModel: false) { server in
      let rebound = try await server.request(
        .GET, "/api/sessions", headers: [("Host", "attacker.example:\(server.port)")])
      #expect(rebound.status == 421)
      #expect(rebound.json?["error"]?["code"]?.stringValue == "host_not_allowed")
      let local = try await server.request(.GET, "/api/sessions", headers: [("Host", "localhost:\(server.port)")])
      #expect(local.status == 200)
      let attacker = [("Host", "attacker.example:\(server.port)")]
      for path in ["/ca", "/ca/hearth-ca.crt", "/api/devices"] + Self.dataRoutes {
        #expect(try await server.request(.GET, path, headers: attacker).status == 421, "\(path)")
      }
      for (method, path, body) in Self.dataWrites + Self.deviceWrites {
        #expect(try await server.request(method, path, body: body, headers: attacker).status == 421, "\(path)")
      }
      for (method, path, body) in Self.itemRoutes {
        #expect(try await server.request(method, path, body: body, headers: attacker).status == 421, "\(path)")
      }
    }
  }

  @Test func crossOriginCallsNeedAListedOrigin() async throws {
    let configuration = ServerConfiguration(port: 0, allowedOrigins: ["http://app.example"])
    try await LiveServer.inProcess(configuration: configuration) { server in
      let foreign = try await server.request(.GET, "/api/sessions", headers: [("Origin", "http://evil.example")])
      #expect(foreign.status == 403)
      #expect(foreign.header("Access-Control-Allow-Origin") == nil)
      // A page elsewhere cannot pair itself, nor make or use a code.
      for (method, path, body) in Self.deviceWrites {
        let sent = try await server.request(method, path, body: body, headers: [("Origin", "http://evil.example")])
        #expect(sent.status == 403, "\(path)")
      }
      let preflight = try await server.request(
        .OPTIONS, "/v1/chat/completions",
        headers: [("Origin", "http://app.example"), ("Access-Control-Request-Method", "POST")])
      #expect(preflight.status == 204)
      #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.example")
      let listed = try await server.request(.GET, "/api/sessions", headers: [("Origin", "http://app.example")])
      #expect(listed.status == 200)
      #expect(listed.header("Access-Control-Allow-Origin") == "http://app.example")
      // The app's own page calling its own server is same-origin, not cross-origin.
      let own = try await server.request(.GET, "/api/sessions", headers: [("Origin", server.base)])
      #expect(own.status == 200)
      #expect(own.header("Access-Control-Allow-Origin") == nil)
    }
  }

  @Test func oversizedBodiesAndPromptsAreRefused() async throws {
    let configuration = ServerConfiguration(port: 0, maxBodyBytes: 2_000, maxPromptCharacters: 300)
    try await LiveServer.routed(configuration: configuration) { server in
      let huge = String(repeating: "a", count: 5_000)
      let body = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[{"role":"user","content":"\#(huge)"}]}"#)
      #expect(body.status == 413)
      #expect(body.json?["error"]?["code"]?.stringValue == "body_too_large")
      let long = String(repeating: "b", count: 500)
      let prompt = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[{"role":"user","content":"\#(long)"}]}"#)
      #expect(prompt.status == 413)
      #expect(prompt.json?["error"]?["code"]?.stringValue == "prompt_too_large")
      let pairing = try await server.request(
        .POST, "/api/devices/pair", body: #"{"code": "ABCD-EFGH", "name": "\#(huge)"}"#)
      #expect(pairing.status == 413)
    }
  }

  @Test func noRouteReachesFilesOutsideTheApp() async throws {
    try await LiveServer.inProcess { server in
      for path in [
        "/assets/../../../../etc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
        "/assets/app.js/../../Package.swift", "/api/sessions/..%2F..%2Fetc%2Fpasswd/export",
      ] {
        let reply = try await server.request(.GET, path)
        #expect(reply.status == 404 || reply.status == 400, "\(path) → \(reply.status)")
        #expect(!reply.body.contains("root:"), "\(path)")
      }
    }
  }

  @Test("every module the page loads, and every module those import, is served from the app's folder with its type")
  func everyModuleThePageLoadsIsServed() async throws {
    try await LiveServer.inProcess { server in
      var pending = ["/assets/app.js"]
      var served: Set<String> = []
      while let path = pending.popLast() {
        guard served.insert(path).inserted else { continue }
        let reply = try await server.request(.GET, path)
        #expect(reply.status == 200, "\(path) → \(reply.status)")
        #expect(reply.header("Content-Type") == "text/javascript; charset=utf-8", "\(path)")
        // `from "/assets/x.js"` and `import("/assets/x.js")`.
        for match in reply.body.matches(of: /["'](\/assets\/[a-z-]+\.js)["']/) { pending.append(String(match.1)) }
      }
      #expect(served.contains("/assets/live.js") && served.count >= 30, "\(served.sorted())")
      for (path, type) in [
        ("/", "text/html; charset=utf-8"), ("/assets/app.css", "text/css; charset=utf-8"),
        ("/manifest.webmanifest", "application/manifest+json"), ("/apple-touch-icon.png", "image/png"),
        ("/assets/icon.svg", "image/svg+xml"),
      ] {
        let reply = try await server.request(.GET, path)
        #expect(reply.status == 200 && reply.header("Content-Type") == type, "\(path) → \(reply.status)")
      }
    }
  }

  @Test func pagesMayRunOnlyTheirOwnScriptsAndLoadNothingRemote() async throws {
    try await LiveServer.inProcess { server in
      let page = try await server.request(.GET, "/")
      let policy = try #require(page.header("Content-Security-Policy"))
      #expect(policy.contains("script-src 'self'"))
      #expect(policy.contains("img-src 'self' data:"))
      #expect(page.header("X-Content-Type-Options") == "nosniff")
      #expect(page.body.contains("<script type=\"module\" src=\"/assets/app.js\">"))
    }
  }
}
