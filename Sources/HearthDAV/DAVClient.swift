public import Foundation

/// A CalDAV (RFC 4791) and CardDAV (RFC 6352) client: finds an account's collections as clients do, lists and
/// fetches their members, and writes with entity tags so that nobody's change is overwritten unseen.
public struct DAVClient: Sendable {
  /// The URL the user gave (a server, a principal or a collection).
  public let base: URL
  let transport: any DAVTransport
  /// Members fetched in one multiget report.
  let batchSize: Int

  public init(base: URL, transport: any DAVTransport, batchSize: Int = 100) {
    self.base = base
    self.transport = transport
    self.batchSize = max(1, batchSize)
  }

  // MARK: Discovery

  /// The collections of the account for this protocol: principal from the URL (or from
  /// `/.well-known/caldav|carddav` when the URL names none), its home set, then the home's members.
  /// - Throws: `DAVError`; `.nothingFound` when the server offers none.
  public func discover(_ service: DAVService) async throws(DAVError) -> [DAVCollection] {
    let principal = try await principalURL(service)
    let homes = try await homeURLs(of: principal, service)
    var found: [DAVCollection] = []
    for home in homes {
      for collection in try await collections(in: home) where service.holds(collection.content) {
        if !found.contains(where: { $0.href == collection.href && $0.content == collection.content }) {
          found.append(collection)
        }
      }
    }
    return found
  }

  /// The principal: asked of the URL first, then of the well-known address.
  func principalURL(_ service: DAVService) async throws(DAVError) -> URL {
    if let found = try await principal(at: base, allowMissing: true) { return found }
    let wellKnown = try url(for: "/.well-known/\(service.rawValue)")
    guard let found = try await principal(at: wellKnown, allowMissing: false) else {
      throw .unexpectedAnswer("no current-user-principal at \(redacted(base)) or its well-known address")
    }
    return found
  }

  private func principal(at start: URL, allowMissing: Bool) async throws(DAVError) -> URL? {
    var target = start
    for _ in 0..<5 {
      let reply = try await send("PROPFIND", target, depth: "0", body: DAVBodies.principal)
      if [301, 302, 303, 307, 308].contains(reply.status), let location = reply.headers["location"] {
        target = try resolve(location, against: target)
        continue
      }
      if reply.status == 207 {
        let answer = try Multistatus.parse(reply.body)
        let href = answer.responses.lazy.flatMap { $0.hrefs(.dav("current-user-principal")) }.first
        return try href.map { (href) throws(DAVError) in try resolve(href, against: target) }
      }
      if allowMissing, [400, 404, 405, 501].contains(reply.status) { return nil }
      try check(reply, "PROPFIND", target)
    }
    throw .unexpectedAnswer("too many redirects from \(redacted(start))")
  }

  func homeURLs(of principal: URL, _ service: DAVService) async throws(DAVError) -> [URL] {
    let reply = try await send("PROPFIND", principal, depth: "0", body: DAVBodies.homes)
    try check(reply, "PROPFIND", principal, expecting: 207)
    let answer = try Multistatus.parse(reply.body)
    let property: DAVName = service == .caldav ? .caldav("calendar-home-set") : .carddav("addressbook-home-set")
    let hrefs = answer.responses.flatMap { $0.hrefs(property) }
    guard !hrefs.isEmpty else { throw .nothingFound(url: redacted(base)) }
    var homes: [URL] = []
    for href in hrefs { homes.append(try resolve(href, against: principal)) }
    return homes
  }

  /// The calendars, task lists and address books directly in `home`.
  public func collections(in home: URL) async throws(DAVError) -> [DAVCollection] {
    let reply = try await send("PROPFIND", home, depth: "1", body: DAVBodies.collections)
    try check(reply, "PROPFIND", home, expecting: 207)
    return try Multistatus.parse(reply.body).responses.flatMap(DAVDiscovery.collections(from:))
  }

  // MARK: Reading

  /// Every member of a collection with its entity tag (PROPFIND depth 1): the listing that never misses a
  /// change, for servers without sync tokens or whose token was refused.
  public func members(of collection: DAVCollection) async throws(DAVError) -> [DAVMember] {
    let target = try resolve(collection.href, against: base)
    let reply = try await send("PROPFIND", target, depth: "1", body: DAVBodies.etags)
    try check(reply, "PROPFIND", target, expecting: 207)
    return try Multistatus.parse(reply.body).responses.compactMap { response in
      guard !DAVDiscovery.samePath(response.href, collection.href),
        response.properties[.dav("resourcetype")]?.child(.dav("collection")) == nil,
        let etag = response.text(.dav("getetag"))
      else { return nil }
      return DAVMember(href: response.href, etag: etag)
    }
  }

  /// What changed since `token` (`nil`: everything), by RFC 6578's `sync-collection` report.
  /// - Throws: `DAVError.syncTokenRefused` when the server will not answer from this token: list instead.
  public func changes(in collection: DAVCollection, since token: String?) async throws(DAVError) -> DAVChanges {
    let target = try resolve(collection.href, against: base)
    let reply = try await send("REPORT", target, depth: "0", body: DAVBodies.syncCollection(token: token))
    if [400, 403, 409, 412, 415, 501].contains(reply.status) || reply.status == 404 && token != nil {
      throw .syncTokenRefused(href: collection.href, status: reply.status)
    }
    try check(reply, "REPORT", target, expecting: 207)
    let answer = try Multistatus.parse(reply.body)
    var changes = DAVChanges(changed: [], removed: [], token: answer.syncToken)
    for response in answer.responses where !DAVDiscovery.samePath(response.href, collection.href) {
      if response.isGone {
        changes.removed.append(response.href)
      } else if let etag = response.text(.dav("getetag")) {
        changes.changed.append(DAVMember(href: response.href, etag: etag))
      }
    }
    guard changes.token != nil else {
      throw .syncTokenRefused(href: collection.href, status: reply.status)
    }
    return changes
  }

  /// The bodies of these members, by multiget reports of at most `batchSize` each. A member that went missing
  /// between listing and fetching is left out.
  public func fetch(_ hrefs: [String], in collection: DAVCollection) async throws(DAVError) -> [DAVResource] {
    let target = try resolve(collection.href, against: base)
    let data: DAVName = collection.content == .contacts ? .carddav("address-data") : .caldav("calendar-data")
    var resources: [DAVResource] = []
    var start = 0
    while start < hrefs.count {
      let batch = Array(hrefs[start..<min(start + batchSize, hrefs.count)])
      start += batch.count
      let body = DAVBodies.multiget(batch, content: collection.content)
      let reply = try await send("REPORT", target, depth: "1", body: body)
      try check(reply, "REPORT", target, expecting: 207)
      for response in try Multistatus.parse(reply.body).responses {
        guard let etag = response.text(.dav("getetag")), let text = response.properties[data]?.text,
          !text.isEmpty
        else { continue }
        resources.append(DAVResource(href: response.href, etag: etag, data: Data(text.utf8)))
      }
    }
    return resources
  }

  // MARK: Writing

  /// Writes a member. With `etag`, only over that version (`If-Match`); without, only where none is
  /// (`If-None-Match: *`). Returns the new entity tag when the server gave one.
  /// - Throws: `DAVError.changedOnServer` on 412: someone else wrote first.
  public func put(
    _ data: Data, at href: String, contentType: String, replacing etag: String?
  )
    async throws(DAVError) -> String?
  {
    let target = try resolve(href, against: base)
    var headers = ["Content-Type": contentType]
    if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
    let reply = try await transport.send(DAVRequest(method: "PUT", url: target, headers: headers, body: data))
    if reply.status == 412 { throw .changedOnServer(href: href) }
    if [400, 403, 405, 409, 413, 415, 422, 507].contains(reply.status) {
      throw .writeRefused(href: href, status: reply.status)
    }
    try check(reply, "PUT", target)
    return reply.etag
  }

  /// Removes a member, only while it is still at `etag`. A member already gone is not an error.
  /// - Throws: `DAVError.changedOnServer` on 412.
  public func delete(_ href: String, etag: String?) async throws(DAVError) {
    let target = try resolve(href, against: base)
    let headers = etag.map { ["If-Match": $0] } ?? [:]
    let reply = try await transport.send(DAVRequest(method: "DELETE", url: target, headers: headers))
    if reply.status == 412 { throw .changedOnServer(href: href) }
    if reply.status == 404 { return }
    if [400, 403, 405, 409].contains(reply.status) { throw .writeRefused(href: href, status: reply.status) }
    try check(reply, "DELETE", target)
  }

  // MARK: Plumbing

  private func send(_ method: String, _ url: URL, depth: String, body: String) async throws(DAVError) -> DAVReply {
    let headers = ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"]
    return try await transport.send(DAVRequest(method: method, url: url, headers: headers, body: Data(body.utf8)))
  }

  private func check(_ reply: DAVReply, _ method: String, _ url: URL, expecting: Int? = nil) throws(DAVError) {
    if reply.status == 401 || reply.status == 403 { throw .notAuthorized(url: redacted(url), status: reply.status) }
    if [502, 503, 504].contains(reply.status) { throw .notAnswering(url: redacted(url), status: reply.status) }
    if let expecting, reply.status != expecting {
      throw .unexpectedStatus(method: method, url: redacted(url), status: reply.status)
    }
    guard (200..<300).contains(reply.status) else {
      throw .unexpectedStatus(method: method, url: redacted(url), status: reply.status)
    }
  }

  /// A path or URL from the server, resolved against the URL it came from.
  func resolve(_ href: String, against url: URL) throws(DAVError) -> URL {
    guard let resolved = URL(string: href, relativeTo: url)?.absoluteURL else { throw .badURL(href) }
    return resolved
  }

  /// A path on the account's server.
  public func url(for path: String) throws(DAVError) -> URL { try resolve(path, against: base) }

  /// A URL with any user and password taken out, for messages.
  func redacted(_ url: URL) -> String {
    guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "the server" }
    parts.user = nil
    parts.password = nil
    return parts.string ?? "the server"
  }
}

/// The two protocols, named as their well-known addresses name them.
public enum DAVService: String, Sendable, Hashable, Codable, CaseIterable {
  case caldav
  case carddav

  func holds(_ content: DAVCollection.Content) -> Bool {
    switch self {
    case .caldav: content != .contacts
    case .carddav: content == .contacts
    }
  }
}
