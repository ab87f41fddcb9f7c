public import ArgumentParser
import Foundation
public import HearthCore

/// A local date-time on the command line: `2026-12-01T09:00`, `2026-12-01 09:00`, a date alone (midnight),
/// or `today` / `tomorrow` (midnight).
struct DateTimeArgument: ExpressibleByArgument, Sendable {
  let value: LocalDateTime
  /// Whether only a date was given.
  let isDateOnly: Bool

  init?(argument: String) {
    let today = LocalDate(Date(), in: .current)
    switch argument.lowercased() {
    case "today": (value, isDateOnly) = (LocalDateTime(startOf: today), true)
    case "tomorrow": (value, isDateOnly) = (LocalDateTime(startOf: today.adding(days: 1)), true)
    default:
      guard let parsed = LocalDateTime(parsing: argument) else { return nil }
      value = parsed
      isDateOnly = !argument.contains(where: { $0 == "T" || $0 == " " || $0 == ":" })
    }
  }

  static var defaultCompletionKind: CompletionKind { .default }
}

extension Weekday: ExpressibleByArgument {}

/// A list of weekdays: `MO,WE,FR` or `mon,wed`.
struct WeekdaysArgument: ExpressibleByArgument, Sendable {
  let days: [Weekday]

  init?(argument: String) {
    let days = argument.split(separator: ",").map { Weekday(name: $0.trimmingCharacters(in: .whitespaces)) }
    guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else { return nil }
    self.days = days.compactMap { $0 }
  }
}

extension Recurrence.Frequency: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}

extension ReminderPriority: ExpressibleByArgument {}

/// Reads a file the user named, with a clear error.
enum InputFile {
  static func read(_ path: String) throws -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ValidationError("cannot read \(path): \((error as NSError).localizedDescription)")
    }
  }
}

/// Writes to a file when one is named, else to standard output.
enum OutputFile {
  static func write(_ text: String, to path: String?) throws {
    guard let path else { return Terminal.write(text) }
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw ValidationError("cannot write \(path): \((error as NSError).localizedDescription)")
    }
    Terminal.writeError("wrote \(path)\n")
  }
}

/// Plain-text renderings shared by the data commands.
enum DataText {
  static func shortID(_ id: String) -> String { String(id.prefix(8)) }

  /// `Tue 2026-12-01 10:00–11:00` or `Tue 2026-12-01 all day`, on the user's clock (`zone`).
  static func when(_ occurrence: Occurrence, zone: TimeZone) -> String {
    let (start, end) = local(occurrence, zone: zone)
    let day = "\(start.date.weekday.abbreviation) \(start.date)"
    if occurrence.event.isAllDay {
      let days = start.date.days(until: end.date)
      return days > 1 ? "\(day) all day (\(days) days)" : "\(day) all day"
    }
    return "\(day) \(start.clock)–\(end.date == start.date ? end.clock : end.shortDescription)"
  }

  /// Start and end on the user's clock; all-day events keep their dates.
  static func local(_ occurrence: Occurrence, zone: TimeZone) -> (start: LocalDateTime, end: LocalDateTime) {
    occurrence.event.isAllDay
      ? (occurrence.start, occurrence.end)
      : (LocalDateTime(occurrence.startsAt, in: zone), LocalDateTime(occurrence.endsAt, in: zone))
  }
}
