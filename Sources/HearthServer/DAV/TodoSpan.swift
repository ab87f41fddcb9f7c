import Foundation

/// The times of a to-do as its body writes them (`DTSTART`, `DUE`, `DURATION`, `COMPLETED`, `CREATED`), and
/// whether they fall in a time range by the table of RFC 4791 §9.9.
struct TodoSpan {
  var start: Date?
  var due: Date?
  var duration: TimeInterval?
  var completed: Date?
  var created: Date?

  init(body: String, timeZone: TimeZone) {
    for (name, parameters, value) in Self.topLevel(of: body, component: "VTODO") {
      switch name {
      case "DTSTART": start = Self.date(value, parameters: parameters, zone: timeZone)
      case "DUE": due = Self.date(value, parameters: parameters, zone: timeZone)
      case "DURATION": duration = Self.seconds(value)
      case "COMPLETED": completed = Self.date(value, parameters: parameters, zone: timeZone)
      case "CREATED": created = Self.date(value, parameters: parameters, zone: timeZone)
      default: break
      }
    }
  }

  func overlaps(start rangeStart: Date, end rangeEnd: Date) -> Bool {
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

  /// The properties of the first `component` at its own level (not those of an alarm in it), unfolded:
  /// (name, parameters, value).
  static func topLevel(of body: String, component: String) -> [(String, [String: String], String)] {
    let unfolded = body.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
      .replacingOccurrences(of: "\n ", with: "")
    var inside = false
    var depth = 0
    var found: [(String, [String: String], String)] = []
    for line in unfolded.split(whereSeparator: \.isNewline) {
      let upper = line.uppercased()
      if !inside {
        if upper == "BEGIN:\(component)" { inside = true }
        continue
      }
      if upper.hasPrefix("BEGIN:") { depth += 1 }
      if upper.hasPrefix("END:") {
        if depth == 0 { break }
        depth -= 1
        continue
      }
      guard depth == 0, let colon = line.firstIndex(of: ":") else { continue }
      let head = line[..<colon].split(separator: ";")
      var parameters: [String: String] = [:]
      for parameter in head.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        if pair.count == 2 { parameters[pair[0].uppercased()] = pair[1].trimmingCharacters(in: ["\""]) }
      }
      found.append((head.first.map { $0.uppercased() } ?? "", parameters, String(line[line.index(after: colon)...])))
    }
    return found
  }

  /// A DATE or DATE-TIME value: UTC with `Z`, in its `TZID`, else in `zone` (floating).
  static func date(_ value: String, parameters: [String: String], zone: TimeZone) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = parameters["TZID"].flatMap(TimeZone.init(identifier:)) ?? zone
    let text = value.trimmingCharacters(in: .whitespaces)
    // Only the three shapes iCalendar writes (Foundation's formatter would read other text as some date).
    guard [8, 15, 16].contains(text.count), text.allSatisfy({ $0.isNumber || $0 == "T" || $0 == "Z" }) else {
      return nil
    }
    if text.hasSuffix("Z") {
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    } else {
      formatter.dateFormat = text.count == 8 ? "yyyyMMdd" : "yyyyMMdd'T'HHmmss"
    }
    return formatter.date(from: text)
  }

  /// An iCalendar duration (`PT10M`, `P1DT2H`, `P2W`, `-PT5M`) in seconds.
  static func seconds(_ value: String) -> TimeInterval? {
    var text = Substring(value.trimmingCharacters(in: .whitespaces).uppercased())
    var sign = 1.0
    if text.first == "-" || text.first == "+" {
      sign = text.first == "-" ? -1 : 1
      text = text.dropFirst()
    }
    guard text.first == "P" else { return nil }
    var total = 0.0
    var number = ""
    for character in text.dropFirst() {
      if character.isNumber {
        number.append(character)
        continue
      }
      if character == "T" { continue }
      guard let amount = Double(number) else { return nil }
      number = ""
      switch character {
      case "W": total += amount * 604_800
      case "D": total += amount * 86_400
      case "H": total += amount * 3_600
      case "M": total += amount * 60
      case "S": total += amount
      default: return nil
      }
    }
    return number.isEmpty ? sign * total : nil
  }
}
