import Foundation
import HearthCore
import HearthTestSupport
import NIOHTTP1
import Testing

@testable import HearthEngine

@Suite("The Briefing card's API, in process")
struct BriefingAPITests {
  @Test func theBriefingOfADayComesFromTheDataAndABadDateIsNamed() async throws {
    try await LiveServer.inProcess { server in
      let created = try await server.request(
        .POST, "/api/calendar/events", body: #"{"title":"Dentist","start":"2025-11-28T09:00","end":"2025-11-28T10:00"}"#
      )
      #expect(created.status == 201, "\(created.body)")
      let day = try await server.request(.GET, "/api/briefing?date=2025-11-28")
      #expect(day.status == 200)
      #expect(day.json?["events"]?.arrayValue?.map { $0["title"]?.stringValue } == ["Dentist"])
      #expect(day.json?["free_time"]?.arrayValue?.first?["start"]?.stringValue == "2025-11-28T10:00")
      let other = try await server.request(.GET, "/api/briefing?date=2025-11-29")
      #expect(other.json?["events"]?.arrayValue?.isEmpty == true)
      let bad = try await server.request(.GET, "/api/briefing?date=friday")
      #expect(bad.status == 400)
      #expect(bad.json?["error"]?["param"]?.stringValue == "date")
    }
  }
}
