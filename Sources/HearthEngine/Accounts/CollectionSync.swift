import Foundation
import HearthCore
import HearthDAV
import HearthStore

/// One collection brought in step both ways: first what changed on the server (by sync token, or by listing
/// every entity tag), then what changed here. Each item is written with its link in one transaction and the
/// sync token only after, so a sync cut at any point is finished by the next one with nothing lost or doubled.
struct CollectionSync {
  let client: DAVClient
  let database: HearthDatabase
  let account: Account
  var collection: SyncCollection
  let timeZone: TimeZone
  let now: @Sendable () -> Date
  /// Shared with the run's other collection of the same calendar on the server.
  let reads: SharedReads

  var remote: DAVCollection {
    DAVCollection(
      href: collection.href, displayName: collection.displayName, content: davContent,
      offersSyncToken: true)
  }

  private var davContent: DAVCollection.Content {
    switch collection.content {
    case .events: .events
    case .todos: .todos
    case .contacts: .contacts
    }
  }

  mutating func run() async throws -> SyncReport {
    var report = SyncReport(collection: collection.displayName)
    try await pull(&report)
    try await push(&report)
    return report
  }

  // MARK: From the server

  private mutating func pull(_ report: inout SyncReport) async throws {
    let links = try database.syncedItems(in: collection.id)
    let byHref = Dictionary(links.map { (DAVPath.normalized($0.href), $0) }, uniquingKeysWith: { first, _ in first })
    // A member the other collection of the same calendar holds at this tag (a to-do, read here for events)
    // was read before and is not read again.
    let sibling = try siblingTags()
    let found = try await serverChanges(byHref, sibling: sibling)
    let (changed, removed) = (found.changed, found.removed)
    var token = found.token
    report.usedSyncToken = found.usedToken
    let wanted = changed.filter {
      let href = DAVPath.normalized($0.href)
      return byHref[href]?.etag != $0.etag && sibling[href] != $0.etag
    }
    // A hundred at a time: one report to fetch them, one transaction to keep them.
    let (client, remote) = (client, remote)
    let elsewhere = try database.syncedItemIDs(collection.itemKind, outside: collection.id)
    var claimed = Dictionary(
      links.map { ($0.itemID, DAVPath.normalized($0.href)) }, uniquingKeysWith: { first, _ in first })
    var complete = true
    for start in stride(from: 0, to: wanted.count, by: 100) {
      var batch: [SyncWrite] = []
      let chunk = Array(wanted[start..<min(start + 100, wanted.count)])
      let (fetched, loaded) = try await reads.fetch(chunk, { hrefs in try await client.fetch(hrefs, in: remote) })
      // Listed as changed but not read back (deleted since, or refused one by one inside the report).
      if fetched.count < chunk.count { complete = false }
      report.fetched += loaded
      for resource in fetched {
        try apply(
          resource, link: byHref[DAVPath.normalized(resource.href)], report: &report, batch: &batch,
          elsewhere: elsewhere, claimed: claimed)
      }
      for case .pulled(let item, let link) in batch { claimed[item.id] = DAVPath.normalized(link.href) }
      try database.commitSync(batch)
    }
    var gone: [SyncWrite] = []
    for href in removed {
      guard let link = byHref[DAVPath.normalized(href)] else { continue }
      if let local = try database.item(link.itemKind, id: link.itemID),
        try SyncItems.fingerprint(local) != link.fingerprint
      {
        // Changed here, deleted there: the change is kept and goes back to the server as a new member.
        gone.append(.unlinked(link.itemKind, id: link.itemID))
      } else {
        gone.append(.removed(link.itemKind, id: link.itemID))
        report.removed += 1
      }
    }
    try database.commitSync(gone)
    // A member that was not read is asked about again next time: the token moves on only past what was read.
    if !complete { token = collection.syncToken }
    if found.checked {
      let missed = try found.missedLinked + (found.unnamed.isEmpty ? 0 : found.unnamedLinked(in: currentLinks()))
      if missed > 0 {
        report.tokenMissed = missed
        token = nil
      }
      try database.saveSyncCheck(
        at: now(), tokenMissedChanges: collection.tokenMissedChanges || missed > 0, of: collection.id)
    }
    collection.syncToken = token
    try database.saveSyncToken(token, displayName: collection.displayName, of: collection.id)
  }

  /// The collection's links as they are now.
  private func currentLinks() throws -> [SyncedItem] { try database.syncedItems(in: collection.id) }

  /// Takes one member in: new, changed, or changed on both sides (merged, or the server's version with the
  /// local one kept as a copy).
  /// The common case (new here, or changed on one side) is added to `batch` for the caller to write; the
  /// rest is written at once.
  /// `elsewhere`: the ids of this kind linked to other collections, when the caller read them once for many;
  /// `claimed`: the href each id here is linked to, likewise.
  func apply(
    _ resource: DAVResource, link: SyncedItem?, report: inout SyncReport, batch: inout [SyncWrite],
    elsewhere: Set<String>? = nil, claimed: [String: String]? = nil
  ) throws {
    let body = String(decoding: resource.data, as: UTF8.self)
    let server: StoredItem
    switch SyncItems.parse(body, in: collection, timeZone: timeZone) {
    case .success(let item): server = item
    case .failure(.otherKind): return
    case .failure(.cancelled):
      // Cancelled there: gone here too, and its link with it (the server keeps the cancelled copy).
      if let link {
        batch.append(.removed(link.itemKind, id: link.itemID))
        report.removed += 1
      }
      return
    case .failure(.unreadable(let reason)):
      report.unreadable.append("\(DAVPath.normalized(resource.href).split(separator: "/").last ?? ""): \(reason)")
      return
    }
    let id = try localID(
      for: server, at: resource.href, link: link, elsewhere: elsewhere, claimed: claimed, batch: batch)
    let incoming = server.withID(id)
    let fresh = SyncedItem(
      collectionID: collection.id, itemKind: incoming.kind, itemID: id, href: resource.href, etag: resource.etag,
      original: body, fingerprint: try SyncItems.fingerprint(incoming))
    guard let link, let local = try database.item(link.itemKind, id: link.itemID),
      try SyncItems.fingerprint(local) != link.fingerprint
    else {
      batch.append(.pulled(incoming, fresh))
      if link == nil { report.added += 1 } else { report.changed += 1 }
      return
    }
    // Both sides changed it since the last sync.
    guard case .success(let parsedBase) = SyncItems.parse(link.original, in: collection, timeZone: timeZone) else {
      try keepCopy(of: local, beside: incoming, link: fresh, report: &report)
      return
    }
    let (merged, collided) = try SyncItems.merge(base: parsedBase.withID(id), local: local, server: incoming)
    if collided.isEmpty {
      // The link records the server's version, so the merged one differs and goes back with If-Match.
      batch.append(.pulled(merged, fresh))
      report.merged += 1
    } else {
      try keepCopy(of: local, beside: incoming, link: fresh, report: &report)
    }
  }

  /// The server's version in place; the local one kept beside it as a new item whose title says what it is.
  private func keepCopy(
    of local: StoredItem, beside incoming: StoredItem, link: SyncedItem, report: inout SyncReport
  )
    throws
  {
    let copy = local.asConflictCopy(id: UUID().uuidString.lowercased(), at: now())
    try database.commitSync([.pulled(incoming, link), .kept(copy)])
    report.copies.append(copy.title)
    _ = try database.recordNotices([
      Notice(
        kind: .sync, itemID: copy.id, title: "“\(incoming.title)” was changed on both sides",
        detail: "The server's version is in Hearth; yours is kept as “\(copy.title)”.", fireAt: now())
    ])
  }

  /// The id a server item has here: its link's, else its UID unless another collection's item has that id,
  /// or another member of this one (two members with one UID, which some servers allow).
  private func localID(
    for item: StoredItem, at href: String, link: SyncedItem?, elsewhere: Set<String>?,
    claimed: [String: String]?, batch: [SyncWrite]
  ) throws -> String {
    if let link { return link.itemID }
    let elsewhereID = "\(collection.id.prefix(8))-\(item.id)"
    // The pull reads the links once for many items; a single item looks its id up.
    let holderHref: String?
    if let elsewhere, let claimed {
      if elsewhere.contains(item.id) { return elsewhereID }
      holderHref = claimed[item.id]
    } else {
      let holder = try database.syncedItem(item.kind, id: item.id)
      if let holder, holder.collectionID != collection.id { return elsewhereID }
      holderHref = holder.map { DAVPath.normalized($0.href) }
    }
    let here = DAVPath.normalized(href)
    let pending = batch.contains { step in
      guard case .pulled(let other, let otherLink) = step else { return false }
      return other.id == item.id && DAVPath.normalized(otherLink.href) != here
    }
    guard pending || (holderHref.map { $0 != here } ?? false) else { return item.id }
    // Each member keeps an item of its own, named after the member so the next sync finds the same one.
    let member = here.split(separator: "/").last.map(String.init) ?? here
    return "\(member)-\(item.id)"
  }
}
