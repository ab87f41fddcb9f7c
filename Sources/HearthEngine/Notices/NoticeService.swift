import Foundation
public import HearthCore
import HearthStore

/// When notices fire: how long before an event, the hour a day's reminder without a time is due, and the
/// hour by which a habit of the day should be checked in.
public struct NoticeSettings: Sendable, Hashable, Codable {
  public var eventLeadMinutes: Int
  public var reminderHour: Int
  public var habitHour: Int

  public init(eventLeadMinutes: Int = 10, reminderHour: Int = 9, habitHour: Int = 20) {
    self.eventLeadMinutes = eventLeadMinutes
    self.reminderHour = reminderHour
    self.habitHour = habitHour
  }
}

/// How long a snooze lasts.
public enum Snooze: String, Sendable, Hashable, Codable, CaseIterable {
  case tenMinutes = "10m"
  case hour = "1h"
  case tomorrow
}

/// What Hearth tells the user unasked, from their data: reminders as they come due, events a little before
/// they start, habits of the day not checked in by the evening. Every surface shows the standing notices;
/// `check()` (run by `hearth serve`'s scheduler, `hearth chat` and `hearth notifications`) records the new
/// ones, so what fired while nothing was open is there the next time something is.
public struct NoticeService: Sendable {
  let context: ItemContext
  let calendar: CalendarService
  let reminders: ReminderService
  let habits: HabitService
  private var database: HearthDatabase { context.database }
  private static let lastCheckKey = "notices.lastCheck"
  private static let settingsKey = "notices"
  /// How far back a first look, or one after a long pause, reaches.
  static let lookBack: TimeInterval = 24 * 3600

  public func settings() throws -> NoticeSettings {
    try database.setting(Self.settingsKey, as: NoticeSettings.self) ?? NoticeSettings()
  }

  public func setSettings(_ settings: NoticeSettings) throws {
    guard (0...1440).contains(settings.eventLeadMinutes), (0...23).contains(settings.reminderHour),
      (0...23).contains(settings.habitHour)
    else { throw NoticeError.invalidSettings }
    try database.setSetting(Self.settingsKey, to: settings)
  }

  /// Records what came due since the last look (at most a day back) and returns the notices standing now,
  /// oldest first.
  @discardableResult
  public func check() throws -> [Notice] {
    let now = context.clock()
    let last = try database.setting(Self.lastCheckKey, as: Date.self) ?? now.addingTimeInterval(-60)
    let from = max(min(last, now), now.addingTimeInterval(-Self.lookBack))
    _ = try database.recordNotices(try due(after: from, through: now))
    try database.setSetting(Self.lastCheckKey, to: now)
    return try standing()
  }

  /// The notices not dealt with whose time has come, oldest first.
  public func standing() throws -> [Notice] {
    try database.standingNotices(at: context.clock())
  }

  /// The most recent notices, dealt with or not, newest first.
  public func recent(limit: Int = 50) throws -> [Notice] { try database.recentNotices(limit: limit) }

  /// The notices whose moment falls after `from` and no later than `to`.
  func due(after from: Date, through to: Date) throws -> [Notice] {
    let settings = try settings()
    let zone = context.timeZone
    let window = DateInterval(start: from, end: max(from, to))
    let inWindow = { (moment: Date) in moment > from && moment <= to }
    var found: [Notice] = []

    for reminder in try reminders.list(includeCompleted: false) {
      guard let due = reminder.due else { continue }
      let moment =
        due.isDateOnly
        ? (LocalDateTime(date: due.time.date, hour: settings.reminderHour)?.instant(in: zone)
          ?? due.instant(local: zone))
        : due.instant(local: zone)
      guard inWindow(moment) else { continue }
      let detail = due.isDateOnly ? "Due today" : "Due at \(LocalDateTime(moment, in: zone).clock)"
      found.append(Notice(kind: .reminder, itemID: reminder.id, title: reminder.title, detail: detail, fireAt: moment))
    }

    let lead = TimeInterval(settings.eventLeadMinutes * 60)
    let starts = DateInterval(start: window.start.addingTimeInterval(lead), end: window.end.addingTimeInterval(lead))
    for occurrence in try calendar.occurrences(in: starts) where !occurrence.event.isAllDay {
      let moment = occurrence.startsAt.addingTimeInterval(-lead)
      guard inWindow(moment) else { continue }
      let start = LocalDateTime(occurrence.startsAt, in: zone).clock
      let detail = "Starts at \(start)" + (occurrence.event.location.map { " · \($0)" } ?? "")
      found.append(
        Notice(kind: .event, itemID: occurrence.event.id, title: occurrence.event.title, detail: detail, fireAt: moment)
      )
    }

    var day = LocalDate(from, in: zone)
    let lastDay = LocalDate(to, in: zone)
    while day <= lastDay {
      if let moment = LocalDateTime(date: day, hour: settings.habitHour)?.instant(in: zone), inWindow(moment) {
        for habit in try habits.list() where habit.schedule.isScheduled(on: day) {
          let stats = habit.stats(logs: try database.habitLogs(habit.id), today: day, zone: zone, windowDays: 1)
          guard !stats.doneToday else { continue }
          found.append(
            Notice(kind: .habit, itemID: habit.id, title: habit.name, detail: "Not checked in today", fireAt: moment))
        }
      }
      day = day.adding(days: 1)
    }
    return found.sorted { $0.fireAt < $1.fireAt }
  }

  /// Does what the notice is about: completes the reminder, checks the habit in; an event's is only dismissed.
  public func done(_ id: String) throws -> Notice {
    let notice = try standingNotice(id)
    switch notice.kind {
    case .reminder: _ = try reminders.complete(notice.itemID)
    case .habit: _ = try habits.log(notice.itemID, at: context.now())
    case .event, .automation, .sync: break
    }
    return try settle(notice)
  }

  /// Shows it again later. A reminder's due time moves (so it is due then, wherever it is looked at); an event's
  /// or a habit's notice comes back at the new time.
  public func snooze(_ id: String, _ snooze: Snooze) throws -> Notice {
    let notice = try standingNotice(id)
    let zone = context.timeZone
    let now = context.now()
    let until: Date
    switch snooze {
    case .tenMinutes: until = now.addingTimeInterval(10 * 60)
    case .hour: until = now.addingTimeInterval(3600)
    case .tomorrow:
      let tomorrow = LocalDate(now, in: zone).adding(days: 1)
      until = LocalDateTime(date: tomorrow, hour: try settings().reminderHour)?.instant(in: zone) ?? now + 86_400
    }
    if notice.kind == .reminder {
      var reminder = try reminders.item(notice.itemID)
      reminder.due = ReminderDue(time: LocalDateTime(until, in: zone))
      _ = try reminders.update(reminder)
      return try settle(notice)
    }
    var later = notice
    later.fireAt = until
    later.deliveredAt = nil
    try database.saveNotice(later)
    return later
  }

  /// Sets it aside without doing anything.
  public func dismiss(_ id: String) throws -> Notice { try settle(try standingNotice(id)) }

  /// Marks the notices as shown (the first time a surface shows them).
  public func markDelivered(_ notices: [Notice]) throws {
    let now = context.now()
    for var notice in notices where notice.deliveredAt == nil {
      notice.deliveredAt = now
      try database.saveNotice(notice)
    }
  }

  private func standingNotice(_ id: String) throws -> Notice {
    guard let notice = try database.notice(id) else { throw NoticeError.notFound(id) }
    guard notice.settledAt == nil else { throw NoticeError.alreadySettled(id) }
    return notice
  }

  private func settle(_ notice: Notice) throws -> Notice {
    var settled = notice
    settled.settledAt = context.now()
    try database.saveNotice(settled)
    return settled
  }

}

/// A notice that cannot be acted on.
public enum NoticeError: Error, Sendable, Hashable, CustomStringConvertible {
  case notFound(String)
  case alreadySettled(String)
  case invalidSettings

  public var description: String {
    switch self {
    case .notFound(let id): "no notice \(id)"
    case .alreadySettled(let id): "the notice \(id) was already dealt with"
    case .invalidSettings: "notice settings out of range: a lead of 0–1440 minutes and hours of 0–23"
    }
  }
}
