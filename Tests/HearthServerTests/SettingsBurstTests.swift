import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

/// The routes added for templates and the web search server, hit by many requests at once as several pages and
/// clients would: the rules that hold one at a time hold together.
@Suite("Templates and the web search server under a burst of requests at once (in process)")
struct SettingsBurstTests {
  @Test func twelvePagesNamingOneTemplateAtOnceMakeOneAndTwelveNamesMakeTwelve() async throws {
    try await LiveServer.inProcess { server in
      let spellings = ["Weekly review", "weekly review", "WEEKLY REVIEW", "Weekly Review"]
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<12 {
          group.addTask {
            try await server.request(
              .POST, "/api/templates",
              body: #"{"name":"\#(spellings[index % 4])","first_message":"Review week \#(index)."}"#
            ).status
          }
        }
        for index in 0..<12 {
          group.addTask {
            try await server.request(
              .POST, "/api/templates", body: #"{"name":"Trip \#(index)","instructions":"Plan trip \#(index)."}"#
            ).status
          }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == 201 }.count == 13, "\(statuses.sorted())")
      #expect(statuses.filter { $0 == 409 }.count == 11, "\(statuses.sorted())")
      let names = try await server.request(.GET, "/api/templates").json?["templates"]?.arrayValue?
        .compactMap { $0["name"]?.stringValue }
      #expect(names?.count == 13)
      #expect(names?.filter { $0.lowercased() == "weekly review" }.count == 1)
    }
  }

  @Test func serversSavedAtOnceLeaveTheRunningOneAndTheSavedOneTheSame() async throws {
    try await LiveServer.inProcess { server in
      let addresses = (0..<10).map { "http://127.0.0.1:\(9100 + $0)" }
      let replies = try await withThrowingTaskGroup(of: LiveServer.Reply.self) { group in
        for (index, address) in addresses.enumerated() {
          group.addTask {
            index % 3 == 2
              ? try await server.request(.DELETE, "/api/web-search")
              : try await server.request(.PUT, "/api/web-search", body: #"{"url":"\#(address)"}"#)
          }
          group.addTask { try await server.request(.GET, "/api/web-search") }
        }
        return try await group.reduce(into: [LiveServer.Reply]()) { $0.append($1) }
      }
      #expect(replies.allSatisfy { (200..<300).contains($0.status) }, "\(replies.map(\.status))")
      // Whatever order they ran in, the last change is both what runs and what the profile keeps.
      let running = try await server.request(.GET, "/api/web-search").json?["url"]?.stringValue
      let saved = try Engine.open(EngineConfiguration(paths: server.engine.paths, environment: [:]), model: nil)
        .webSearchView().url
      #expect(running == saved)
      #expect(running.map { addresses.contains($0) } ?? true)
    }
  }
}
