import Foundation

/// Reads the places a request names as time zones: "What time is it in Tokyo?" → `Asia/Tokyo`, "3pm in New
/// York" → `America/New_York`. Cities are the last part of the IANA names this machine knows; a few
/// countries with one zone and the usual abbreviations are read too.
public enum TimeZoneReader {
  /// The IANA names of the zones `request` names, in the order it names them.
  public static func zones(in request: String) -> [String] {
    let text =
      " "
      + request.lowercased().map { $0.isLetter || $0.isNumber ? $0 : " " }.map(String.init).joined()
      .split(separator: " ").joined(separator: " ") + " "
    // Longest names first, so "new york" claims its words before "york" could.
    var found: [(offset: Int, length: Int, zone: String)] = []
    for (phrase, zone) in names {
      var searchStart = text.startIndex
      while let range = text.range(of: " \(phrase) ", range: searchStart..<text.endIndex) {
        let offset = text.distance(from: text.startIndex, to: range.lowerBound)
        let length = phrase.count + 1
        if !found.contains(where: { $0.offset < offset + length && offset < $0.offset + $0.length }) {
          found.append((offset, length, zone))
        }
        searchStart = text.index(before: range.upperBound)
      }
    }
    var seen = Set<String>()
    return found.sorted { $0.offset < $1.offset }.map(\.zone).filter { seen.insert($0).inserted }
  }

  /// Lower-case place names and the zones they stand for, longest first.
  private static let names: [(String, String)] = {
    var table: [String: String] = [:]
    for identifier in TimeZone.knownTimeZoneIdentifiers {
      let parts = identifier.split(separator: "/")
      guard parts.count >= 2, let city = parts.last, !["Etc", "SystemV"].contains(String(parts[0])) else { continue }
      let name = city.replacingOccurrences(of: "_", with: " ").lowercased()
      // The first region to name a city keeps it (America/Indiana/Indianapolis before a link of the same name).
      if table[name] == nil { table[name] = identifier }
    }
    for (name, zone) in aliases where TimeZone(identifier: zone) != nil { table[name] = zone }
    return table.sorted { $0.key.count > $1.key.count }
  }()

  private static let aliases: [String: String] = [
    "utc": "UTC", "gmt": "UTC", "japan": "Asia/Tokyo", "india": "Asia/Kolkata", "china": "Asia/Shanghai",
    "uk": "Europe/London", "england": "Europe/London", "britain": "Europe/London", "ireland": "Europe/Dublin",
    "france": "Europe/Paris", "germany": "Europe/Berlin", "italy": "Europe/Rome", "spain": "Europe/Madrid",
    "netherlands": "Europe/Amsterdam", "poland": "Europe/Warsaw", "sweden": "Europe/Stockholm",
    "norway": "Europe/Oslo", "finland": "Europe/Helsinki", "greece": "Europe/Athens", "turkey": "Europe/Istanbul",
    "korea": "Asia/Seoul", "singapore": "Asia/Singapore", "thailand": "Asia/Bangkok", "vietnam": "Asia/Ho_Chi_Minh",
    "egypt": "Africa/Cairo", "kenya": "Africa/Nairobi", "nigeria": "Africa/Lagos", "israel": "Asia/Jerusalem",
    "new zealand": "Pacific/Auckland", "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "washington": "America/New_York", "boston": "America/New_York", "miami": "America/New_York",
    "beijing": "Asia/Shanghai", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata",
    "bangalore": "Asia/Kolkata", "kyoto": "Asia/Tokyo", "osaka": "Asia/Tokyo", "munich": "Europe/Berlin",
    "frankfurt": "Europe/Berlin", "milan": "Europe/Rome", "barcelona": "Europe/Madrid",
  ]
}
