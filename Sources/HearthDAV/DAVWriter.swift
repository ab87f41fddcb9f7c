import Foundation

/// Writes the XML of a WebDAV server's answers: multistatus bodies, property values, error bodies. Every name is
/// written with the prefix of its namespace, each declared once on the root element.
public enum DAVWriter {
  /// The prefixes of the namespaces the server speaks.
  static let prefixes: [(namespace: String, prefix: String)] = [
    (DAVNamespace.dav, "d"), (DAVNamespace.caldav, "c"), (DAVNamespace.carddav, "card"),
    (DAVNamespace.calendarServer, "cs"), (DAVNamespace.apple, "ic"),
  ]

  static var declarations: String {
    prefixes.map { " xmlns:\($0.prefix)=\"\($0.namespace)\"" }.joined()
  }

  /// `name` as written: with its namespace's prefix, or with a namespace of its own declared on it.
  public static func tag(_ name: DAVName) -> (open: String, close: String) {
    if let prefix = prefixes.first(where: { $0.namespace == name.namespace })?.prefix {
      return ("\(prefix):\(name.local)", "\(prefix):\(name.local)")
    }
    // A name in no namespace has no prefix (`xmlns:x=""` is not allowed); it undeclares the default.
    guard !name.namespace.isEmpty else { return ("\(name.local) xmlns=\"\"", name.local) }
    return ("x:\(name.local) xmlns:x=\"\(escape(name.namespace))\"", "x:\(name.local)")
  }

  /// An element holding `inner` (XML already written), or an empty one.
  public static func element(_ name: DAVName, _ inner: String = "") -> String {
    let tag = tag(name)
    return inner.isEmpty ? "<\(tag.open)/>" : "<\(tag.open)>\(inner)</\(tag.close)>"
  }

  /// An element holding `text`, escaped.
  public static func text(_ name: DAVName, _ text: String) -> String { element(name, escape(text)) }

  /// `text` with the characters XML gives meaning to escaped; characters XML 1.0 cannot carry are dropped.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\r": out += "&#13;"
      default:
        let value = scalar.value
        if value == 0x9 || value == 0xA || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF) {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// A document whose root is `name` holding `inner`, with the namespaces declared.
  public static func document(_ name: DAVName, _ inner: String) -> String {
    let tag = tag(name)
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<\(tag.open)\(declarations)>\(inner)</\(tag.close)>"
  }

  /// One `response` of a multistatus: the properties found with their values (XML already written) under 200,
  /// those asked for and not found under 404, and any refused under the status given.
  public static func response(
    href: String, found: [(DAVName, String)], missing: [DAVName] = [],
    refused: [(DAVName, status: String)] = []
  ) -> String {
    var stats: [String] = []
    if !found.isEmpty {
      stats.append(propstat(found.map { element($0.0, $0.1) }.joined(), status: "200 OK"))
    }
    if !missing.isEmpty {
      stats.append(propstat(missing.map { element($0) }.joined(), status: "404 Not Found"))
    }
    for (name, status) in refused { stats.append(propstat(element(name), status: status)) }
    if stats.isEmpty { stats.append(propstat("", status: "200 OK")) }
    return element(.dav("response"), text(.dav("href"), href) + stats.joined())
  }

  /// A `response` saying only a status for `href` (a member removed since a sync token, one not found).
  public static func response(href: String, status: String) -> String {
    element(.dav("response"), text(.dav("href"), href) + text(.dav("status"), "HTTP/1.1 \(status)"))
  }

  private static func propstat(_ properties: String, status: String) -> String {
    element(.dav("propstat"), element(.dav("prop"), properties) + text(.dav("status"), "HTTP/1.1 \(status)"))
  }

  /// A multistatus body of `responses`, with a sync token after them when given.
  public static func multistatus(_ responses: [String], syncToken: String? = nil) -> String {
    document(.dav("multistatus"), responses.joined() + (syncToken.map { text(.dav("sync-token"), $0) } ?? ""))
  }

  /// The body of a refusal naming the precondition that failed (`<d:error><c:no-uid-conflict/></d:error>`).
  public static func error(_ condition: DAVName, _ inner: String = "") -> String {
    document(.dav("error"), element(condition, inner))
  }
}
