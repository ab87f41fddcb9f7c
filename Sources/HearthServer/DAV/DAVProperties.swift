import Foundation
import HearthCore
import HearthDAV
import HearthEngine
import HearthStore

/// The properties of each kind of resource the DAV server has, as `PROPFIND` and the reports answer them.
enum DAVProperties {
  /// What `allprop` (or a body-less `PROPFIND`) answers.
  static let all: [DAVName] = [
    .dav("resourcetype"), .dav("displayname"), .dav("getetag"), .dav("getcontenttype"), .dav("getcontentlength"),
    .calendarServer("getctag"), .dav("sync-token"),
  ]

  /// The token a sync report starts from and returns: a URI, as RFC 6578 asks.
  static func syncToken(_ token: SyncToken) -> String { "https://hearth.invalid/sync/\(token.text)" }

  /// The point in the journal a token this server gave names, `nil` for any other.
  static func token(_ text: String) -> SyncToken? {
    guard text.hasPrefix("https://hearth.invalid/sync/") else { return nil }
    return SyncToken(text: String(text.dropFirst("https://hearth.invalid/sync/".count)))
  }

  private static func href(_ path: DAVPath) -> String { DAVWriter.text(.dav("href"), path.href) }

  private static var privileges: String {
    ["read", "write", "write-properties", "write-content", "bind", "unbind", "read-current-user-privilege-set"]
      .map { DAVWriter.element(.dav("privilege"), DAVWriter.element(.dav($0))) }.joined()
  }

  /// The values every resource shares, `nil` for a name none has.
  private static func common(_ name: DAVName) -> String? {
    switch name {
    case .dav("current-user-principal"), .dav("principal-URL"), .dav("owner"): href(.principal)
    case .dav("current-user-privilege-set"): privileges
    default: nil
    }
  }

  /// The root, the principal and the homes.
  static func value(of name: DAVName, at path: DAVPath) -> String? {
    if let shared = common(name) { return shared }
    switch (path, name) {
    case (_, .dav("resourcetype")):
      return DAVWriter.element(.dav("collection"))
        + (path == .principal ? DAVWriter.element(.dav("principal")) : "")
    case (.principal, .dav("displayname")): return DAVWriter.escape("Hearth")
    case (.root, .dav("displayname")): return DAVWriter.escape("Hearth")
    case (.home(let contacts), .dav("displayname")): return DAVWriter.escape(contacts ? "Contacts" : "Calendars")
    case (_, .caldav("calendar-home-set")): return href(.home(contacts: false))
    case (_, .carddav("addressbook-home-set")): return href(.home(contacts: true))
    case (.principal, .caldav("calendar-user-address-set")): return ""
    case (.principal, .dav("principal-collection-set")): return href(.root)
    default: return nil
    }
  }

  /// A collection's values.
  static func value(of name: DAVName, of collection: ServedCollection, syncToken token: SyncToken) -> String? {
    if let shared = common(name) { return shared }
    let isContacts = collection.content == .contacts
    switch name {
    case .dav("resourcetype"):
      return DAVWriter.element(.dav("collection"))
        + DAVWriter.element(isContacts ? .carddav("addressbook") : .caldav("calendar"))
    case .dav("displayname"): return DAVWriter.escape(isContacts ? "Contacts" : collection.name)
    case .calendarServer("getctag"): return DAVWriter.escape("\(collection.tag)")
    case .dav("sync-token"): return DAVWriter.escape(syncToken(token))
    case .dav("getetag"): return DAVWriter.escape("\"c\(collection.tag)\"")
    case .caldav("supported-calendar-component-set") where !isContacts:
      let component = collection.content == .todos ? "VTODO" : "VEVENT"
      return "<c:comp name=\"\(component)\"/>"
    case .caldav("supported-calendar-data") where !isContacts:
      return "<c:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>"
    case .carddav("supported-address-data") where isContacts:
      return "<card:address-data-type content-type=\"text/vcard\" version=\"3.0\"/>"
        + "<card:address-data-type content-type=\"text/vcard\" version=\"4.0\"/>"
    case .apple("calendar-color") where !isContacts: return collection.color.map(DAVWriter.escape)
    case .apple("calendar-order") where !isContacts: return collection.order.map(DAVWriter.escape)
    case .dav("supported-report-set"):
      let reports =
        isContacts
        ? [DAVName.carddav("addressbook-query"), .carddav("addressbook-multiget"), .dav("sync-collection")]
        : [
          DAVName.caldav("calendar-query"), .caldav("calendar-multiget"), .caldav("free-busy-query"),
          .dav("sync-collection"),
        ]
      return reports.map {
        DAVWriter.element(.dav("supported-report"), DAVWriter.element(.dav("report"), DAVWriter.element($0)))
      }.joined()
    default: return nil
    }
  }

  /// A member's values; `data` is its body (for `calendar-data` and `address-data`).
  static func value(of name: DAVName, of member: ServedResource, contacts: Bool) -> String? {
    if let shared = common(name) { return shared }
    switch name {
    case .dav("resourcetype"): return ""
    case .dav("getetag"): return DAVWriter.escape(member.etag)
    case .dav("getcontenttype"):
      return contacts
        ? "text/vcard; charset=utf-8"
        : "text/calendar; charset=utf-8; component="
          + (member.item.kind == .event ? "vevent" : "vtodo")
    case .dav("getcontentlength"): return "\(member.body.utf8.count)"
    case .caldav("calendar-data") where !contacts: return DAVWriter.escape(member.body)
    case .carddav("address-data") where contacts: return DAVWriter.escape(member.body)
    default: return nil
    }
  }

  /// Splits `names` into the found, with their values, and the missing.
  static func split(
    _ names: [DAVName], value: (DAVName) -> String?
  ) -> (found: [(DAVName, String)], missing: [DAVName]) {
    var found: [(DAVName, String)] = []
    var missing: [DAVName] = []
    for name in names {
      if let text = value(name) { found.append((name, text)) } else { missing.append(name) }
    }
    return (found, missing)
  }

  /// The names a `PROPFIND` or report body asks for: its `prop` element's children, or every property this
  /// server has for `allprop` and an empty body; `names` is true for `propname`.
  static func requested(in body: DAVElement?) -> (names: [DAVName], onlyNames: Bool) {
    guard let body else { return (all, false) }
    if let prop = body.child(.dav("prop")) { return (prop.children.map(\.name), false) }
    if body.child(.dav("propname")) != nil { return (all, true) }
    return (all, false)
  }
}
