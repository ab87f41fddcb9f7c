public import Foundation

/// Something the user wants to do regularly, and how often.
public struct Habit: Hashable, Sendable, Codable, Identifiable {
  /// How often a habit is meant to be done.
  public enum Schedule: Hashable, Sendable, Codable, CustomStringConvertible {
    case daily
    /// On these days of the week.
    case days(Set<Weekday>)
    /// A number of times in each week (Monday to Sunday), on any days.
    case timesPerWeek(Int)

    public var description: String {
      switch self {
      case .daily: "daily"
      case .days(let days): days.sorted().map(\.rawValue).joined(separator: ",")
      case .timesPerWeek(let times): "\(times)/week"
      }
    }

    /// Reads `daily`, `MO,WE,FR` (or `mon,wed,fri`), `3/week`.
    public init?(parsing text: String) {
      let text = text.trimmingCharacters(in: .whitespaces).lowercased()
      if text == "daily" || text == "every day" {
        self = .daily
      } else if let slash = text.firstIndex(of: "/") {
        guard let times = Int(text[..<slash].trimmingCharacters(in: .whitespaces)), (1...7).contains(times),
          ["week", "wk", "w"].contains(text[text.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self = .timesPerWeek(times)
      } else {
        let days = text.split(separator: ",").map { Weekday(name: $0.trimmingCharacters(in: .whitespaces)) }
        guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else { return nil }
        self = .days(Set(days.compactMap { $0 }))
      }
    }

    /// Whether a log is expected on `date` (always false for a weekly count, which has no fixed days).
    public func isScheduled(on date: LocalDate) -> Bool {
      switch self {
      case .daily: true
      case .days(let days): days.contains(date.weekday)
      case .timesPerWeek: false
      }
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let schedule = Schedule(parsing: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not a schedule (daily, MO,WE,FR or 3/week): \(text)")
      }
      self = schedule
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(description)
    }
  }

  public var id: String
  public var name: String
  public var schedule: Schedule
  public var createdAt: Date
  public var updatedAt: Date

  public init(
    id: String = UUID().uuidString, name: String, schedule: Schedule = .daily, createdAt: Date = Date(),
    updatedAt: Date? = nil
  ) {
    self.id = id
    self.name = name
    self.schedule = schedule
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  public func validate() throws(PersonalDataError) {
    if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .invalid(field: "name", "is empty") }
    switch schedule {
    case .days(let days) where days.isEmpty: throw .invalid(field: "schedule", "names no day")
    case .timesPerWeek(let times) where !(1...7).contains(times):
      throw .invalid(field: "schedule", "times per week must be 1…7, not \(times)")
    default: break
    }
  }
}

/// One time a habit was done.
public struct HabitLog: Hashable, Sendable, Codable, Identifiable {
  public var id: String
  public var habitID: String
  public var at: Date
  public var note: String?

  public init(id: String = UUID().uuidString, habitID: String, at: Date = Date(), note: String? = nil) {
    self.id = id
    self.habitID = habitID
    self.at = at
    self.note = note
  }
}

/// How a habit is going.
public struct HabitStats: Hashable, Sendable, Codable {
  /// Consecutive scheduled days (weeks, for a weekly count) done, up to today; today counts once done, and
  /// does not break the streak while it is still open.
  public var currentStreak: Int
  public var longestStreak: Int
  /// Done ÷ expected over the window, 0…1.
  public var completionRate: Double
  /// The window the rate covers, in days (shorter when the habit is younger).
  public var windowDays: Int
  public var doneToday: Bool
  /// Whether a streak counts days or weeks.
  public var streakUnit: String
  /// Days (within the window) with at least one log, oldest first: for a chart.
  public var doneDays: [LocalDate]
  /// The scheduled days the rate is of (today only once done), for a habit kept on days rather than a weekly
  /// count: a Mon/Wed/Fri habit begun on Wednesday has had one such day in three, and its rate says so.
  public var plannedDays: Int? = nil
}
