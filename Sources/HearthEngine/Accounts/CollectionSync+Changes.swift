import Foundation
import HearthCore
import HearthDAV
import HearthStore

extension CollectionSync {
  /// How often every member's entity tag is listed beside the sync token's report: a server that keeps its
  /// tokens badly (a report that leaves out a change) is caught within a day.
  static let checkInterval: TimeInterval = 86_400

  /// What changed on the server since the last sync.
  struct ServerChanges {
    var changed: [DAVMember]
    var removed: [String]
    /// The token to keep after the sync.
    var token: String?
    var usedToken: Bool
    /// Whether every member was listed (the check is recorded, and what it found the token missed counted).
    var checked = false
    /// Linked items whose change or removal the token left out.
    var missedLinked = 0
    /// Members the listing found that the token never named and no link holds: counted as missed once they
    /// became items (a member of another kind, or one that cannot be read, is no miss).
    var unnamed: Set<String> = []

    /// How many of the unnamed members became items, given the collection's links after the pull.
    func unnamedLinked(in links: [SyncedItem]) -> Int {
      links.filter { unnamed.contains(DAVPath.normalized($0.href)) }.count
    }
  }

  /// The changes by sync token where the server offers one, by listing every entity tag where it does not
  /// (or refused the token, or once left out a change); once a day the listing runs beside the token's report.
  func serverChanges(_ byHref: [String: SyncedItem], sibling: [String: String]) async throws -> ServerChanges {
    if collection.tokenMissedChanges {
      let (changed, removed) = try await listed(byHref)
      return ServerChanges(changed: changed, removed: removed, token: nil, usedToken: false)
    }
    let isCheckDue =
      collection.syncToken != nil
      && (collection.checkedAt.map { now().timeIntervalSince($0) >= Self.checkInterval } ?? true)
    // Listed before the report: a change made between the two is then in the report, never taken for a miss.
    let check = isCheckDue ? try await listed(byHref) : nil
    // The sync-collection report is tried first everywhere: a server without it refuses it at once.
    guard let report = try await tokenChanges() else {
      // No token, or an expired one: every entity tag is listed, which never misses a change.
      let listing: (changed: [DAVMember], removed: [String])
      if let check { listing = check } else { listing = try await listed(byHref) }
      let (changed, removed) = listing
      return ServerChanges(changed: changed, removed: removed, token: nil, usedToken: false)
    }
    var found = ServerChanges(changed: report.changed, removed: report.removed, token: report.token, usedToken: true)
    if collection.syncToken == nil {
      // A report from no token lists every member and names no removal: what it leaves out is gone.
      let present = Set(found.changed.map { DAVPath.normalized($0.href) })
      found.removed = byHref.filter { $0.value.etag != nil && !present.contains($0.key) }.map(\.value.href)
      found.checked = true
    } else if let check {
      let named = Set((found.changed.map(\.href) + found.removed).map(DAVPath.normalized))
      let missed = check.changed.filter {
        let href = DAVPath.normalized($0.href)
        return !named.contains(href) && byHref[href]?.etag != $0.etag && sibling[href] != $0.etag
      }
      let gone = check.removed.filter { !named.contains(DAVPath.normalized($0)) }
      found.changed += missed
      found.removed += gone
      found.missedLinked = missed.filter { byHref[DAVPath.normalized($0.href)] != nil }.count + gone.count
      found.unnamed = Set(missed.map { DAVPath.normalized($0.href) }.filter { byHref[$0] == nil })
      found.checked = true
    }
    return found
  }

  /// The changes since the collection's token, `nil` when the server refuses it.
  func tokenChanges() async throws -> DAVChanges? {
    let (client, remote, token) = (client, remote, collection.syncToken)
    return try await reads.changes(in: collection.href, since: token) {
      do {
        return try await client.changes(in: remote, since: token)
      } catch DAVError.syncTokenRefused {
        return nil
      }
    }
  }

  /// The entity tags of the members linked to the other collection of the same calendar on the server (its
  /// events, when this one is its to-dos), by normalised href.
  func siblingTags() throws -> [String: String] {
    var tags: [String: String] = [:]
    for other in try database.syncCollections(of: account.id)
    where other.id != collection.id && DAVPath.normalized(other.href) == DAVPath.normalized(collection.href) {
      for (href, etag) in try database.syncedEntityTags(in: other.id) { tags[DAVPath.normalized(href)] = etag }
    }
    return tags
  }

  /// Changes found by comparing every member's entity tag with the links.
  func listed(_ byHref: [String: SyncedItem]) async throws -> (changed: [DAVMember], removed: [String]) {
    let (client, remote) = (client, remote)
    let members = try await reads.members(in: collection.href) { try await client.members(of: remote) }
    let present = Set(members.map { DAVPath.normalized($0.href) })
    let removed = byHref.filter { $0.value.etag != nil && !present.contains($0.key) }.map(\.value.href)
    return (members, removed)
  }

}
