import Foundation
public import HearthCore
import HearthDAV
import HearthStore
import Logging

/// The user's server accounts: added after a test that finds their collections, listed with how their last
/// sync went, synced both ways, removed (the items stay in Hearth as local ones).
public struct AccountService: Sendable {
  let database: HearthDatabase
  let passwords: AccountPasswords
  let timeZone: TimeZone
  let clock: @Sendable () -> Date
  let logger: Logger
  /// One sync at a time in this process: a timer's and the user's would otherwise both create an item.
  let gate = SyncGate()

  init(
    database: HearthDatabase, folder: URL, timeZone: TimeZone, clock: @escaping @Sendable () -> Date,
    logger: Logger
  ) {
    self.database = database
    self.passwords = AccountPasswords(folder: folder)
    self.timeZone = timeZone
    self.clock = clock
    self.logger = logger
  }

  /// An account with the collections found on it.
  public struct Listed: Sendable, Hashable, Codable {
    public var account: Account
    public var collections: [SyncCollection]
  }

  /// Every account with its collections.
  public func list() throws -> [Listed] {
    try database.accounts().map { Listed(account: $0, collections: try database.syncCollections(of: $0.id)) }
  }

  /// The account with this name.
  public func account(named name: String) throws -> Account {
    guard let account = try database.accounts().first(where: { $0.name == name }) else {
      throw AccountError.notFound(name)
    }
    return account
  }

  /// Adds an account once its server answered with at least one collection: the user name and password are
  /// tried first, so a wrong one is refused here, not at the first sync.
  /// - Throws: `AccountError` naming what to fix.
  public func add(
    name: String, service: Account.Service, url text: String, username: String, password: String,
    allowPlainHTTP: Bool = false
  ) async throws -> Listed {
    guard let url = URL(webAddress: text), let host = url.host else { throw AccountError.badURL(text) }
    if url.scheme?.lowercased() == "http", !Self.isLoopback(host), !allowPlainHTTP {
      throw AccountError.plainHTTP(host: host)
    }
    // The password goes in its own file, never in a URL that is stored and shown.
    guard url.user == nil, url.password == nil else { throw AccountError.credentialsInURL }
    guard try database.accounts().allSatisfy({ $0.name != name }) else { throw AccountError.nameTaken(name) }
    let account = Account(
      name: name, service: service, url: url, username: username, allowsPlainHTTP: allowPlainHTTP,
      createdAt: Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down)))
    let found = try await discover(account, password: password)
    try passwords.save(password, for: account.id)
    try database.saveAccount(account)
    var collections: [SyncCollection] = []
    var taken = try takenNames()
    for (index, remote) in found.enumerated() {
      let content = Self.content(remote.content)
      let local = Self.localName(for: remote, account: name, taken: taken[content, default: []])
      taken[content, default: []].insert(local)
      let isFirstOfKind = !found[..<index].contains { $0.content == remote.content }
      let collection = SyncCollection(
        accountID: account.id, href: remote.href, content: Self.content(remote.content),
        displayName: remote.displayName, localName: local, isDefault: isFirstOfKind, color: remote.color)
      try database.saveSyncCollection(collection)
      collections.append(collection)
    }
    logger.info("account added", metadata: ["collections": "\(collections.count)", "service": "\(service)"])
    return Listed(account: account, collections: collections)
  }

  /// Removes an account, its password and its links; its items stay here as local ones.
  public func remove(named name: String) throws -> Account {
    let account = try account(named: name)
    try database.removeAccount(id: account.id)
    passwords.remove(for: account.id)
    return account
  }

  /// Turns a collection's sync on or off, or makes it where new items of its kind go. `reference` is a
  /// collection's id, name or path; a calendar that holds events and to-dos is both of its collections.
  @discardableResult
  public func setCollection(
    account name: String, collection reference: String, enabled: Bool? = nil, isDefault: Bool? = nil
  ) throws -> [SyncCollection] {
    let account = try account(named: name)
    let collections = try database.syncCollections(of: account.id)
    let matches = collections.filter {
      $0.id == reference || $0.displayName == reference || $0.localName == reference
        || DAVPath.normalized($0.href).hasSuffix("/" + reference) || DAVPath.normalized($0.href) == reference
    }
    guard let first = matches.first, matches.allSatisfy({ $0.href == first.href }) else {
      throw AccountError.notFound("\(name)/\(reference)")
    }
    var changed: [SyncCollection] = []
    for var collection in matches {
      if let enabled { collection.isEnabled = enabled }
      if isDefault == true {
        for var other in collections where other.content == collection.content && other.id != collection.id {
          other.isDefault = false
          try database.saveSyncCollection(other)
        }
        collection.isDefault = true
      }
      try database.saveSyncCollection(collection)
      changed.append(collection)
    }
    return changed
  }

  /// The calendar and list names collections have here, by kind (a calendar and a reminder list may share one).
  func takenNames() throws -> [SyncCollection.Content: Set<String>] {
    var taken: [SyncCollection.Content: Set<String>] = [:]
    for account in try database.accounts() {
      for collection in try database.syncCollections(of: account.id) {
        taken[collection.content, default: []].insert(collection.localName)
      }
    }
    return taken
  }

  /// A password given in a file: its first line.
  public static func password(fromFile path: String) throws -> String { try AccountPasswords.read(file: path) }

  static func isLoopback(_ host: String) -> Bool {
    ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
  }

  static func content(_ content: DAVCollection.Content) -> SyncCollection.Content {
    switch content {
    case .events: .events
    case .todos: .todos
    case .contacts: .contacts
    }
  }

  /// The calendar or list name an account's collection gets here: its own, unless another collection has it.
  static func localName(for remote: DAVCollection, account: String, taken: Set<String>) -> String {
    guard remote.content != .contacts else { return "" }
    let base = remote.displayName.isEmpty ? account : remote.displayName
    if !taken.contains(base) { return base }
    let named = "\(base) (\(account))"
    var candidate = named
    var number = 2
    while taken.contains(candidate) {
      candidate = "\(named) \(number)"
      number += 1
    }
    return candidate
  }

  func discover(_ account: Account, password: String) async throws -> [DAVCollection] {
    let service: DAVService = account.service == .caldav ? .caldav : .carddav
    do {
      return try await withClient(account, password: password) { client in
        let found = try await client.discover(service)
        guard !found.isEmpty else { throw DAVError.nothingFound(url: HTTPDAVTransport.hostOnly(account.url)) }
        return found
      }
    } catch let error as DAVError {
      throw AccountError.server(account: account.name, error)
    }
  }

  /// Runs `body` with a client for the account, its connections closed after.
  func withClient<Result: Sendable>(
    _ account: Account, password: String, _ body: (DAVClient) async throws -> Result
  ) async throws -> Result {
    try await HTTPDAVTransport.using(username: account.username, password: password) { transport in
      try await body(DAVClient(base: account.url, transport: transport))
    }
  }
}

/// Lets one sync run at a time; a sync asked for while one runs waits for it and then runs.
actor SyncGate {
  private var running = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func run<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
    while running { await withCheckedContinuation { waiting.append($0) } }
    running = true
    defer {
      running = false
      if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
    return try await body()
  }
}
