import Foundation
public import HearthCore
import HearthStore

extension AccountService {
  /// Local changes waiting to go to this account's server: new items in its collections, changed ones and
  /// deleted ones. They wait in the store itself, so a restart loses none of them.
  public func waitingChanges(of account: Account) throws -> Int {
    var waiting = 0
    for collection in try database.syncCollections(of: account.id) where collection.isEnabled {
      waiting += try CollectionSync.waiting(in: collection, account: account, database: database)
    }
    return waiting
  }

  /// The accounts for `hearth doctor`: no URL, user, name or title.
  func facts() throws -> [DoctorReport.AccountFacts] {
    let next = try nextSync()
    let schedule =
      switch next {
      case .at: "scheduled"
      case .running: "syncing"
      case .notScheduled: "not scheduled"
      }
    return try list().map { entry in
      let synced = try entry.collections.map { try database.syncedItems(in: $0.id).count }.reduce(0, +)
      return DoctorReport.AccountFacts(
        service: entry.account.service.rawValue, collections: entry.collections.filter(\.isEnabled).count,
        syncedItems: synced, waiting: try waitingChanges(of: entry.account), lastSync: entry.account.lastSyncAt,
        nextSync: next.date, schedule: schedule, state: Self.state(of: entry.account))
    }
  }

  /// The last sync's outcome in a word or two, read from the error it left.
  static func state(of account: Account) -> String {
    guard let error = account.lastError else { return account.lastSyncAt == nil ? "never synced" : "ok" }
    if error.contains("refused the user name or password") || error.contains("does not let this account in") {
      return "password refused"
    }
    if error.contains("could not reach") || error.contains("is not answering") { return "server unreachable" }
    return "failing"
  }
}

extension CollectionSync {
  /// How many of this collection's items changed here since the last sync.
  static func waiting(in collection: SyncCollection, account: Account, database: HearthDatabase) throws -> Int {
    let links = try database.syncedItems(in: collection.id)
    let byID = Dictionary(links.map { ($0.itemID, $0) }, uniquingKeysWith: { first, _ in first })
    let locals = try localItems(of: collection, account: account, in: database)
    var count = 0
    for item in locals {
      if let link = byID[item.id] {
        if try SyncItems.fingerprint(item) != link.fingerprint { count += 1 }
      } else if try database.syncedItem(item.kind, id: item.id) == nil {
        count += 1
      }
    }
    let present = Set(locals.map(\.id))
    return count + links.filter { !present.contains($0.itemID) }.count
  }
}
