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
    // The item this write replaces: the member at this name, or (a client moving an item by writing it into
    // another calendar or list) the item with this UID elsewhere.
    var replaced = existing?.item
    if let existing {
      guard existing.item.id == item.id else {
        throw .uidConflict("member \(name) holds UID \(existing.item.id); a changed UID is a new member")
      }
    } else {
      do {
        replaced = try context.database.item(collection.kind, id: item.id)
      } catch {
        throw .storeFailed("\(error)")
      }
      if let replaced, Self.collectionName(of: replaced) == collection.name {
        throw .uidConflict("another member of \(collection.name) already holds UID \(item.id)")
      }
    }
    do {
      item = try Self.stamped(item, created: replaced?.synced?.createdAt ?? now).prepared(in: context)
    } catch {
      throw .unreadable("\(error)")
    }
    // A member found under another spelling of its name (`%40` for `@`) keeps the name it is served under, so
    // other clients do not see it twice.
    let member = ServedMember(
      itemKind: collection.kind, itemID: item.id, collection: collection.name, href: existing?.name ?? name,
      original: body, snapshot: "")
    do {
      let written = try context.database.storeServed(item, member: member, expecting: replaced) {
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
    guard !segment.hasPrefix("tasks~"), !segment.hasSuffix("~") else {
      throw .nameTaken("\(segment) is a name Hearth gives its own lists")
    }
    do {
      guard try collections().allSatisfy({ $0.segment != segment || $0.content == .contacts }) else {
        throw ServedWriteError.nameTaken("a collection is already at \(segment)")
      }
      let kind: ItemKind = content == .todos ? .reminder : .event
      if try collections().contains(where: { $0.kind == kind && $0.name == name }) {
        throw ServedWriteError.nameTaken("a \(content == .todos ? "list" : "calendar") named \(name) exists")
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

  /// Sets a collection's color and place among the others (`PROPPATCH` of `calendar-color`, `calendar-order`).
  public func setAppearance(color: String?, order: String?, of collection: ServedCollection) throws {
    let made = try context.database.servedCollection(collection.kind, name: collection.name)
    try context.database.addServedCollection(
      collection.kind,
      MadeCollection(
        name: collection.name, segment: made?.segment ?? collection.segment, color: color, order: order),
      now: context.now())
  }

  private static func stamped(_ item: StoredItem, created: Date) -> StoredItem {
    guard var synced = item.synced else { return item }
    synced.createdAt = created
    return synced.stored
  }
}
