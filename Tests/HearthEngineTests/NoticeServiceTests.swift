import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("Notices: what fires when, and what the user does with it, on a clock that moves")
struct NoticeServiceTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  private func at(_ text: String) -> Date { LocalDateTime(parsing: text)!.instant(in: paris) }

  private func engine(home: URL, clock: MovingClock) async throws -> Engine {
    var configuration = EngineConfiguration(paths: HearthPaths(home: home), environment: [:])
    configuration.timeZone = paris
    configuration.clock = { clock.read() }
    return try await Engine.open(configuration)
  }

  @Test func eachKindFiresAtItsMomentOnceAndIsDealtWith() async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let clock = MovingClock(at("2026-11-27T08:00"))
    let engine = try await engine(home: home, clock: clock)
    let notices = engine.notices
    #expect(try notices.check().isEmpty)

    let call = try engine.reminders.create(
      Reminder(title: "Call the bank", due: ReminderDue(time: LocalDateTime(parsing: "2026-11-27T10:00")!)))
    _ = try engine.reminders.create(
      Reminder(title: "Buy stamps", due: ReminderDue(date: LocalDate(parsing: "2026-11-27")!)))
    _ = try engine.reminders.create(Reminder(title: "Undated"))
    _ = try engine.calendar.create(
      CalendarEvent(
        title: "Review", start: LocalDateTime(parsing: "2026-11-27T11:00")!,
        end: LocalDateTime(parsing: "2026-11-27T12:00")!, location: "Room 4"))
    let run = try engine.habits.create(Habit(name: "Run"))
    let read = try engine.habits.create(Habit(name: "Read"))
    _ = try engine.habits.log(read.id, at: at("2026-11-27T07:00"))

    clock.set(at("2026-11-27T08:59"))
    #expect(try notices.check().isEmpty)
    clock.set(at("2026-11-27T09:00:30"))
    #expect(try notices.check().map(\.title) == ["Buy stamps"])
    clock.set(at("2026-11-27T10:00:05"))
    let afterTen = try notices.check()
    #expect(afterTen.map(\.title) == ["Buy stamps", "Call the bank"])
    #expect(afterTen.last?.detail == "Due at 10:00")
    clock.set(at("2026-11-27T10:50:10"))
    let review = try #require(try notices.check().first { $0.kind == .event })
    #expect(review.detail == "Starts at 11:00 · Room 4")
    // Looking again finds nothing new: each fires once.
    #expect(try notices.check().count == 3)

    // Done completes the reminder; dismiss only sets the notice aside.
    let bank = try #require(afterTen.last)
    _ = try notices.done(bank.id)
    #expect(try engine.reminders.item(call.id).completedAt != nil)
    _ = try notices.dismiss(review.id)
    #expect(try notices.standing().map(\.title) == ["Buy stamps"])
    #expect(throws: NoticeError.self) { try notices.dismiss(review.id) }

    // Snoozing a reminder moves its due time; it fires again then.
    let stamps = try #require(try notices.standing().first)
    _ = try notices.snooze(stamps.id, .tenMinutes)
    #expect(try notices.standing().isEmpty)
    let due = try #require(try engine.reminders.list(includeCompleted: false).first { $0.title == "Buy stamps" }?.due)
    #expect(due.time == LocalDateTime(parsing: "2026-11-27T11:00:10"))
    clock.set(at("2026-11-27T11:00:20"))
    #expect(try notices.check().map(\.title) == ["Buy stamps"])

    // Only the habit not checked in is told of, at 20:00; checking in from the notice logs it.
    clock.set(at("2026-11-27T20:00:10"))
    let habits = try notices.check().filter { $0.kind == .habit }
    #expect(habits.map(\.title) == ["Run"])
    _ = try notices.done(try #require(habits.first).id)
    #expect(try engine.habits.logs(run.id).count == 1)
  }

  @Test func whatFiredWhileNothingLookedIsThereNextTimeAndTwoLookersRecordItOnce() async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let clock = MovingClock(at("2026-11-27T08:00"))
    let first = try await engine(home: home, clock: clock)
    #expect(try first.notices.check().isEmpty)
    _ = try first.reminders.create(
      Reminder(title: "Pay rent", due: ReminderDue(time: LocalDateTime(parsing: "2026-11-27T09:15")!)))
    _ = try first.calendar.create(
      CalendarEvent(
        title: "Standup", start: LocalDateTime(parsing: "2026-11-27T10:00")!,
        end: LocalDateTime(parsing: "2026-11-27T10:15")!))
    // Nothing looks for three hours; then two processes look at once.
    clock.set(at("2026-11-27T11:00"))
    let second = try await engine(home: home, clock: clock)
    let seen = try await withThrowingTaskGroup(of: [Notice].self) { group in
      group.addTask { try first.notices.check() }
      group.addTask { try second.notices.check() }
      return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
    }
    #expect(Set(seen.map(\.id)).count == 2)
    #expect(try first.notices.standing().map(\.title) == ["Pay rent", "Standup"])

    // An event's notice snoozed for an hour comes back then, and not before.
    let standup = try #require(try first.notices.standing().last)
    _ = try first.notices.snooze(standup.id, .hour)
    #expect(try first.notices.standing().map(\.title) == ["Pay rent"])
    clock.set(at("2026-11-27T12:00:01"))
    #expect(try second.notices.check().map(\.title) == ["Pay rent", "Standup"])
  }
}
