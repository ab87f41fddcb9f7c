import Foundation
import HearthCore

/// A problem with one item; the reader skips the item and reports it.
struct ItemProblem: Error {
  var line: Int
  var reason: String

  init(_ line: Int, _ reason: String) {
    self.line = line
    self.reason = reason
  }
}

/// A DATE or DATE-TIME value as iCalendar writes it (RFC 5545 §3.3.4–5).
struct TimeValue: Hashable {
  var local: LocalDateTime
  var isDate: Bool
  var zone: EventZone

  /// Reads a property's value: `VALUE=DATE:20261201`, `20261201T090000Z`, `TZID=Europe/Paris:20261201T090000`,
  /// or floating `20261201T090000`.
  static func parse(_ line: ContentLine) throws(ItemProblem) -> TimeValue {
    try parse(line.value, line: line)
  }

  static func parse(_ raw: String, line: ContentLine) throws(ItemProblem) -> TimeValue {
    let value = raw.trimmingCharacters(in: .whitespaces)
    let isDate = line.parameter("VALUE").first?.uppercased() == "DATE" || (value.count == 8 && !value.contains("T"))
    if isDate {
      guard let date = LocalDate(parsing: value), value.count == 8 else {
        throw ItemProblem(line.line, "\(line.name) \(value) is not a date (YYYYMMDD)")
      }
      return TimeValue(local: LocalDateTime(startOf: date), isDate: true, zone: .floating)
    }
    let isUTC = value.hasSuffix("Z") || value.hasSuffix("z")
    let digits = isUTC ? String(value.dropLast()) : value
    guard digits.count == 15, let local = LocalDateTime(parsing: digits) else {
      throw ItemProblem(line.line, "\(line.name) \(value) is not a date-time (YYYYMMDDTHHMMSS)")
    }
    if isUTC { return TimeValue(local: local, isDate: false, zone: .utc) }
    if let identifier = line.parameter("TZID").first {
      guard let zone = zone(named: identifier) else {
        throw ItemProblem(line.line, "\(line.name) names an unknown time zone \(identifier)")
      }
      return TimeValue(local: local, isDate: false, zone: zone)
    }
    return TimeValue(local: local, isDate: false, zone: .floating)
  }

  /// An IANA zone from a TZID, accepting the path-style names some programs write
  /// (`/mozilla.org/20050126_1/Europe/Paris`).
  static func zone(named identifier: String) -> EventZone? {
    if identifier.uppercased() == "UTC" || identifier.uppercased() == "GMT" { return .utc }
    if TimeZone(identifier: identifier) != nil { return .named(identifier) }
    let parts = identifier.split(separator: "/")
    for length in [3, 2] where parts.count > length {
      let candidate = parts.suffix(length).joined(separator: "/")
      if TimeZone(identifier: candidate) != nil { return .named(candidate) }
    }
    return nil
  }

  /// The same instant on another zone's clock (floating values keep their wall time).
  func converted(to zone: EventZone, local: TimeZone) -> LocalDateTime {
    guard self.zone != zone, self.zone != .floating, zone != .floating else { return self.local }
    return LocalDateTime(self.local.instant(in: self.zone.resolved(local: local)), in: zone.resolved(local: local))
  }

  /// The instant, reading floating values on `local`'s clock.
  func instant(local: TimeZone) -> Date { self.local.instant(in: zone.resolved(local: local)) }
}

enum ICalendarFormat {
  static func date(_ date: LocalDate) -> String { date.description.replacingOccurrences(of: "-", with: "") }

  static func dateTime(_ time: LocalDateTime) -> String {
    "\(date(time.date))T\(LocalDate.pad(time.hour, 2))\(LocalDate.pad(time.minute, 2))\(LocalDate.pad(time.second, 2))"
  }

  static func utc(_ instant: Date) -> String {
    dateTime(LocalDateTime(instant, in: TimeZone(identifier: "UTC")!)) + "Z"
  }

  /// A time property with the parameters its form needs.
  static func property(_ name: String, _ time: LocalDateTime, zone: EventZone, isDate: Bool) -> ContentLine {
    if isDate { return ContentLine(name: name, parameters: [("VALUE", ["DATE"])], value: date(time.date)) }
    switch zone {
    case .utc: return ContentLine(name: name, value: dateTime(time) + "Z")
    case .floating: return ContentLine(name: name, value: dateTime(time))
    case .named(let identifier):
      return ContentLine(name: name, parameters: [("TZID", [identifier])], value: dateTime(time))
    }
  }

  /// Reads `P1D`, `PT1H30M`, `P2W`, `-PT15M` into seconds.
  static func duration(_ text: String) -> Int? {
    var text = Substring(text.uppercased())
    var sign = 1
    if text.first == "-" || text.first == "+" {
      sign = text.first == "-" ? -1 : 1
      text = text.dropFirst()
    }
    guard text.first == "P" else { return nil }
    text = text.dropFirst()
    var total = 0
    var number = ""
    var inTime = false
    var sawUnit = false
    for character in text {
      if character.isNumber {
        number.append(character)
        continue
      }
      if character == "T" {
        inTime = true
        continue
      }
      guard let value = Int(number) else { return nil }
      number = ""
      sawUnit = true
      switch (character, inTime) {
      case ("W", false): total += value * 7 * 86_400
      case ("D", false): total += value * 86_400
      case ("H", true): total += value * 3600
      case ("M", true): total += value * 60
      case ("S", true): total += value
      default: return nil
      }
    }
    return number.isEmpty && sawUnit ? sign * total : nil
  }
}
