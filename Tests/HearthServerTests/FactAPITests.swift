import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("The facts API: add, list with history, change, pin, forget")
struct FactAPITests {
  @Test("a fact is added, replaced by one on the same thing, pinned, changed and forgotten with its history")
  func lifecycle() async throws {
    try await LiveServer.inProcess { server in
      let added = try await server.request(.POST, "/api/memory/facts", body: #"{"text":"I live in Porto."}"#)
      #expect(added.status == 201, "\(added.body)")
      let first = try #require(added.json?["fact"]?["id"]?.stringValue)
      #expect(added.json?["fact"]?["origin"]?.stringValue == "typed")
      #expect(added.json?["fact"]?["holds"] == .bool(true))
      let replacing = try await server.request(
        .POST, "/api/memory/facts", body: #"{"text":"I live in Lisbon.","expires":"2099-01-01"}"#)
      #expect(replacing.status == 201)
      #expect(replacing.json?["replaced"]?["id"]?.stringValue == first)
      let second = try #require(replacing.json?["fact"]?["id"]?.stringValue)
      #expect(replacing.json?["fact"]?["replaces"]?.stringValue == first)
      // The same statement twice is a conflict, with its code.
      let twice = try await server.request(
        .POST, "/api/memory/facts", body: #"{"text":"I live in Lisbon.","expires":"2099-01-01"}"#)
      #expect(twice.status == 409, "\(twice.body)")
      #expect(twice.body.contains("fact_kept_already"))

      let listed = try await server.request(.GET, "/api/memory/facts")
      #expect(listed.json?["facts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [second])
      let history = try await server.request(.GET, "/api/memory/facts?history=true")
      #expect(history.json?["facts"]?.arrayValue?.count == 2)

      let pinned = try await server.request(
        .PATCH, "/api/memory/facts/\(second)", body: #"{"is_pinned":true,"expires":null}"#)
      #expect(pinned.status == 200, "\(pinned.body)")
      #expect(pinned.json?["is_pinned"] == .bool(true))
      #expect(pinned.json?["expires"] == nil || pinned.json?["expires"] == .null)
      let changed = try await server.request(
        .PATCH, "/api/memory/facts/\(second)", body: #"{"text":"I live in Faro."}"#)
      #expect(changed.json?["text"]?.stringValue == "I live in Faro.")

      let forgotten = try await server.request(.DELETE, "/api/memory/facts/\(second)")
      #expect(forgotten.status == 200)
      let after = try await server.request(.GET, "/api/memory/facts?history=true")
      #expect(after.json?["facts"]?.arrayValue?.isEmpty == true)
    }
  }

  @Test("an unknown field, a bad day, a missing text and a bad flag are refused, naming what is wrong")
  func badInput() async throws {
    try await LiveServer.inProcess { server in
      let unknown = try await server.request(.POST, "/api/memory/facts", body: #"{"text":"x","pinned":true}"#)
      #expect(unknown.status == 400 && unknown.body.contains("pinned"), "\(unknown.body)")
      let day = try await server.request(.POST, "/api/memory/facts", body: #"{"text":"x","expires":"Friday"}"#)
      #expect(day.status == 400 && day.body.contains("expires"), "\(day.body)")
      let empty = try await server.request(.POST, "/api/memory/facts", body: #"{"is_pinned":true}"#)
      #expect(empty.status == 400 && empty.body.contains("text"), "\(empty.body)")
      let blank = try await server.request(.POST, "/api/memory/facts", body: #"{"text":"  "}"#)
      #expect(blank.status == 400, "\(blank.body)")
      let flag = try await server.request(.GET, "/api/memory/facts?history=yes")
      #expect(flag.status == 400 && flag.body.contains("history"), "\(flag.body)")
      let missing = try await server.request(.DELETE, "/api/memory/facts/nothing-here")
      #expect(missing.status == 404, "\(missing.body)")
    }
  }
}
