import Foundation

/// Reading collections out of a home set's listing.
enum DAVDiscovery {
  /// The collections one response describes: a calendar that holds both events and to-dos is listed once for
  /// each, as Hearth keeps them apart.
  static func collections(from response: Multistatus.Response) -> [DAVCollection] {
    guard let type = response.properties[.dav("resourcetype")], type.child(.dav("collection")) != nil else {
      return []
    }
    let name = response.text(.dav("displayname")) ?? lastSegment(of: response.href)
    let ctag = response.text(.calendarServer("getctag"))
    let offersToken = response.properties[.dav("sync-token")] != nil && response.text(.dav("sync-token")) != nil
    let color = response.text(DAVName(DAVNamespace.apple, "calendar-color")).map(normalisedColor)
    var contents: [DAVCollection.Content] = []
    if type.child(.carddav("addressbook")) != nil { contents.append(.contacts) }
    if type.child(.caldav("calendar")) != nil {
      // RFC 4791 §5.2.3: without the property, a calendar accepts every component type.
      let components = response.properties[.caldav("supported-calendar-component-set")]?
        .all(.caldav("comp")).compactMap { $0.attributeName?.uppercased() }
      let accepted = components ?? ["VEVENT", "VTODO"]
      if accepted.contains("VEVENT") { contents.append(.events) }
      if accepted.contains("VTODO") { contents.append(.todos) }
    }
    return contents.map { content in
      DAVCollection(
        href: response.href, displayName: name, content: content, ctag: ctag, offersSyncToken: offersToken,
        color: color)
    }
  }

  /// Whether two hrefs name the same path (one may end in `/`, one may be a full URL).
  static func samePath(_ first: String, _ second: String) -> Bool {
    path(of: first) == path(of: second)
  }

  static func path(of href: String) -> String {
    let path = URL(string: href)?.path(percentEncoded: false) ?? href
    return path.hasSuffix("/") ? String(path.dropLast()) : path
  }

  static func lastSegment(of href: String) -> String {
    path(of: href).split(separator: "/").last.map(String.init) ?? href
  }

  /// `#RRGGBBAA` (Apple's form) cut to `#RRGGBB`.
  static func normalisedColor(_ color: String) -> String {
    color.count == 9 && color.hasPrefix("#") ? String(color.prefix(7)) : color
  }
}

/// Paths of members as servers write them.
public enum DAVPath {
  /// The path an href names, decoded, without a trailing `/`: two hrefs for one member compare equal.
  public static func normalized(_ href: String) -> String { DAVDiscovery.path(of: href) }

  /// A member's href in a collection.
  public static func member(_ name: String, in collection: String) -> String {
    (collection.hasSuffix("/") ? collection : collection + "/") + name
  }
}
