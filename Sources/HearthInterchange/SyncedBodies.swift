public import Foundation
public import HearthCore

/// The bodies of synced items: a new item written as its own resource, and a changed item written back into
/// the resource it came from, with only the properties that changed replaced. Everything Hearth does not model
/// (alarms, attendees, attachments, `X-` properties, time zones, changed occurrences of a series) stays
/// byte for byte.
public enum SyncedBodies {
  /// Properties that say when a copy was written rather than what the item is, and Hearth's own bookkeeping,
  /// which never goes to someone else's server.
  static let bookkeeping: Set<String> = [
    "BEGIN", "END", "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "REV", "VERSION",
  ]

  // MARK: New resources

  /// A calendar resource holding one event.
  public static func new(_ event: CalendarEvent, now: Date = Date()) -> String {
    calendar(ICalendarEvents.lines(for: event, now: now), zones: VTimeZones.components(for: [event], reminders: []))
  }

  /// A calendar resource holding one to-do.
  public static func new(_ reminder: Reminder, now: Date = Date()) -> String {
    calendar(
      ICalendarEvents.lines(for: reminder, now: now), zones: VTimeZones.components(for: [], reminders: [reminder]))
  }

  /// A vCard 4.0 of one contact (3.0 when `version` says so).
  public static func new(_ contact: Contact, version: VCard.Version = .v4) -> String {
    ContentLines.write(VCard.lines(for: contact, version: version).filter { !isHearthOwn($0.name) })
  }

  private static func calendar(_ component: [ContentLine], zones: [ContentLine]) -> String {
    let lines =
      [
        ContentLine(name: "BEGIN", value: "VCALENDAR"), ContentLine(name: "VERSION", value: "2.0"),
        ContentLine(name: "PRODID", value: "-//Hearth//Hearth//EN"),
      ] + zones + component.filter { !isHearthOwn($0.name) } + [ContentLine(name: "END", value: "VCALENDAR")]
    return ContentLines.write(lines)
  }

  // MARK: Changed resources

  /// `original` with the event's changed properties replaced.
  public static func patched(
    _ original: String, from old: CalendarEvent, to new: CalendarEvent, now: Date = Date()
  )
    -> String
  {
    let zones = VTimeZones.components(for: [new], reminders: [])
    return patch(
      original, component: "VEVENT", old: ICalendarEvents.lines(for: old, now: now),
      new: ICalendarEvents.lines(for: new, now: now), zones: zones, now: now)
  }

  /// `original` with the to-do's changed properties replaced.
  public static func patched(_ original: String, from old: Reminder, to new: Reminder, now: Date = Date()) -> String {
    let zones = VTimeZones.components(for: [], reminders: [new])
    return patch(
      original, component: "VTODO", old: ICalendarEvents.lines(for: old, now: now),
      new: ICalendarEvents.lines(for: new, now: now), zones: zones, now: now)
  }

  /// `original` with the contact's changed properties replaced, in the card's own version.
  public static func patched(_ original: String, from old: Contact, to new: Contact, now: Date = Date()) -> String {
    let raw = RawLines(original)
    let version = raw.lines.first { $0.name == "VERSION" }.flatMap { VCard.Version(rawValue: $0.value) } ?? .v4
    return patch(
      original, component: "VCARD", old: VCard.lines(for: old, version: version),
      new: VCard.lines(for: new, version: version), zones: [], now: now)
  }

  /// The names of the properties whose written lines differ between `old` and `new`.
  static func changedNames(old: [ContentLine], new: [ContentLine]) -> [String] {
    let before = grouped(old)
    let after = grouped(new)
    let names = Set(before.keys).union(after.keys).filter { !bookkeeping.contains($0) && !isHearthOwn($0) }
    return names.filter { before[$0] != after[$0] }.sorted()
  }

  private static func grouped(_ lines: [ContentLine]) -> [String: [String]] {
    Dictionary(grouping: lines, by: \.name).mapValues { $0.map(written) }
  }

  private static func patch(
    _ original: String, component: String, old: [ContentLine], new: [ContentLine], zones: [ContentLine], now: Date
  ) -> String {
    let changed = changedNames(old: old, new: new)
    guard !changed.isEmpty else { return original }
    var raw = RawLines(original)
    guard let master = raw.master(component) else { return original }
    let replaced = Array(raw.lines[master])
    let replacements = Dictionary(grouping: new.filter { changed.contains($0.name) }, by: \.name)
    let top = topLevel(Array(raw.lines[master]))
    var plans: [String: PropertyPlan] = [:]
    for name in changed {
      plans[name] = PropertyPlan(
        originals: top.filter { $0.name == name }, old: old.filter { $0.name == name },
        new: replacements[name] ?? [], component: component)
    }
    var seen: [String: Int] = [:]
    // Hearth writes an end (DTEND, DUE); a DURATION beside a new one would say another end.
    let dropped: Set<String> = changed.contains("DTEND") || changed.contains("DUE") ? ["DURATION"] : []
    var output: [RawLine] = []
    var depth = 0
    var placed: Set<String> = []
    for (offset, line) in replaced.enumerated() {
      let isTop = depth == 1
      if line.name == "BEGIN" { depth += 1 }
      if line.name == "END" { depth -= 1 }
      let endsTop = isTop && (line.name == "BEGIN" || line.name == "END") && offset > 0
      if endsTop {
        // Properties the original did not have go before the first nested component or the END.
        for name in changed where !placed.contains(name) {
          output += (replacements[name] ?? []).map(RawLine.init)
          placed.insert(name)
        }
      }
      guard isTop, offset > 0, line.name != "BEGIN", line.name != "END" else {
        output.append(line)
        continue
      }
      if let plan = plans[line.name], seen[line.name, default: 0] < plan.lines.count {
        // Each of the original's lines of this property kept, replaced in place or dropped.
        let occurrence = seen[line.name, default: 0]
        seen[line.name] = occurrence + 1
        output += plan.lines[occurrence]
        if occurrence == plan.lines.count - 1 { output += plan.added }
        placed.insert(line.name)
        continue
      }
      if changed.contains(line.name) {
        if placed.insert(line.name).inserted { output += (replacements[line.name] ?? []).map(RawLine.init) }
        continue
      }
      if dropped.contains(line.name) { continue }
      output.append(stamped(line, now: now))
    }
    if !output.contains(where: { $0.name == "LAST-MODIFIED" }), component != "VCARD",
      let end = output.lastIndex(where: { $0.name == "END" })
    {
      output.insert(RawLine(ContentLine(name: "LAST-MODIFIED", value: ICalendarFormat.utc(now))), at: end)
    }

    raw.lines.replaceSubrange(master, with: output)
    raw.addZones(zones)
    return raw.text
  }

  /// The lines of the component's own level (not those of a nested alarm), BEGIN and END left out.
  private static func topLevel(_ lines: [RawLine]) -> [RawLine] {
    var depth = 0
    var top: [RawLine] = []
    for line in lines {
      if line.name == "BEGIN" { depth += 1 }
      if depth == 1, line.name != "BEGIN", line.name != "END" { top.append(line) }
      if line.name == "END" { depth -= 1 }
    }
    return top
  }

  /// The copy's time stamps and sequence number moved on; other lines as they were.
  private static func stamped(_ line: RawLine, now: Date) -> RawLine {
    switch line.name {
    case "DTSTAMP", "LAST-MODIFIED": RawLine(ContentLine(name: line.name, value: ICalendarFormat.utc(now)))
    case "REV": RawLine(ContentLine(name: "REV", value: ICalendarFormat.utc(now)))
    case "SEQUENCE": RawLine(ContentLine(name: "SEQUENCE", value: "\((Int(line.value) ?? 0) + 1)"))
    default: line
    }
  }

  static func isHearthOwn(_ name: String) -> Bool { name.hasPrefix("X-HEARTH-") }

  static func written(_ line: ContentLine) -> String {
    var text = ContentLines.write([line])
    while text.hasSuffix("\r\n") { text.removeLast() }
    return text
  }
}
