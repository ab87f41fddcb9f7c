import Foundation
import HearthCore
import HearthTestSupport
import NIOHTTP1
import Testing

@testable import HearthEngine

/// The web app's API speaks one key casing, snake_case, in both directions, as the CLI's `--json` does:
/// every record the pages read is filled in here and every key of every answer is checked.
@Suite("One key casing across the web app's API (in process)", .heavy)
struct KeyCasingTests {
  @Test func everyKeyOfEveryAnswerIsSnakeCaseAndRequestsAreReadInIt() async throws {
    try await LiveServer.inProcess { server in
      try await fill(server)
      var offenders: [String] = []
      for path in Self.reads {
        let reply = try await server.request(.GET, path)
        #expect(reply.status == 200, "\(path): \(reply.body)")
        guard let json = reply.json else { continue }
        offenders += Self.keysNotInSnakeCase(json, at: path)
      }
      #expect(offenders.isEmpty, "\(offenders)")
    }
  }

  @Test func aFieldInCamelCaseIsRefusedByItsName() async throws {
    try await LiveServer.inProcess { server in
      let cases: [(String, String, String)] = [
        (
          "/api/calendar/events",
          #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T11:00","isAllDay":false}"#, "isAllDay"
        ),
        ("/api/contacts", #"{"fullName":"Ada"}"#, "fullName"),
        ("/api/notes", #"{"title":"N","body":"","isPinned":true}"#, "isPinned"),
        (
          "/api/calendar/events",
          #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T11:00","recurrence":{"frequency":"WEEKLY","byWeekday":["MO"]}}"#,
          "recurrence.byWeekday"
        ),
      ]
      for (path, body, field) in cases {
        let refused = try await server.request(.POST, path, body: body)
        #expect(refused.status == 400, "\(path): \(refused.body)")
        #expect(refused.json?["error"]?["param"]?.stringValue == field, "\(refused.body)")
      }
      #expect(try await server.request(.GET, "/api/contacts").json?["contacts"]?.arrayValue?.isEmpty == true)
      #expect(try await server.request(.GET, "/api/notes").json?["notes"]?.arrayValue?.isEmpty == true)
    }
  }

  @Test func aRuleBreakingFieldIsNamedAsTheAPISpellsIt() async throws {
    try await LiveServer.inProcess { server in
      let refused = try await server.request(
        .POST, "/api/calendar/events",
        body:
          #"{"title":"X","start":"2026-12-01T10:00","end":"2026-12-01T11:00","recurrence":{"frequency":"WEEKLY","by_month_day":[3]}}"#
      )
      #expect(refused.status == 400)
      #expect(refused.json?["error"]?["param"]?.stringValue == "recurrence.by_month_day", "\(refused.body)")
      #expect(refused.body.contains("recurrence.by_month_day:"))
    }
  }

  /// What the pages read, with something in each.
  private static let reads = [
    "/api/calendar/occurrences?from=2026-12-01&to=2027-01-31", "/api/reminders", "/api/notes", "/api/contacts",
    "/api/habits", "/api/briefing?date=2026-12-07", "/api/memory", "/api/memory/facts", "/api/sessions",
    "/api/actions?state=pending&limit=50", "/api/accounts", "/api/backups", "/api/devices", "/api/mcp",
    "/api/mcp/servers", "/api/models", "/api/models/pulls", "/api/notices", "/api/personas", "/api/prompts",
    "/api/push/key", "/api/remote", "/api/runtime", "/api/settings", "/api/templates", "/api/web-search",
    "/api/diagnostics",
  ]

  private func fill(_ server: LiveServer) async throws {
    let writes: [(String, String)] = [
      (
        "/api/calendar/events",
        #"{"title":"Standup","start":"2026-12-07T09:00","end":"2026-12-07T09:15","is_busy":true,"recurrence":{"frequency":"WEEKLY","by_weekday":["MO","WE"],"week_start":"MO"}}"#
      ),
      (
        "/api/calendar/events",
        #"{"title":"Fair","start":"2026-12-12T00:00","end":"2026-12-13T00:00","is_all_day":true}"#
      ),
      (
        "/api/reminders",
        #"{"title":"Plants","due":"2026-12-08T08:00","priority":"high","recurrence":{"frequency":"MONTHLY","by_month_day":[8]}}"#
      ),
      ("/api/notes", #"{"title":"Trip","body":"Pack bags","tags":["travel"],"is_pinned":true}"#),
      (
        "/api/contacts",
        #"{"full_name":"Anna Berg","given_name":"Anna","family_name":"Berg","organization":"Acme","birthday":"--04-12","phones":[{"label":"cell","value":"+33 6 12 34 56 78"}],"emails":[{"value":"anna@example.com"}]}"#
      ),
      ("/api/habits", #"{"name":"Run","schedule":"daily"}"#),
      ("/api/memory/facts", #"{"text":"I like tea","is_pinned":true}"#),
      ("/api/prompts", #"{"name":"Short","text":"Answer briefly."}"#),
    ]
    for (path, body) in writes {
      let reply = try await server.request(.POST, path, body: body)
      #expect(reply.status == 201, "\(path): \(reply.body)")
    }
    let notes = try await server.request(.GET, "/api/notes")
    #expect(notes.json?["notes"]?.arrayValue?.first?["is_pinned"] == .bool(true), "\(notes.body)")
    let week = try await server.request(.GET, "/api/calendar/occurrences?from=2026-12-07&to=2026-12-10")
    let standup = week.json?["occurrences"]?.arrayValue?.first?["event"]?["recurrence"]
    #expect(standup?["by_weekday"]?.arrayValue?.compactMap(\.stringValue) == ["MO", "WE"], "\(week.body)")
    let habit = try await server.request(.GET, "/api/habits")
    if let id = habit.json?["habits"]?.arrayValue?.first?["habit"]?["id"]?.stringValue {
      #expect(try await server.request(.POST, "/api/habits/\(id)/log", body: "{}").status == 201)
    }
    let session = try await server.request(.POST, "/api/sessions", body: #"{"title":"Keys"}"#)
    if let id = session.json?["id"]?.stringValue ?? session.json?["session"]?["id"]?.stringValue {
      let detail = try await server.request(.GET, "/api/sessions/\(id)")
      #expect(detail.status == 200)
      #expect(Self.keysNotInSnakeCase(detail.json ?? .null, at: "/api/sessions/:id").isEmpty, "\(detail.body)")
    } else {
      Issue.record("no session made: \(session.body)")
    }
  }

  /// Keys with a capital or another character snake_case has not, by path; a chat's citations are keyed
  /// by message id, which is data.
  static func keysNotInSnakeCase(_ value: JSONValue, at path: String) -> [String] {
    switch value {
    case .object(let members, _):
      return members.flatMap { key, member -> [String] in
        let snake = !key.isEmpty && key.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }
        let data = path.hasSuffix(".citations") && UUID(uuidString: key) != nil
        return (snake || data ? [] : ["\(path).\(key)"]) + keysNotInSnakeCase(member, at: "\(path).\(key)")
      }
    case .array(let values):
      return values.flatMap { keysNotInSnakeCase($0, at: "\(path)[]") }
    default:
      return []
    }
  }
}
