import Foundation
import HearthBackup
import Testing

@Suite("Which scheduled backups are kept")
struct BackupRotationTests {
  private var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return calendar
  }

  @Test func dailyForAWeekWeeklyForAMonthThenGone() {
    let rotation = BackupRotation(calendar: calendar)
    let now = Date(timeIntervalSince1970: 1_796_000_000)
    // Two backups a day for 60 days.
    let taken = (0..<120).map { now.addingTimeInterval(-Double($0) * 43_200 - 60) }
    let kept = rotation.kept(taken, now: now)
    let calendar = calendar
    let today = calendar.startOfDay(for: now)
    let ages = kept.map { calendar.dateComponents([.day], from: calendar.startOfDay(for: $0), to: today).day! }.sorted()
    // One for each of the 7 newest calendar days, the newest of each.
    #expect(ages.filter { $0 < 7 } == Array(0..<7))
    for day in 0..<7 {
      let ofDay = taken.filter {
        calendar.dateComponents([.day], from: calendar.startOfDay(for: $0), to: today).day == day
      }
      #expect(kept.contains(ofDay.max()!))
    }
    // Then at most one a week until day 31, and none after.
    // Then one a week until day 31 (days 7 to 30 touch 4 or 5 calendar weeks), and none after.
    let weekly = kept.filter {
      calendar.dateComponents([.day], from: calendar.startOfDay(for: $0), to: today).day! >= 7
    }
    let weeks = Set(weekly.map { calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: $0) })
    #expect(weeks.count == weekly.count)
    #expect((4...5).contains(weekly.count))
    #expect(ages.allSatisfy { $0 <= 30 })
    #expect(kept.contains(taken[0]))
  }

  @Test func theNewestIsKeptHoweverOld() {
    let now = Date(timeIntervalSince1970: 1_796_000_000)
    let old = [now.addingTimeInterval(-90 * 86_400), now.addingTimeInterval(-120 * 86_400)]
    #expect(BackupRotation(calendar: calendar).kept(old, now: now) == [old[0]])
    #expect(BackupRotation(calendar: calendar).kept([], now: now).isEmpty)
  }
}
