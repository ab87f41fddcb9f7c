public import Foundation
import GRDB
public import HearthCore

/// An `account` row: a server account, without its password.
struct AccountRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "account"
  var id: String
  var name: String
  var service: String
  var url: String
  var username: String
  var allowsPlainHTTP: Bool
  var createdAt: Double
  var lastSyncAt: Double?
  var lastError: String?

  init(_ account: Account) {
    id = account.id
    name = account.name
    service = account.service.rawValue
    url = account.url.absoluteString
    username = account.username
    allowsPlainHTTP = account.allowsPlainHTTP
    createdAt = account.createdAt.timeIntervalSince1970
    lastSyncAt = account.lastSyncAt?.timeIntervalSince1970
    lastError = account.lastError
  }

  func account() throws -> Account {
    guard let service = Account.Service(rawValue: service), let url = URL(string: url) else {
      throw StoreError.invalidImport("account \(name) has an unreadable service or URL")
    }
    return Account(
      id: id, name: name, service: service, url: url, username: username, allowsPlainHTTP: allowsPlainHTTP,
      createdAt: Date(timeIntervalSince1970: createdAt), lastSyncAt: lastSyncAt.map(Date.init(timeIntervalSince1970:)),
      lastError: lastError)
  }
}

/// A `syncCollection` row.
struct SyncCollectionRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "syncCollection"
  var id: String
  var accountID: String
  var href: String
  var content: String
  var displayName: String
  var localName: String
  var isEnabled: Bool
  var isDefault: Bool
  var syncToken: String?
  var ctag: String?
  var color: String?
  var checkedAt: Double?
  var tokenMissedChanges: Bool

  init(_ collection: SyncCollection) {
    id = collection.id
    accountID = collection.accountID
    href = collection.href
    content = collection.content.rawValue
    displayName = collection.displayName
    localName = collection.localName
    isEnabled = collection.isEnabled
    isDefault = collection.isDefault
    syncToken = collection.syncToken
    ctag = collection.ctag
    color = collection.color
    checkedAt = collection.checkedAt?.timeIntervalSince1970
    tokenMissedChanges = collection.tokenMissedChanges
  }

  func collection() throws -> SyncCollection {
    guard let content = SyncCollection.Content(rawValue: content) else {
      throw StoreError.invalidImport("collection \(href) holds an unknown kind \(content)")
    }
    return SyncCollection(
      id: id, accountID: accountID, href: href, content: content, displayName: displayName, localName: localName,
      isEnabled: isEnabled, isDefault: isDefault, syncToken: syncToken, ctag: ctag, color: color,
      checkedAt: checkedAt.map(Date.init(timeIntervalSince1970:)), tokenMissedChanges: tokenMissedChanges)
  }
}

/// A `syncedItem` row: one item's link to its server copy.
struct SyncedItemRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "syncedItem"
  var collectionID: String
  var itemKind: String
  var itemID: String
  var href: String
  var etag: String?
  var original: String
  var fingerprint: String

  init(_ link: SyncedItem) {
    collectionID = link.collectionID
    itemKind = link.itemKind.rawValue
    itemID = link.itemID
    href = link.href
    etag = link.etag
    original = link.original
    fingerprint = link.fingerprint
  }

  func link() throws -> SyncedItem {
    guard let kind = ItemKind(rawValue: itemKind) else {
      throw StoreError.invalidImport("synced item \(href) is of an unknown kind \(itemKind)")
    }
    return SyncedItem(
      collectionID: collectionID, itemKind: kind, itemID: itemID, href: href, etag: etag, original: original,
      fingerprint: fingerprint)
  }

  static func createTables(_ db: Database) throws {
    try db.create(table: "account") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull().unique(onConflict: .abort)
      t.column("service", .text).notNull()
      t.column("url", .text).notNull()
      t.column("username", .text).notNull()
      t.column("allowsPlainHTTP", .boolean).notNull()
      t.column("createdAt", .double).notNull()
      t.column("lastSyncAt", .double)
      t.column("lastError", .text)
    }
    try db.create(table: "syncCollection") { t in
      t.primaryKey("id", .text)
      t.column("accountID", .text).notNull().indexed().references("account", onDelete: .cascade)
      t.column("href", .text).notNull()
      t.column("content", .text).notNull()
      t.column("displayName", .text).notNull()
      t.column("localName", .text).notNull()
      t.column("isEnabled", .boolean).notNull()
      t.column("isDefault", .boolean).notNull()
      t.column("syncToken", .text)
      t.column("ctag", .text)
      t.column("color", .text)
      t.uniqueKey(["accountID", "href", "content"])
    }
    try db.create(table: "syncedItem") { t in
      t.column("collectionID", .text).notNull().references("syncCollection", onDelete: .cascade)
      t.column("itemKind", .text).notNull()
      t.column("itemID", .text).notNull()
      t.column("href", .text).notNull()
      t.column("etag", .text)
      t.column("original", .text).notNull()
      t.column("fingerprint", .text).notNull()
      t.primaryKey(["itemKind", "itemID"])
      t.uniqueKey(["collectionID", "href"])
    }
  }
}

/// One step of a sync, written with the item it concerns in one transaction, so that a sync cut at any point
/// leaves every item and its link agreeing.
public enum SyncWrite: Sendable, Hashable {
  /// The item as the server has it now, with its link.
  case pulled(StoredItem, SyncedItem)
  /// The item is gone from the server: removed here with its link.
  case removed(ItemKind, id: String)
  /// A link written or refreshed after a write to the server (the item itself unchanged).
  case linked(SyncedItem)
  /// The link dropped (the item was deleted here and the server's copy is gone too).
  case unlinked(ItemKind, id: String)
  /// A new item with no link yet (the local version kept as a copy when both sides changed a field).
  case kept(StoredItem)
}

extension HearthDatabase {
  /// Every account, by name.
  public func accounts() throws(StoreError) -> [Account] {
    try read { db in try AccountRow.order(Column("name")).fetchAll(db).map { try $0.account() } }
  }

  /// Adds or replaces an account.
  public func saveAccount(_ account: Account) throws(StoreError) {
    try write { db in try AccountRow(account).save(db) }
  }

  /// Removes an account with its collections and links; the items themselves stay in Hearth as local ones.
  public func removeAccount(id: String) throws(StoreError) {
    try write { db in _ = try AccountRow.deleteOne(db, key: id) }
  }

  /// The collections found for an account.
  public func syncCollections(of accountID: String) throws(StoreError) -> [SyncCollection] {
    try read { db in
      try SyncCollectionRow.filter(Column("accountID") == accountID).order(Column("displayName"), Column("content"))
        .fetchAll(db).map { try $0.collection() }
    }
  }

  /// Adds or replaces a collection.
  public func saveSyncCollection(_ collection: SyncCollection) throws(StoreError) {
    try write { db in try SyncCollectionRow(collection).save(db) }
  }

  /// Records how far a collection's sync got, leaving the user's choices (on or off, default) as they are now.
  public func saveSyncToken(_ token: String?, displayName: String, of collectionID: String) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "UPDATE syncCollection SET syncToken = ?, displayName = ? WHERE id = ?",
        arguments: [token, displayName, collectionID])
    }
  }

  /// Records a listing of every member beside the sync token's report: when, and whether it found a change
  /// the token had missed.
  public func saveSyncCheck(at date: Date, tokenMissedChanges: Bool, of collectionID: String) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "UPDATE syncCollection SET checkedAt = ?, tokenMissedChanges = ? WHERE id = ?",
        arguments: [date.timeIntervalSince1970, tokenMissedChanges, collectionID])
    }
  }

  /// Records how the last sync of an account went; an account removed meanwhile stays removed.
  public func saveSyncOutcome(of accountID: String, at date: Date, error: String?) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "UPDATE account SET lastSyncAt = ?, lastError = ? WHERE id = ?",
        arguments: [date.timeIntervalSince1970, error, accountID])
    }
  }

  /// Removes a collection the server no longer offers, with its links.
  public func removeSyncCollection(id: String) throws(StoreError) {
    try write { db in _ = try SyncCollectionRow.deleteOne(db, key: id) }
  }

  /// The links of one collection.
  public func syncedItems(in collectionID: String) throws(StoreError) -> [SyncedItem] {
    try read { db in
      try SyncedItemRow.filter(Column("collectionID") == collectionID).fetchAll(db).map { try $0.link() }
    }
  }

  /// The link of one item, `nil` for an item that is only local.
  public func syncedItem(_ kind: ItemKind, id: String) throws(StoreError) -> SyncedItem? {
    try read { db in
      try SyncedItemRow.filter(Column("itemKind") == kind.rawValue && Column("itemID") == id).fetchOne(db)?.link()
    }
  }

  /// The entity tag of each member linked to a collection, by its href as stored (no bodies read).
  public func syncedEntityTags(in collectionID: String) throws(StoreError) -> [String: String] {
    try read { db in
      var tags: [String: String] = [:]
      let rows = try Row.fetchCursor(
        db, sql: "SELECT href, etag FROM syncedItem WHERE collectionID = ? AND etag IS NOT NULL",
        arguments: [collectionID])
      while let row = try rows.next() { tags[row[0]] = row[1] }
      return tags
    }
  }

  /// The ids of this kind linked to a collection other than `collectionID`.
  public func syncedItemIDs(_ kind: ItemKind, outside collectionID: String) throws(StoreError) -> Set<String> {
    try read { db in
      Set(
        try String.fetchAll(
          db, sql: "SELECT itemID FROM syncedItem WHERE itemKind = ? AND collectionID != ?",
          arguments: [kind.rawValue, collectionID]))
    }
  }

  /// Applies sync steps in one transaction.
  public func commitSync(_ steps: [SyncWrite]) throws(StoreError) {
    try write { db in
      for step in steps { try Self.apply(step, in: db) }
    }
  }

  private static func apply(_ step: SyncWrite, in db: Database) throws {
    switch step {
    case .pulled(let item, let link):
      try upsert(item.row, in: db)
      try SyncedItemRow(link).save(db)
    case .removed(let kind, let id):
      _ = try kind.rowType.deleteOne(db, key: id)
      try unlink(kind, id: id, in: db)
    case .linked(let link):
      try SyncedItemRow(link).save(db)
    case .unlinked(let kind, let id):
      try unlink(kind, id: id, in: db)
    case .kept(let item):
      try upsert(item.row, in: db)
    }
  }

  private static func upsert<Row: ItemRow>(_ row: Row, in db: Database) throws {
    if try Row.exists(db, key: row.id) { try row.update(db) } else { try row.insert(db) }
  }

  private static func unlink(_ kind: ItemKind, id: String, in db: Database) throws {
    try db.execute(
      sql: "DELETE FROM syncedItem WHERE itemKind = ? AND itemID = ?", arguments: [kind.rawValue, id])
  }
}

extension HearthDatabase {
  /// A stamp that changes whenever an event, reminder or contact is added, changed or removed: what tells the
  /// sync service a local change is waiting, without reading the items.
  public func syncedKindsStamp() throws(StoreError) -> String {
    try read { db in
      var parts: [String] = []
      for table in ["calendarEvent", "reminder", "contact"] {
        let row = try Row.fetchOne(db, sql: "SELECT count(*), max(updatedAt), sum(updatedAt) FROM \(table)")
        parts.append("\(row?[0] as Int? ?? 0):\(row?[1] as Double? ?? 0):\(row?[2] as Double? ?? 0)")
      }
      return parts.joined(separator: "|")
    }
  }
}
