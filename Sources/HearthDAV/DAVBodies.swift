import Foundation

/// The XML bodies the client sends. Written out rather than built: they are fixed, and a reader can check them
/// against the RFCs' own examples.
enum DAVBodies {
  static let header = #"<?xml version="1.0" encoding="utf-8"?>"#

  static let principal =
    header + #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>"#

  static let homes =
    header
    + #"<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="urn:ietf:params:xml:ns:carddav">"#
    + #"<d:prop><c:calendar-home-set/><a:addressbook-home-set/></d:prop></d:propfind>"#

  /// No change tag or sync token asked for: some servers compute them over every member, and each sync asks
  /// a report of its own anyway.
  static let collections =
    header
    + #"<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:i="http://apple.com/ns/ical/">"#
    + #"<d:prop><d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><i:calendar-color/>"#
    + "</d:prop></d:propfind>"

  static let etags =
    header
    + #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:getcontenttype/><d:resourcetype/></d:prop></d:propfind>"#

  static func syncCollection(token: String?) -> String {
    header + #"<d:sync-collection xmlns:d="DAV:"><d:sync-token>"# + escape(token ?? "") + "</d:sync-token>"
      + "<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
  }

  static func multiget(_ hrefs: [String], content: DAVCollection.Content) -> String {
    let links = hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined()
    switch content {
    case .events, .todos:
      return header + #"<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
        + "<d:prop><d:getetag/><c:calendar-data/></d:prop>\(links)</c:calendar-multiget>"
    case .contacts:
      return header + #"<a:addressbook-multiget xmlns:d="DAV:" xmlns:a="urn:ietf:params:xml:ns:carddav">"#
        + "<d:prop><d:getetag/><a:address-data/></d:prop>\(links)</a:addressbook-multiget>"
    }
  }

  /// Text escaped for an XML element.
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
