import Foundation
import HearthCore
import HearthDAV
import HearthEngine
import HearthInterchange
import HearthStore

/// The filter of a calendar-query (RFC 4791 §9.7) or addressbook-query (RFC 6352 §10.5), applied to a member:
/// component filters (is-not-defined, a time range against every occurrence of a repeating event), property
/// filters (is-not-defined, text-match with its collation and negation) and, for cards, `anyof`/`allof`.
struct DAVFilter {
  let root: DAVElement?
  let timeZone: TimeZone

  init(_ root: DAVElement?, timeZone: TimeZone) {
    self.root = root
    self.timeZone = timeZone
  }

  func matches(_ member: ServedResource) -> Bool {
    guard let root else { return true }
    let body = StoredBody(member.body)
    if root.name == .carddav("filter") {
      let filters = root.all(.carddav("prop-filter"))
      guard !filters.isEmpty else { return true }
      let results = filters.map { propertyMatches($0, in: body, test: $0.attributes["test"]) }
      return root.attributes["test"] == "allof" ? results.allSatisfy { $0 } : results.contains(true)
    }
    // CalDAV: VCALENDAR, then the member's component.
    guard let calendar = root.child(.caldav("comp-filter")) else { return true }
    guard calendar.attributeName?.uppercased() == "VCALENDAR" else { return false }
    if calendar.child(.caldav("is-not-defined")) != nil { return false }
    let component = member.item.kind == .event ? "VEVENT" : "VTODO"
    for filter in calendar.all(.caldav("comp-filter")) {
      let named = filter.attributeName?.uppercased() ?? ""
      let defined = named == component
      if filter.child(.caldav("is-not-defined")) != nil {
        if defined { return false }
        continue
      }
      guard defined else { return false }
      if let range = filter.child(.caldav("time-range")), !overlaps(member.item, body: body, range) {
        return false
      }
      for property in filter.all(.caldav("prop-filter")) where !propertyMatches(property, in: body, test: nil) {
        return false
      }
    }
    return true
  }

  /// Whether the item falls in the time range: any occurrence of an event overlapping it; a to-do by the table
  /// of RFC 4791 §9.9, from the times its body holds (a client's start and duration too, which Hearth keeps only
  /// in the body).
  private func overlaps(_ item: StoredItem, body: StoredBody, _ range: DAVElement) -> Bool {
    let start = range.attributes["start"].flatMap(StoredBody.instant(utc:)) ?? .distantPast
    let end = range.attributes["end"].flatMap(StoredBody.instant(utc:)) ?? .distantFuture
    guard start < end else { return false }
    switch item {
    case .event(let event):
      let whole = DateInterval(start: start, end: end)
      guard event.recurrence != nil else { return !event.occurrences(overlapping: whole, local: timeZone).isEmpty }
      // An open or very long range is searched five years at a time (two hundred at most), so a series without
      // end is not expanded to its limit to learn that one occurrence is there.
      // Nothing comes before the series' first start (a day's margin for its zone).
      let first = event.start.instant(in: timeZone).addingTimeInterval(-86_400)
      let origin = max(start, first)
      var from = origin
      while from < end, from.timeIntervalSince(origin) < 200 * 366 * 86_400 {
        let to = min(end, from.addingTimeInterval(5 * 366 * 86_400))
        if !event.occurrences(overlapping: DateInterval(start: from, end: to), local: timeZone).isEmpty { return true }
        // Past the last occurrence there is nothing more to find.
        if let last = event.recurrence?.until, to > last.instant(in: timeZone).addingTimeInterval(86_400) {
          return false
        }
        from = to
      }
      return false
    case .reminder:
      return body.todoTimes(local: timeZone).overlaps(start: start, end: end)
    default:
      return true
    }
  }

  private func propertyMatches(_ filter: DAVElement, in body: StoredBody, test: String?) -> Bool {
    let values = body.values(of: filter.attributeName?.uppercased() ?? "")
    if filter.children.contains(where: { $0.name.local == "is-not-defined" }) { return values.isEmpty }
    let matches = filter.children.filter { $0.name.local == "text-match" }
    guard !values.isEmpty else { return false }
    guard !matches.isEmpty else { return true }
    let results = matches.map { match in
      let wanted = match.text
      let octets = match.attributes["collation"] == "i;octet"
      let kind = match.attributes["match-type"] ?? "contains"
      let found = values.contains { value in
        let (a, b) = octets ? (value, wanted) : (value.lowercased(), wanted.lowercased())
        switch kind {
        case "equals": return a == b
        case "starts-with": return a.hasPrefix(b)
        case "ends-with": return a.hasSuffix(b)
        default: return a.contains(b)
        }
      }
      return match.attributes["negate-condition"] == "yes" ? !found : found
    }
    return test == "allof" ? results.allSatisfy { $0 } : results.contains(true)
  }
}
