import Foundation
import HearthCore
import HearthTestSupport
import NIOHTTP1
import Testing

@testable import HearthEngine

@Suite("Notices through the web app's API, in process")
struct NoticeAPITests {
  @Test func aDueReminderStandsUntilSnoozedAndSnoozingMovesItsDueTime() async throws {
    try await LiveServer.inProcess { server in
      let zone = server.engine.calendar.timeZone
      // Due this very minute: the first look reaches a minute back.
      let reminder = try server.engine.reminders.create(
        Reminder(title: "Water the ferns", due: ReminderDue(time: LocalDateTime(Date(), in: zone))))
      let listed = try await server.request(.GET, "/api/notices")
      let notice = try #require(listed.json?["notices"]?.arrayValue?.first)
      #expect(notice["title"]?.stringValue == "Water the ferns")
      #expect(notice["kind"]?.stringValue == "reminder")
      let id = try #require(notice["id"]?.stringValue)

      let vague = try await server.request(.POST, "/api/notices/\(id)/snooze", body: #"{"for":"later"}"#)
      #expect(vague.status == 400)
      #expect(vague.json?["error"]?["param"]?.stringValue == "for")
      let snoozed = try await server.request(.POST, "/api/notices/\(id)/snooze", body: #"{"for":"1h"}"#)
      #expect(snoozed.status == 200, "\(snoozed.body)")
      let due = try #require(try server.engine.reminders.item(reminder.id).due?.instant(local: zone))
      #expect(abs(due.timeIntervalSinceNow - 3600) < 90)
      #expect(try await server.request(.GET, "/api/notices").json?["notices"]?.arrayValue?.isEmpty == true)
      #expect(try await server.request(.POST, "/api/notices/\(id)/dismiss").status == 409)
      #expect(try await server.request(.POST, "/api/notices/reminder:none:0/done").status == 404)
    }
  }
}
