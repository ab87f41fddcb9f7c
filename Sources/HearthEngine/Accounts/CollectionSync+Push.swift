import Foundation
import HearthCore
import HearthDAV
import HearthStore

extension CollectionSync {
  // MARK: To the server

  /// Sends what changed here since the last sync: new items with `If-None-Match: *`, changed ones patched
  /// into their original with `If-Match`, deleted ones removed with `If-Match`.
  mutating func push(_ report: inout SyncReport) async throws {
    let links = try database.syncedItems(in: collection.id)
    let byID = Dictionary(links.map { ($0.itemID, $0) }, uniquingKeysWith: { first, _ in first })
    let locals = try Self.localItems(of: collection, account: account, in: database)
    let present = Set(locals.map(\.id))
    for item in locals {
      do {
        if let link = byID[item.id] {
          guard try SyncItems.fingerprint(item) != link.fingerprint else { continue }
          try await update(item, link: link, report: &report)
        } else if try database.syncedItem(item.kind, id: item.id) == nil {
          try await create(item, report: &report)
        }
      } catch DAVError.writeRefused(_, let status) {
        // One item the server will not take stops no other: it stays here, and the report names it.
        report.refused.append("“\(item.title)” (\(status))")
      }
    }
    // Deleted here, or moved to a calendar or list this collection is not: its copy here is removed.
    for link in links where !present.contains(link.itemID) {
      do {
        try await remove(link, report: &report)
      } catch DAVError.writeRefused(_, let status) {
        report.refused.append("a deletion (\(status))")
      }
    }
  }

  /// The items of this collection here: those in its calendar or list (every contact linked to it), and,
  /// when it is where new items go, the unlinked ones made since the account was added.
  static func localItems(
    of collection: SyncCollection, account: Account, in database: HearthDatabase
  ) throws -> [StoredItem] {
    let isNew = { (item: StoredItem) in collection.isDefault && (item.createdAt ?? .distantPast) >= account.createdAt }
    switch collection.content {
    case .events:
      return try database.events().compactMap { event in
        if event.calendar == collection.localName { return .event(event) }
        guard event.calendar == CalendarEvent.defaultCalendar, isNew(.event(event)) else { return nil }
        var moved = event
        moved.calendar = collection.localName
        return .event(moved)
      }
    case .todos:
      return try database.reminders().compactMap { reminder in
        if reminder.list == collection.localName { return .reminder(reminder) }
        guard reminder.list == Reminder.defaultList, isNew(.reminder(reminder)) else { return nil }
        var moved = reminder
        moved.list = collection.localName
        return .reminder(moved)
      }
    case .contacts:
      let linked = Set(try database.syncedItems(in: collection.id).map(\.itemID))
      return try database.contacts().compactMap { contact in
        linked.contains(contact.id) || isNew(.contact(contact)) ? .contact(contact) : nil
      }
    }
  }

  private func create(_ item: StoredItem, report: inout SyncReport) async throws {
    guard let body = SyncItems.newBody(item, now: now()) else { return }
    let href = DAVPath.member(SyncItems.memberName(for: item, content: collection.content), in: collection.href)
    guard let (etag, stored) = try await write(body, at: href, replacing: nil) else {
      // A member is there already: this item's own upload from a sync that was cut before it was linked, or
      // another item's. Fetched, it is taken in like any server change.
      try await refetch(href, report: &report)
      return
    }
    let link = SyncedItem(
      collectionID: collection.id, itemKind: item.kind, itemID: item.id, href: href, etag: etag, original: stored,
      fingerprint: try SyncItems.fingerprint(item))
    // Only an item moved here from the default calendar or list is written back (its new place); the others
    // keep whatever the user changed while the upload ran, which then differs from the link and goes next time.
    let current = try database.item(item.kind, id: item.id)
    let moved = current.map { $0.place != item.place } ?? false
    try database.commitSync([moved ? .pulled(item, link) : .linked(link)])
    report.created += 1
  }

  private func update(_ item: StoredItem, link: SyncedItem, report: inout SyncReport) async throws {
    guard case .success(let base) = SyncItems.parse(link.original, in: collection, timeZone: timeZone),
      let body = SyncItems.patchedBody(link.original, from: base.withID(item.id), to: item, now: now())
    else { return }
    guard let (etag, stored) = try await write(body, at: link.href, replacing: link.etag) else {
      // Someone changed it since the pull: taken in and merged now, sent on the next sync.
      try await refetch(link.href, report: &report)
      return
    }
    var fresh = link
    fresh.etag = etag
    fresh.original = stored
    fresh.fingerprint = try SyncItems.fingerprint(item)
    try database.commitSync([.linked(fresh)])
    report.updated += 1
  }

  private func remove(_ link: SyncedItem, report: inout SyncReport) async throws {
    do {
      try await client.delete(link.href, etag: link.etag)
    } catch DAVError.changedOnServer {
      // Changed there since it was deleted here: the change is kept, and the item comes back under its link.
      try await refetch(link.href, report: &report)
      return
    }
    try database.commitSync([.unlinked(link.itemKind, id: link.itemID)])
    report.deleted += 1
  }

  /// A member read again and taken in as a pull would.
  private func refetch(_ href: String, report: inout SyncReport) async throws {
    let link = try database.syncedItems(in: collection.id).first {
      DAVPath.normalized($0.href) == DAVPath.normalized(href)
    }
    var batch: [SyncWrite] = []
    let found = try await client.fetch([href], in: remote)
    for resource in found {
      try apply(resource, link: link, report: &report, batch: &batch)
    }
    if found.isEmpty, let link {
      // Gone from the server since the pull: the local version is kept and goes back as a new member.
      batch.append(.unlinked(link.itemKind, id: link.itemID))
    }
    try database.commitSync(batch)
  }

  /// Writes a member; its entity tag and body as the server then keeps them (read back when the server gave
  /// no tag), or `nil` when someone else's version is there (412).
  private func write(_ body: String, at href: String, replacing etag: String?) async throws -> (String?, String)? {
    let contentType = SyncItems.contentType(collection.content)
    let tag: String?
    do {
      tag = try await client.put(Data(body.utf8), at: href, contentType: contentType, replacing: etag)
    } catch .changedOnServer {
      return nil
    }
    if let tag { return (tag, body) }
    guard let resource = try await client.fetch([href], in: remote).first else { return (nil, body) }
    return (resource.etag, String(decoding: resource.data, as: UTF8.self))
  }
}
