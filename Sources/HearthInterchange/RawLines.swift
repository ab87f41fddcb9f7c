import Foundation

/// One logical line of a file exactly as it was written (folds and all), with its property name.
struct RawLine: Hashable {
  /// The physical lines, without their line ends.
  var text: String
  /// The property name, upper-cased, without a vCard group (`item1.EMAIL` → `EMAIL`).
  var name: String
  /// The value after the first colon, unfolded.
  var value: String

  init(text: String) {
    self.text = text
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
    let head = unfolded.prefix { $0 != ":" && $0 != ";" }.uppercased()
    name = head.split(separator: ".").last.map(String.init) ?? head
    value = unfolded.firstIndex(of: ":").map { String(unfolded[unfolded.index(after: $0)...]) } ?? ""
  }

  init(_ line: ContentLine) { self.init(text: SyncedBodies.written(line)) }
}

/// A file as its logical lines, each kept as written, so a patch touches only the lines it replaces.
struct RawLines {
  var lines: [RawLine]

  init(_ text: String) {
    var lines: [RawLine] = []
    var current: [Substring] = []
    for physical in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = physical.hasSuffix("\r") ? physical.dropLast() : physical
      if let first = line.first, first == " " || first == "\t", !current.isEmpty {
        current.append(line)
        continue
      }
      if !current.isEmpty { lines.append(RawLine(text: current.joined(separator: "\r\n"))) }
      current = line.isEmpty ? [] : [line]
    }
    if !current.isEmpty { lines.append(RawLine(text: current.joined(separator: "\r\n"))) }
    self.lines = lines
  }

  /// The file written with CRLF line ends.
  var text: String { lines.map(\.text).joined(separator: "\r\n") + "\r\n" }

  /// The line range of the series' master component: the first `component` without a `RECURRENCE-ID`.
  func master(_ component: String) -> Range<Int>? {
    var index = 0
    while index < lines.count {
      guard lines[index].name == "BEGIN", lines[index].value.uppercased() == component else {
        index += 1
        continue
      }
      var depth = 0
      var end = index
      var isOverride = false
      for candidate in index..<lines.count {
        if lines[candidate].name == "BEGIN" { depth += 1 }
        if lines[candidate].name == "END" { depth -= 1 }
        if depth == 1, lines[candidate].name == "RECURRENCE-ID" { isOverride = true }
        if depth == 0 {
          end = candidate
          break
        }
      }
      guard end > index else { return nil }
      if !isOverride { return index..<(end + 1) }
      index = end + 1
    }
    return nil
  }

  /// Adds the VTIMEZONE components whose TZID the file does not describe yet, before its first item.
  mutating func addZones(_ zones: [ContentLine]) {
    guard !zones.isEmpty else { return }
    let described = Set(
      lines.indices.filter { lines[$0].name == "TZID" && $0 > 0 }.map { lines[$0].value })
    var missing: [RawLine] = []
    var current: [RawLine] = []
    var tzid: String?
    for zone in zones {
      let line = RawLine(zone)
      current.append(line)
      if line.name == "TZID", tzid == nil { tzid = line.value }
      if line.name == "END", line.value.uppercased() == "VTIMEZONE" {
        if let tzid, !described.contains(tzid) { missing += current }
        current = []
        tzid = nil
      }
    }
    guard !missing.isEmpty,
      let first = lines.firstIndex(where: {
        $0.name == "BEGIN" && ["VEVENT", "VTODO", "VTIMEZONE"].contains($0.value.uppercased())
      })
    else { return }
    lines.insert(contentsOf: missing, at: first)
  }
}
