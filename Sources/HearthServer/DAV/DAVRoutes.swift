import Foundation
import HTTPTypes
import HearthCore
import HearthDAV
import HearthEngine
import Hummingbird
import NIOCore

/// `/dav/…`: the user's calendars, reminder lists and contacts served over CalDAV (RFC 4791) and CardDAV
/// (RFC 6352), with WebDAV sync (RFC 6578), so the phone's own Calendar, Reminders and Contacts apps (an iOS
/// account, DAVx5, Thunderbird) read and write them directly. `/.well-known/caldav` and `/.well-known/carddav`
/// lead there. Requests pass the same checks as every route (the key, or a paired device's secret as the
/// password of HTTP Basic authentication; `Host`; size limits); XML bodies are parsed with no document type
/// declarations and limited nesting.
struct DAVRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/"] }

  var server: CollectionServer { dependencies.engine.collectionServer }

  static var methods: [HTTPRequest.Method] {
    [.options, .get, .head, .put, .delete]
      + ["PROPFIND", "PROPPATCH", "REPORT", "MKCALENDAR", "MKCOL"].map {
        HTTPRequest.Method($0)!
      }
  }

  func addRoutes(to router: RouteCollection<Context>) {
    for method in Self.methods {
      router.on("dav", method: method) { request, _ in try await handle(request) }
      router.on("dav/**", method: method) { request, _ in try await handle(request) }
    }
    // A client given only the server's address asks its root who the user is.
    router.on("", method: HTTPRequest.Method("PROPFIND")!) { request, _ in try await handle(request) }
    for service in ["caldav", "carddav"] {
      for method in Self.methods {
        router.on(".well-known/\(service)", method: method) { _, _ in
          Response(status: .movedPermanently, headers: [.location: DAVPath.base])
        }
      }
    }
  }

  private func handle(_ request: Request) async throws -> Response {
    guard let path = DAVPath(request.uri.path) else { return DAVReply.status(.notFound) }
    do {
      switch request.method.rawValue {
      case "OPTIONS": return DAVReply.options
      case "PROPFIND": return try await propfind(request, path: path)
      case "PROPPATCH": return try await proppatch(request, path: path)
      case "REPORT": return try await report(request, path: path)
      case "MKCALENDAR", "MKCOL": return try await makeCollection(request, path: path)
      case "GET", "HEAD": return try get(request, path: path)
      case "PUT": return try await put(request, path: path)
      case "DELETE": return try delete(request, path: path)
      default: return DAVReply.status(.methodNotAllowed)
      }
    } catch let error as ServedWriteError {
      return DAVReply.refusal(error, contacts: path.isUnderContacts)
    } catch let error as DAVError {
      return DAVReply.badRequest("the XML body is refused: \(Self.reason(error))")
    }
  }

  private static func reason(_ error: DAVError) -> String {
    if case .malformedXML(let reason) = error { return reason }
    return error.description
  }

  // MARK: Reading

  /// The XML body, `nil` when there is none.
  func xml(_ request: Request) async throws -> DAVElement? {
    let data = try await RequestReader.bytes(of: request, limit: configuration.maxBodyBytes)
    guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
    return try DAVElement.parse(data)
  }

  func collection(_ segment: String, contacts: Bool) throws -> ServedCollection? {
    try server.collection(segment: segment, contacts: contacts)
  }

  private func propfind(_ request: Request, path: DAVPath) async throws -> Response {
    let (names, onlyNames) = DAVProperties.requested(in: try await xml(request))
    // `Depth: infinity` is answered as 1: the tree is never deeper than a home's members.
    let depth = request.headers[HTTPField.Name("Depth")!] == "0" ? 0 : 1
    let token = try server.latestChange()
    var responses: [String] = []
    func add(_ href: String, _ value: (DAVName) -> String?) {
      let (found, missing) = DAVProperties.split(names, value: value)
      responses.append(
        onlyNames
          ? DAVWriter.response(href: href, found: found.map { ($0.0, "") })
          : DAVWriter.response(href: href, found: found, missing: missing))
    }
    switch path {
    case .root, .principal:
      add(path.href) { DAVProperties.value(of: $0, at: path) }
    case .home(let contacts):
      add(path.href) { DAVProperties.value(of: $0, at: path) }
      if depth > 0 {
        for collection in try server.collections() where (collection.content == .contacts) == contacts {
          add(DAVPath.collection(segment: collection.segment, contacts: contacts).href) {
            DAVProperties.value(of: $0, of: collection, syncToken: token)
          }
        }
      }
    case .collection(let segment, let contacts):
      guard let collection = try collection(segment, contacts: contacts) else { return DAVReply.status(.notFound) }
      add(path.href) { name in
        if name == .caldav("max-resource-size") || name == .carddav("max-resource-size") {
          return "\(configuration.maxBodyBytes)"
        }
        return DAVProperties.value(of: name, of: collection, syncToken: token)
      }
      if depth > 0 {
        for member in try server.members(of: collection) {
          add(DAVPath.member(segment: segment, contacts: contacts, name: member.name).href) {
            DAVProperties.value(of: $0, of: member, contacts: contacts)
          }
        }
      }
    case .member(let segment, let contacts, let name):
      guard let collection = try collection(segment, contacts: contacts),
        let member = try server.member(name, in: collection)
      else { return DAVReply.status(.notFound) }
      add(path.href) { DAVProperties.value(of: $0, of: member, contacts: contacts) }
    }
    return DAVReply.multistatus(DAVWriter.multistatus(responses))
  }

  private func get(_ request: Request, path: DAVPath) throws -> Response {
    guard case .member(let segment, let contacts, let name) = path else {
      // A person who opens the address in a browser learns what it is for.
      return DAVReply.plain(
        "This is Hearth's CalDAV and CardDAV server. Add it to a calendar or contacts app with this server's "
          + "address, any user name, and the API key or a paired device's secret as the password.",
        status: .ok)
    }
    guard let collection = try collection(segment, contacts: contacts),
      let member = try server.member(name, in: collection)
    else { return DAVReply.status(.notFound) }
    var headers: HTTPFields = [
      .contentType: contacts ? "text/vcard; charset=utf-8" : "text/calendar; charset=utf-8", .eTag: member.etag,
    ]
    headers[.lastModified] = DAVReply.httpDate(member.updatedAt)
    if let tags = request.headers[.ifNoneMatch].map(Self.tags), tags.contains("*") || tags.contains(member.etag) {
      return Response(status: .notModified, headers: headers)
    }
    let body = Data(member.body.utf8)
    headers[.contentLength] = "\(body.count)"
    return Response(
      status: .ok, headers: headers,
      body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  // MARK: Writing

  private func preconditions(_ request: Request) -> CollectionServer.Preconditions {
    CollectionServer.Preconditions(
      ifMatch: request.headers[.ifMatch].map(Self.tags) ?? [],
      ifNoneMatch: request.headers[.ifNoneMatch].map(Self.tags) ?? [])
  }

  /// The entity tags a conditional header lists (`"a", W/"b"` → `"a"`, `W/"b"`), or `*`.
  static func tags(_ header: String) -> [String] {
    header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  private func put(_ request: Request, path: DAVPath) async throws -> Response {
    guard case .member(let segment, let contacts, let name) = path else {
      return DAVReply.status(.methodNotAllowed)
    }
    guard let collection = try collection(segment, contacts: contacts) else { return DAVReply.status(.conflict) }
    let data = try await RequestReader.bytes(of: request, limit: configuration.maxBodyBytes)
    guard let body = String(data: data, encoding: .utf8) else {
      return DAVReply.badRequest("the body is not UTF-8 text")
    }
    let (member, created) = try server.put(body, as: name, in: collection, preconditions: preconditions(request))
    var headers: HTTPFields = [:]
    // The tag is sent only when the stored body is byte for byte the one sent, as RFC 4791 asks.
    if member.body == body { headers[.eTag] = member.etag }
    return Response(status: created ? .created : .noContent, headers: headers)
  }

  private func delete(_ request: Request, path: DAVPath) throws -> Response {
    switch path {
    case .member(let segment, let contacts, let name):
      guard let collection = try collection(segment, contacts: contacts) else { return DAVReply.status(.notFound) }
      try server.delete(name, in: collection, preconditions: preconditions(request))
      return Response(status: .noContent)
    case .collection(let segment, let contacts):
      guard let collection = try collection(segment, contacts: contacts) else { return DAVReply.status(.notFound) }
      guard !contacts else { return DAVReply.forbidden("the address book is not deleted; delete its cards") }
      if !preconditions(request).ifMatch.isEmpty {
        return DAVReply.plain("a collection has no entity tag to match", status: .preconditionFailed)
      }
      try server.removeCollection(collection)
      return Response(status: .noContent)
    default:
      return DAVReply.status(.methodNotAllowed)
    }
  }
}
