import Foundation
import HTTPTypes
import HearthCore
import HearthDAV
import HearthEngine
import HearthInterchange
import HearthStore
import Hummingbird
import NIOCore

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
      if let text = body.child(.carddav("limit"))?.child(.carddav("nresults"))?.text {
        guard let number = Int(text), number >= 0 else {
          return DAVReply.badRequest("nresults must be a whole number, 0 or more")
        }
        limit = number
      }
      var responses = members.prefix(limit).map(response)
      // Cut short, the answer says so for the collection itself (RFC 6352 §8.6.1).
      if members.count > limit {
        responses.append(DAVWriter.response(href: path.href, status: "507 Insufficient Storage"))
      }
      return DAVReply.multistatus(DAVWriter.multistatus(responses))
    case (.caldav("free-busy-query"), false):
      return try freeBusy(body, in: collection)
    case (.dav("sync-collection"), _):
      let given = body.child(.dav("sync-token"))?.text ?? ""
      var after: SyncToken?
      if !given.isEmpty {
        // A token this journal never gave, or one from before a restore rewound it, makes the client start over.
        guard let token = DAVProperties.token(given), try server.isCurrent(token) else {
          return DAVReply.xml(DAVWriter.error(.dav("valid-sync-token")), status: .forbidden)
        }
        after = token
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

  /// A free-busy-query (RFC 4791 §7.10): the busy times of the calendar's events in the range, as a VFREEBUSY.
  private func freeBusy(_ body: DAVElement, in collection: ServedCollection) throws -> Response {
    guard collection.content == .events, let range = body.child(.caldav("time-range")),
      let start = range.attributes["start"].flatMap(StoredBody.instant(utc:)),
      let end = range.attributes["end"].flatMap(StoredBody.instant(utc:)), start < end
    else { return DAVReply.badRequest("a free-busy-query needs a time range with a start and an end") }
    // A year at most: what a client asks free time for, and a bound on the work one request can ask for.
    let window = DateInterval(start: start, end: min(end, start.addingTimeInterval(366 * 86_400)))
    var busy: [DateInterval] = []
    for member in try server.members(of: collection) {
      guard case .event(let event) = member.item, event.isBusy else { continue }
      for occurrence in event.occurrences(overlapping: window, local: server.timeZone) {
        busy.append(
          DateInterval(start: max(occurrence.startsAt, start), end: min(occurrence.endsAt, window.end)))
      }
    }
    let stamp = StoredBody.utc
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth//Hearth//EN", "BEGIN:VFREEBUSY",
      "DTSTAMP:\(stamp(Date()))", "DTSTART:\(stamp(start))", "DTEND:\(stamp(window.end))",
    ]
    lines += busy.sorted { $0.start < $1.start }.map { "FREEBUSY:\(stamp($0.start))/\(stamp($0.end))" }
    lines += ["END:VFREEBUSY", "END:VCALENDAR"]
    return Response(
      status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: lines.joined(separator: "\r\n") + "\r\n")))
  }

  /// `PROPPATCH` of a calendar: its color is kept; its name is Hearth's own and is not renamed over DAV.
  func proppatch(_ request: Request, path: DAVPath) async throws -> Response {
    guard case .collection(let segment, let contacts) = path,
      let collection = try collection(segment, contacts: contacts)
    else { return DAVReply.status(path == .root || path == .principal ? .forbidden : .notFound) }
    guard let body = try await xml(request) else { return DAVReply.badRequest("a PROPPATCH needs a body") }
    // All or nothing (RFC 4918 §9.2): every change is checked first, and one refused fails the rest (424).
    var color = collection.color
    var order = collection.order
    var taken: [DAVName] = []
    var refused: [DAVName] = []
    for change in body.children where change.name == .dav("set") || change.name == .dav("remove") {
      let setting = change.name == .dav("set")
      for property in change.child(.dav("prop"))?.children ?? [] {
        switch property.name {
        case .apple("calendar-color") where !contacts:
          color = setting ? property.text : nil
          taken.append(property.name)
        case .apple("calendar-order") where !contacts:
          order = setting ? property.text : nil
          taken.append(property.name)
        case .dav("displayname") where setting && property.text == (contacts ? "Contacts" : collection.name):
          taken.append(property.name)
        default:
          refused.append(property.name)
        }
      }
    }
    if refused.isEmpty, !taken.isEmpty { try server.setAppearance(color: color, order: order, of: collection) }
    let found = refused.isEmpty ? taken.map { ($0, "") } : []
    let failed =
      refused.map { ($0, status: "403 Forbidden") }
      + (refused.isEmpty ? [] : taken.map { ($0, status: "424 Failed Dependency") })
    return DAVReply.multistatus(
      DAVWriter.multistatus([DAVWriter.response(href: path.href, found: found, refused: failed)]))
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
