import Foundation
import HTTPTypes
import HearthCore
import HearthDAV
import HearthEngine
import Hummingbird

extension DAVRoutes {
  /// `REPORT`: calendar-query, calendar-multiget, addressbook-query, addressbook-multiget and sync-collection
  /// on a collection; any other report is refused naming `supported-report`.
  func report(_ request: Request, path: DAVPath) async throws -> Response {
    guard case .collection(let segment, let contacts) = path else {
      return DAVReply.xml(DAVWriter.error(.dav("supported-report")), status: .forbidden)
    }
    guard let collection = try collection(segment, contacts: contacts) else { return DAVReply.status(.notFound) }
    guard let body = try await xml(request) else { return DAVReply.badRequest("a REPORT needs a body") }
    let (names, _) = DAVProperties.requested(in: body)
    func response(_ member: ServedResource) -> String {
      let (found, missing) = DAVProperties.split(names) { DAVProperties.value(of: $0, of: member, contacts: contacts) }
      return DAVWriter.response(
        href: DAVPath.member(segment: segment, contacts: contacts, name: member.name).href, found: found,
        missing: missing)
    }
    switch (body.name, contacts) {
    case (.caldav("calendar-multiget"), false), (.carddav("addressbook-multiget"), true):
      var responses: [String] = []
      for href in body.all(.dav("href")).map(\.text) {
        if let named = DAVPath.member(inHref: href), named.segment == segment, named.contacts == contacts,
          let member = try server.member(named.name, in: collection)
        {
          responses.append(response(member))
        } else {
          responses.append(DAVWriter.response(href: href, status: "404 Not Found"))
        }
      }
      return DAVReply.multistatus(DAVWriter.multistatus(responses))
    case (.caldav("calendar-query"), false), (.carddav("addressbook-query"), true):
      let filter = DAVFilter(body.child(contacts ? .carddav("filter") : .caldav("filter")), timeZone: server.timeZone)
      let members = try server.members(of: collection).filter { filter.matches($0) }
      var limit = Int.max
      if let text = body.child(.carddav("limit"))?.child(.carddav("nresults"))?.text, let number = Int(text) {
        limit = number
      }
      return DAVReply.multistatus(DAVWriter.multistatus(members.prefix(limit).map(response)))
    case (.dav("sync-collection"), _):
      let given = body.child(.dav("sync-token"))?.text ?? ""
      var after: Int64?
      if !given.isEmpty {
        guard let sequence = DAVProperties.sequence(ofToken: given), sequence <= (try server.latestChange()) else {
          return DAVReply.xml(DAVWriter.error(.dav("valid-sync-token")), status: .forbidden)
        }
        after = sequence
      }
      let changes = try server.changes(in: collection, after: after)
      let removed = changes.removed.map {
        DAVWriter.response(
          href: DAVPath.member(segment: segment, contacts: contacts, name: $0).href, status: "404 Not Found")
      }
      return DAVReply.multistatus(
        DAVWriter.multistatus(
          changes.changed.map(response) + removed, syncToken: DAVProperties.syncToken(changes.token)))
    default:
      return DAVReply.xml(DAVWriter.error(.dav("supported-report")), status: .forbidden)
    }
  }

  /// `PROPPATCH` of a calendar: its color is kept; its name is Hearth's own and is not renamed over DAV.
  func proppatch(_ request: Request, path: DAVPath) async throws -> Response {
    guard case .collection(let segment, let contacts) = path,
      let collection = try collection(segment, contacts: contacts)
    else { return DAVReply.status(path == .root || path == .principal ? .forbidden : .notFound) }
    guard let body = try await xml(request) else { return DAVReply.badRequest("a PROPPATCH needs a body") }
    var found: [(DAVName, String)] = []
    var refused: [(DAVName, status: String)] = []
    for change in body.children where change.name == .dav("set") || change.name == .dav("remove") {
      for property in change.child(.dav("prop"))?.children ?? [] {
        switch property.name {
        case .apple("calendar-color") where !contacts:
          try server.setColor(change.name == .dav("set") ? property.text : nil, of: collection)
          found.append((property.name, ""))
        case .dav("displayname") where property.text == collection.name || contacts:
          found.append((property.name, ""))
        default:
          refused.append((property.name, status: "403 Forbidden"))
        }
      }
    }
    return DAVReply.multistatus(
      DAVWriter.multistatus([DAVWriter.response(href: path.href, found: found, refused: refused)]))
  }

  /// `MKCALENDAR` (or an extended `MKCOL` asking for a calendar): an empty calendar of events, or a list of
  /// to-dos when the body's component set names only `VTODO`. The address book is the only one.
  func makeCollection(_ request: Request, path: DAVPath) async throws -> Response {
    guard case .collection(let segment, false) = path else {
      return DAVReply.forbidden("calendars are made under /dav/calendars/; the address book is the only one")
    }
    let body = try await xml(request)
    let properties = (body?.child(.dav("set"))?.child(.dav("prop"))) ?? DAVElement(name: .dav("prop"))
    if request.method.rawValue == "MKCOL",
      properties.child(.dav("resourcetype"))?.child(.caldav("calendar")) == nil
    {
      return DAVReply.forbidden("only calendars can be made here")
    }
    if try collection(segment, contacts: false) != nil {
      return DAVReply.xml(DAVWriter.error(.dav("resource-must-be-null")), status: .methodNotAllowed)
    }
    let components =
      properties.child(.caldav("supported-calendar-component-set"))?.all(.caldav("comp"))
      .compactMap(\.attributeName) ?? []
    let content: SyncCollection.Content = !components.isEmpty && !components.contains("VEVENT") ? .todos : .events
    if !components.isEmpty, !components.contains(where: { $0 == "VEVENT" || $0 == "VTODO" }) {
      return DAVReply.xml(DAVWriter.error(.caldav("supported-calendar-component")), status: .forbidden)
    }
    let name = properties.child(.dav("displayname"))?.text
    let color = properties.child(.apple("calendar-color"))?.text
    _ = try server.makeCollection(content, segment: segment, displayName: name, color: color)
    return Response(status: .created, headers: [.contentLength: "0"])
  }
}
