import Foundation
import HearthCore
import HearthDAV
import HearthStore
import Logging

/// How one account's sync went.
public struct AccountSyncResult: Sendable, Hashable, Codable {
  public var account: String
  public var reports: [SyncReport]
  /// The failure in words, `nil` when every collection synced.
  public var error: String?
}

extension AccountService {
  /// Syncs every account (or the one named), each collection both ways. A failing account does not stop the
  /// others; its error is kept on the account for `hearth accounts status`.
  public func sync(named name: String? = nil) async throws -> [AccountSyncResult] {
    let accounts = try name.map { [try account(named: $0)] } ?? database.accounts()
    return try await gate.run {
      var results: [AccountSyncResult] = []
      for account in accounts { results.append(await sync(account)) }
      return results
    }
  }

  private func sync(_ account: Account) async -> AccountSyncResult {
    var result = AccountSyncResult(account: account.name, reports: [])
    var account = account
    do {
      let password = try passwords.load(for: account.id)
      result.reports = try await withClient(account, password: password) { client in
        try await syncCollections(of: account, client: client)
      }
      account.lastError = nil
    } catch {
      let text = (error as? DAVError).map { AccountError.server(account: account.name, $0).description } ?? "\(error)"
      result.error = text
      account.lastError = text
      logger.warning("account sync failed", metadata: ["account": "\(account.name)", "error": "\(text)"])
    }
    do {
      // Only the outcome: an account removed, or a collection turned off, while this ran stays so.
      try database.saveSyncOutcome(of: account.id, at: clock(), error: account.lastError)
    } catch {
      logger.error("account state not saved", metadata: ["error": "\(error)"])
    }
    return result
  }

  /// The account's collections found again (new ones added, vanished ones dropped), then each enabled one
  /// synced.
  private func syncCollections(of account: Account, client: DAVClient) async throws -> [SyncReport] {
    let service: DAVService = account.service == .caldav ? .caldav : .carddav
    let found = try await client.discover(service)
    var known = try database.syncCollections(of: account.id)
    var taken = try takenNames()
    for remote in found
    where !known.contains(where: { $0.href == remote.href && $0.content == Self.content(remote.content) }) {
      let content = Self.content(remote.content)
      let local = Self.localName(for: remote, account: account.name, taken: taken[content, default: []])
      taken[content, default: []].insert(local)
      let collection = SyncCollection(
        accountID: account.id, href: remote.href, content: Self.content(remote.content),
        displayName: remote.displayName, localName: local,
        isDefault: !known.contains { $0.content == Self.content(remote.content) }, color: remote.color)
      try database.saveSyncCollection(collection)
      known.append(collection)
    }
    var reports: [SyncReport] = []
    let reads = SharedReads()
    for collection in known {
      guard
        let remote = found.first(where: { $0.href == collection.href && Self.content($0.content) == collection.content }
        )
      else {
        // Gone from the server: its links go, its items stay here as local ones.
        try database.removeSyncCollection(id: collection.id)
        continue
      }
      guard collection.isEnabled else { continue }
      var current = collection
      current.displayName = remote.displayName
      var sync = CollectionSync(
        client: client, database: database, account: account, collection: current, timeZone: timeZone, now: clock,
        reads: reads)
      reports.append(try await sync.run())
    }
    return reports
  }
}
