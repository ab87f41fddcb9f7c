import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

/// Every body the web API reads refuses a field it does not decode, naming it: the lists of allowed fields are
/// the bodies' own coding keys, so a field the server would drop can not slip through on any route.
@Suite("Request bodies refuse fields they do not read, on every route (in process)")
struct StrictInputTests {
  /// A route, a body it accepts, and the same body with one field it does not know.
  struct Case: Sendable, CustomTestStringConvertible {
    var method: HTTPMethod
    var path: String
    var body: String
    var testDescription: String { "\(method) \(path)" }
  }

  static let cases: [Case] = [
    Case(method: .POST, path: "/api/sessions", body: #"{"title":"Plans"}"#),
    Case(method: .PUT, path: "/api/settings", body: Self.settings),
    Case(
      method: .POST, path: "/api/calendar/events",
      body: #"{"title":"Dentist","start":"2026-12-01T10:00","end":"2026-12-01T11:00"}"#),
    Case(method: .POST, path: "/api/reminders", body: #"{"title":"Call the bank","due":"2026-12-01"}"#),
    Case(method: .POST, path: "/api/notes", body: #"{"title":"Ideas","body":"More light"}"#),
    Case(method: .POST, path: "/api/habits", body: #"{"name":"Walk"}"#),
    Case(method: .POST, path: "/api/contacts", body: #"{"full_name":"Ada Lovelace"}"#),
    Case(method: .POST, path: "/api/prompts", body: #"{"name":"Plan","text":"Plan my day"}"#),
    Case(method: .PUT, path: "/api/memory/persona", body: #"{"text":"I like short answers."}"#),
    Case(method: .POST, path: "/api/sessions/bulk", body: #"{"ids":[],"action":"pin"}"#),
    Case(
      method: .POST, path: "/api/personas",
      body:
        #"{"name":"Captain","system_prompt":"You are a sea captain.","backstory":"","model":null,"preset":"creative"}"#
    ),
  ]

  static let settings =
    #"{"preset":"precise","temperature":0,"top_k":40,"top_p":0.95,"min_p":0.05,"repeat_penalty":1,"#
    + #""max_tokens":64,"system_prompt":null,"show_thinking":false}"#

  @Test(arguments: cases) func aBodyWithAFieldTheRouteDoesNotReadIsRefusedByName(_ route: Case) async throws {
    try await LiveServer.inProcess { server in
      let accepted = try await server.request(route.method, route.path, body: route.body)
      #expect((200..<300).contains(accepted.status), "\(accepted.body)")
      let extra = String(route.body.dropLast()) + #","colour":"blue"}"#
      let refused = try await server.request(route.method, route.path, body: extra)
      #expect(refused.status == 400, "\(refused.body)")
      #expect(refused.json?["error"]?["param"]?.stringValue == "colour", "\(refused.body)")
    }
  }

  @Test(arguments: [
    (
      "/api/settings", Self.settings.replacingOccurrences(of: #""max_tokens":64"#, with: #""max_tokens":2.5"#),
      "max_tokens", "whole number"
    ),
    (
      "/v1/chat/completions", #"{"messages":[{"role":"user","content":"Hi"}],"max_tokens":1e30}"#, "max_tokens", "range"
    ),
  ])
  func aNumberThatDoesNotFitItsFieldIsRefusedByName(
    path: String, body: String, field: String, says: String
  )
    async throws
  {
    try await LiveServer.inProcess { server in
      let refused = try await server.request(path == "/api/settings" ? .PUT : .POST, path, body: body)
      #expect(refused.status == 400, "\(refused.body)")
      #expect(refused.json?["error"]?["param"]?.stringValue == field, "\(refused.body)")
      #expect(refused.json?["error"]?["message"]?.stringValue?.contains(says) == true, "\(refused.body)")
    }
  }

  @Test func aSessionChangeNamingAFieldItDoesNotHaveIsRefusedAndChangesNothing() async throws {
    try await LiveServer.inProcess { server in
      let created = try await server.request(.POST, "/api/sessions", body: #"{"title":"Plans"}"#)
      let id = try #require(created.json?["id"]?.stringValue)
      // `is_pinned` is how the session reads back; the change is `pinned`. Neither is silently dropped.
      let refused = try await server.request(
        .PATCH, "/api/sessions/\(id)", body: #"{"title":"Trips","is_pinned":true}"#)
      #expect(refused.status == 400, "\(refused.body)")
      #expect(refused.json?["error"]?["param"]?.stringValue == "is_pinned")
      let after = try await server.request(.GET, "/api/sessions/\(id)")
      #expect(after.body.contains("Plans") && !after.body.contains("Trips"), "\(after.body)")
      let changed = try await server.request(.PATCH, "/api/sessions/\(id)", body: #"{"title":"Trips","pinned":true}"#)
      #expect(changed.status == 200, "\(changed.body)")
    }
  }

  @Test func anActionWithoutParametersTakesAnEmptyObjectOnly() async throws {
    try await LiveServer.inProcess { server in
      let named = try await server.request(.POST, "/api/runtime/validate", body: #"{"threads":2}"#)
      #expect(named.status == 400, "\(named.body)")
      #expect(named.json?["error"]?["param"]?.stringValue == "threads")
      let list = try await server.request(.POST, "/api/runtime/validate", body: "[1]")
      #expect(list.status == 400, "\(list.body)")
    }
  }

  @Test func aRepeatRuleWithAFieldItDoesNotHaveIsRefusedByItsPath() async throws {
    try await LiveServer.inProcess { server in
      let refused = try await server.request(
        .POST, "/api/calendar/events",
        body:
          #"{"title":"Run","start":"2026-12-01T07:00","end":"2026-12-01T08:00","recurrence":{"frequency":"DAILY","every":2}}"#
      )
      #expect(refused.status == 400, "\(refused.body)")
      #expect(refused.json?["error"]?["param"]?.stringValue == "recurrence.every")
    }
  }
}
