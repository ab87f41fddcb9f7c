import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The Accounts page: CalDAV and CardDAV accounts added (after their password was tried), listed with their
/// collections and how the last sync went, synced now, a collection turned on or off or made the default,
/// removed. Passwords go in and never come out.
struct AccountRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var accounts: AccountService { dependencies.engine.accounts }

  var paths: [RouterPath] { ["/api/accounts"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(AccountList(accounts: try views())) }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        AccountInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let service = Account.Service(rawValue: input.service ?? "") else {
        throw APIError.invalidRequest("service must be caldav or carddav", parameter: "service")
      }
      guard let url = input.url, let username = input.username, let password = input.password, !password.isEmpty
      else { throw APIError.invalidRequest("url, username and password are required", parameter: "password") }
      let added = try await accounts.add(
        name: input.name ?? URL(string: url)?.host ?? url, service: service, url: url, username: username,
        password: password, allowPlainHTTP: input.allowPlainHTTP ?? false)
      return try AppJSON.make(try view(added), status: .created)
    }
    router.post("sync") { _, _ in
      try AppJSON.make(SyncResults(results: try await accounts.sync()))
    }
    router.post(":name/sync") { _, context in
      try AppJSON.make(
        SyncResults(results: try await accounts.sync(named: try context.parameters.require("name"))))
    }
    router.patch(":name/collections/:id") { request, context in
      let input = try await RequestReader.decodeStrict(
        CollectionInput.self, from: request, limit: configuration.maxBodyBytes)
      if input.isDefault == false {
        throw APIError.invalidRequest(
          "is_default: make another collection the default instead", parameter: "is_default")
      }
      let changed = try accounts.setCollection(
        account: try context.parameters.require("name"), collection: try context.parameters.require("id"),
        enabled: input.isEnabled, isDefault: input.isDefault)
      guard let one = changed.first, changed.count == 1 else {
        throw APIError.invalidRequest("name one collection by its id", parameter: "id")
      }
      return try AppJSON.make(one)
    }
    router.delete(":name") { _, context in
      let removed = try accounts.remove(named: try context.parameters.require("name"))
      return try AppJSON.make(removed)
    }
  }

  private func views() throws -> [AccountView] {
    let next = try accounts.nextSync()
    return try accounts.list().map { try view($0, next: next) }
  }

  private func view(_ listed: AccountService.Listed, next: NextSync? = nil) throws -> AccountView {
    let next = try next ?? accounts.nextSync()
    return AccountView(
      account: listed.account, collections: listed.collections,
      waiting: try accounts.waitingChanges(of: listed.account), nextSyncAt: next.date, syncing: next == .running)
  }
}

struct AccountView: Encodable {
  var account: Account
  var collections: [SyncCollection]
  /// Local changes waiting for the next sync.
  var waiting: Int
  /// When `hearth serve` syncs next; `null` while it syncs (`syncing`) or when nothing is scheduled.
  var nextSyncAt: Date?
  var syncing: Bool
}

struct AccountList: Encodable {
  var accounts: [AccountView]
}

struct SyncResults: Encodable {
  var results: [AccountSyncResult]
}

/// A new account. `name` defaults to the server's host.
struct AccountInput: StrictInput {
  var service: String?
  var url: String?
  var username: String?
  var password: String?
  var name: String?
  var allowPlainHTTP: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case service, url, username, password, name, allowPlainHTTP = "allow_plain_http"
  }
}

/// A collection's sync turned on or off, or made where new items of its kind go.
struct CollectionInput: StrictInput {
  var isEnabled: Bool?
  var isDefault: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable { case isEnabled = "is_enabled", isDefault = "is_default" }
}
