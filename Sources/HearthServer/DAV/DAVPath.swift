import Foundation

/// Where a CalDAV/CardDAV request points under `/dav/`: the root, the user's principal, a home, a collection in
/// it, or a member of one. Segments are kept as they came (percent-encoded), with the escapes' hex upper-cased, so
/// that an href a client echoes names what it named.
enum DAVPath: Hashable {
  case root
  case principal
  /// The calendar home (calendars and reminder lists) or the address-book home.
  case home(contacts: Bool)
  case collection(segment: String, contacts: Bool)
  case member(segment: String, contacts: Bool, name: String)

  static let base = "/dav/"

  /// The path `path` names, `nil` for one outside the DAV tree or deeper than a member.
  init?(_ path: String) {
    guard path == "/dav" || path.hasPrefix(Self.base) || path == "/" else { return nil }
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst().map {
      Self.normalized(String($0))
    }
    switch parts.count {
    case 0: self = .root
    case 1 where parts[0] == "principal": self = .principal
    case 1 where parts[0] == "calendars" || parts[0] == "contacts": self = .home(contacts: parts[0] == "contacts")
    case 2 where parts[0] == "calendars" || parts[0] == "contacts":
      self = .collection(segment: parts[1], contacts: parts[0] == "contacts")
    case 3 where parts[0] == "calendars" || parts[0] == "contacts":
      self = .member(segment: parts[1], contacts: parts[0] == "contacts", name: parts[2])
    default: return nil
    }
  }

  /// Whether the path is in the address-book home.
  var isUnderContacts: Bool {
    switch self {
    case .home(let contacts), .collection(_, let contacts), .member(_, let contacts, _): contacts
    default: false
    }
  }

  /// Whether `path` belongs to the DAV server (its tree or the discovery addresses).
  static func applies(to path: String) -> Bool {
    path == "/dav" || path.hasPrefix(base) || path.hasPrefix("/.well-known/caldav")
      || path.hasPrefix("/.well-known/carddav")
  }

  var href: String {
    switch self {
    case .root: Self.base
    case .principal: Self.base + "principal/"
    case .home(let contacts): Self.base + (contacts ? "contacts/" : "calendars/")
    case .collection(let segment, let contacts): Self.base + (contacts ? "contacts/" : "calendars/") + segment + "/"
    case .member(let segment, let contacts, let name):
      Self.base + (contacts ? "contacts/" : "calendars/") + segment + "/" + name
    }
  }

  /// A segment with its percent-escapes' hex upper-cased (`%7e` → `%7E`).
  static func normalized(_ segment: String) -> String {
    guard segment.contains("%") else { return segment }
    var out = ""
    var pending = 0
    for character in segment {
      if character == "%" {
        pending = 2
        out.append(character)
      } else if pending > 0 {
        pending -= 1
        out += character.uppercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  /// The last segment of an href a client sent in a body (`/dav/calendars/Personal/abc.ics` → `abc.ics`), with
  /// its collection's segment; `nil` when it names no member.
  static func member(inHref href: String) -> (segment: String, contacts: Bool, name: String)? {
    var path = href
    // An absolute URL is cut to its path.
    if let range = path.range(of: "://"), let slash = path[range.upperBound...].firstIndex(of: "/") {
      path = String(path[slash...])
    }
    guard case .member(let segment, let contacts, let name) = DAVPath(path) else { return nil }
    return (segment, contacts, name)
  }
}
