public import Foundation

/// A stored iCalendar or vCard body as a CalDAV or CardDAV query reads it, with the same line reader and time
/// values as imports and the sync: what a property says, and the times a to-do writes.
public struct StoredBody: Sendable {
  private let lines: [ContentLine]

  public init(_ body: String) { lines = ContentLines.parse(body) }

  /// The values of every property named `name` (upper case), at any level, as written (escapes left). A card's
  /// grouped property (`item1.EMAIL`) counts under its own name.
  public func values(of name: String) -> [String] {
    lines.filter { ($0.name.split(separator: ".").last.map(String.init) ?? $0.name) == name }.map(\.value)
  }

  /// The times of the first to-do at its own level (not an alarm's in it); a time that cannot be read is left out.
  public func todoTimes(local: TimeZone) -> TodoTimes {
    var times = TodoTimes()
    var inside = false
    var depth = 0
    for line in lines {
      if !inside {
        inside = line.name == "BEGIN" && line.value.uppercased() == "VTODO"
        continue
      }
      if line.name == "BEGIN" { depth += 1 }
      if line.name == "END" {
        if depth == 0 { break }
        depth -= 1
        continue
      }
      guard depth == 0 else { continue }
      let instant = { () -> Date? in
        do { return try TimeValue.parse(line).instant(local: local) } catch { return nil }
      }
      switch line.name {
      case "DTSTART": times.start = instant()
      case "DUE": times.due = instant()
      case "DURATION": times.duration = ICalendarFormat.duration(line.value).map(TimeInterval.init)
      case "COMPLETED": times.completed = instant()
      case "CREATED": times.created = instant()
      default: break
      }
    }
    return times
  }

  /// `date` as a UTC date-time (`20261207T000000Z`), as time ranges and free-busy answers write it.
  public static func utc(_ date: Date) -> String { ICalendarFormat.utc(date) }

  /// A UTC date-time as a time range writes it (`20261207T000000Z`); `nil` for anything else.
  public static func instant(utc text: String) -> Date? {
    guard text.hasSuffix("Z") else { return nil }
    do {
      return try TimeValue.parse(text, line: ContentLine(name: "", value: text)).instant(
        local: TimeZone(secondsFromGMT: 0)!)
    } catch {
      return nil
    }
  }
}

/// The times a to-do writes (`DTSTART`, `DUE`, `DURATION`, `COMPLETED`, `CREATED`), and whether they fall in a
/// time range by the table of RFC 4791 §9.9.
public struct TodoTimes: Sendable, Hashable {
  public var start: Date?
  public var due: Date?
  public var duration: TimeInterval?
  public var completed: Date?
  public var created: Date?

  public init() {}

  public func overlaps(start rangeStart: Date, end rangeEnd: Date) -> Bool {
    if let start, let duration {
      let finish = start.addingTimeInterval(duration)
      return rangeStart <= finish && (rangeEnd > start || rangeEnd >= finish)
    }
    if let start, let due { return (rangeStart <= start || rangeStart < due) && (rangeEnd > start || rangeEnd >= due) }
    if let start { return rangeStart <= start && rangeEnd > start }
    if let due { return rangeStart < due && rangeEnd >= due }
    if let completed, let created {
      return (rangeStart <= created || rangeStart <= completed) && (rangeEnd >= created || rangeEnd >= completed)
    }
    if let completed { return rangeStart <= completed && rangeEnd >= completed }
    if let created { return rangeEnd > created }
    return true
  }
}
