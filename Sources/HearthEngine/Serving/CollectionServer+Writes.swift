import Foundation
public import HearthCore
import HearthInterchange
import HearthStore

extension CollectionServer {
  /// What a client's `If-Match` / `If-None-Match` headers ask of the member they write.
  public struct Preconditions: Sendable, Hashable {
    /// The entity tags the member must have (`If-Match`); `["*"]`: it must exist.
    public var ifMatch: [String]
    /// The tags it must not have (`If-None-Match`); `["*"]`: it must not exist.
    public var ifNoneMatch: [String]

    public init(ifMatch: [String] = [], ifNoneMatch: [String] = []) {
      (self.ifMatch, self.ifNoneMatch) = (ifMatch, ifNoneMatch)
    }

    func check(_ current: ServedResource?) throws(ServedWriteError) {
      if !ifMatch.isEmpty {
        guard let current else { throw .preconditionFailed("If-Match names a member that does not exist") }
        guard ifMatch.contains("*") || ifMatch.contains(current.etag) else {
          throw .preconditionFailed("the member changed since it was read (its entity tag is \(current.etag))")
        }
      }
      if let current, ifNoneMatch.contains("*") || ifNoneMatch.contains(current.etag) {
        throw .preconditionFailed("If-None-Match: the member exists")
      }
    }
  }

  /// Stores the body a client put as member `name` of `collection`: a new item, or the item that member is.
  /// The body's own lines are kept and served back as they were, with later changes written in.
  /// - Returns: the member as it is now served, and whether it is new.
  public func put(
    _ body: String, as name: String, in collection: ServedCollection, preconditions: Preconditions
  ) throws(ServedWriteError) -> (resource: ServedResource, created: Bool) {
    let existing: ServedResource?
    do { existing = try member(name, in: collection) } catch { throw .storeFailed("\(error)") }
    try preconditions.check(existing)
    let shape = SyncCollection(
      accountID: "", href: "", content: collection.content, displayName: collection.name,
      localName: collection.content == .contacts ? "" : collection.name)
    var item: StoredItem
    switch SyncItems.parse(body, in: shape, timeZone: context.timeZone) {
    case .success(let parsed): item = parsed
    case .failure(.otherKind):
      throw .wrongKind(
        "a \(collection.content == .todos ? "list of to-dos" : "calendar of events") takes no other kind")
    case .failure(.cancelled): throw .unreadable("a cancelled item is not kept")
    case .failure(.unreadable(let reason)): throw .unreadable(reason)
    }
    let now = context.now()
    if let existing {
      guard existing.item.id == item.id else {
        throw .uidConflict("member \(name) holds UID \(existing.item.id); a changed UID is a new member")
      }
      item = Self.stamped(item, created: existing.item.synced?.createdAt ?? now, updated: now)
    } else {
      do {
        if try context.database.item(collection.kind, id: item.id) != nil {
          throw ServedWriteError.uidConflict("another member already holds UID \(item.id)")
        }
      } catch let error as ServedWriteError {
        throw error
      } catch {
        throw .storeFailed("\(error)")
      }
      item = Self.stamped(item, created: now, updated: now)
    }
    let member = ServedMember(
      itemKind: collection.kind, itemID: item.id, collection: collection.name, href: name, original: body,
      snapshot: "")
    do {
      let written = try context.database.storeServed(item, member: member, expecting: existing?.item) {
        try Self.snapshot($0)
      }
      guard written else { throw ServedWriteError.preconditionFailed("another writer changed the member first") }
      guard let stored = try context.database.item(collection.kind, id: item.id) else {
        throw ServedWriteError.storeFailed("the member was removed while it was written")
      }
      return (try resource(stored), existing == nil)
    } catch let error as ServedWriteError {
      throw error
    } catch {
      throw .storeFailed("\(error)")
    }
  }

  /// Removes member `name` of `collection`.
  public func delete(
    _ name: String, in collection: ServedCollection, preconditions: Preconditions
  ) throws(ServedWriteError) {
    do {
      guard let existing = try member(name, in: collection) else { throw ServedWriteError.memberNotFound(name) }
      try preconditions.check(existing)
      guard try context.database.removeServed(existing.item) else {
        throw ServedWriteError.preconditionFailed("another writer changed the member first")
      }
    } catch let error as ServedWriteError {
      throw error
    } catch {
      throw .storeFailed("\(error)")
    }
  }

  /// Makes an empty calendar or reminder list a client asked for (`MKCALENDAR`) at path segment `segment`.
  public func makeCollection(
    _ content: SyncCollection.Content, segment: String, displayName: String?, color: String?
  ) throws(ServedWriteError) -> ServedCollection {
    let name =
      (displayName?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : $0 }
      ?? (segment.removingPercentEncoding ?? segment)
    do {
      guard try collections().allSatisfy({ $0.segment != segment || $0.content == .contacts }) else {
        throw ServedWriteError.uidConflict("a collection is already at \(segment)")
      }
      let kind: ItemKind = content == .todos ? .reminder : .event
      if try collections().contains(where: { $0.kind == kind && $0.name == name }) {
        throw ServedWriteError.uidConflict("a \(content == .todos ? "list" : "calendar") named \(name) exists")
      }
      try context.database.addServedCollection(
        kind, MadeCollection(name: name, segment: segment, color: color), now: context.now())
      guard let made = try collection(segment: segment, contacts: false) else {
        throw ServedWriteError.storeFailed("the collection was not kept")
      }
      return made
    } catch let error as ServedWriteError {
      throw error
    } catch {
      throw .storeFailed("\(error)")
    }
  }

  /// Deletes a calendar or reminder list with everything in it (`DELETE` of the collection, as a phone deletes
  /// a calendar); the default calendar and list come back empty. The address book is never deleted.
  /// - Returns: how many items went with it.
  @discardableResult
  public func removeCollection(_ collection: ServedCollection) throws -> Int {
    guard collection.content != .contacts else { return 0 }
    return try context.database.removeServedCollection(collection.kind, name: collection.name)
  }

  /// Sets a collection's color (`PROPPATCH` of `calendar-color`).
  public func setColor(_ color: String?, of collection: ServedCollection) throws {
    let made = try context.database.servedCollection(collection.kind, name: collection.name)
    try context.database.addServedCollection(
      collection.kind,
      MadeCollection(name: collection.name, segment: made?.segment ?? collection.segment, color: color),
      now: context.now())
  }

  private static func stamped(_ item: StoredItem, created: Date, updated: Date) -> StoredItem {
    guard var synced = item.synced else { return item }
    synced.createdAt = created
    synced.updatedAt = updated
    return synced.stored
  }
}
