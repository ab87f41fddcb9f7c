public import Foundation
import GRDB
public import HearthCore

/// Paired devices and the pairing codes waiting for one; secrets and codes are kept only as SHA-256 hashes.
struct DeviceRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "device"
  var id: String
  var name: String
  var secretHash: Data
  var createdAt: Double
  var lastUsedAt: Double?
  /// The device whose code let this one in (`nil`: a code made with the key); revoking it revokes this one too,
  /// so a stolen device cannot keep a way in through a device it paired.
  var pairedBy: String?
  /// `calendars` for an app password (it reaches `/dav/` only); `nil` for a full device.
  var scope: String? = nil

  static func create(_ db: Database) throws {
    try db.create(table: "device") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull()
      t.column("secretHash", .blob).notNull().unique()
      t.column("createdAt", .double).notNull()
      t.column("lastUsedAt", .double)
      t.column("pairedBy", .text).references("device", onDelete: .cascade)
    }
    try db.create(table: "pairingCode") { t in
      t.primaryKey("codeHash", .blob)
      t.column("expiresAt", .double).notNull()
      t.column("createdBy", .text).references("device", onDelete: .cascade)
    }
  }

  var device: PairedDevice? {
    UUID(uuidString: id).map {
      PairedDevice(
        id: $0, name: name, createdAt: Date(timeIntervalSince1970: createdAt),
        lastUsedAt: lastUsedAt.map(Date.init(timeIntervalSince1970:)), isAppPassword: scope == "calendars")
    }
  }
}

/// A pairing code waiting for its device: its hash, when it runs out, and the device that made it.
struct PairingCodeRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "pairingCode"
  var codeHash: Data
  var expiresAt: Double
  var createdBy: String?
}

extension HearthDatabase {
  /// Keeps a new pairing code's hash until `expiresAt`, dropping the codes that have run out; `createdBy` is the
  /// paired device that made it (`nil` for the key's holder).
  public func addPairingCode(hash: Data, expiresAt: Date, now: Date, createdBy: UUID?) throws(StoreError) {
    try write { db in
      try db.execute(sql: "DELETE FROM pairingCode WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
      try PairingCodeRow(codeHash: hash, expiresAt: expiresAt.timeIntervalSince1970, createdBy: createdBy?.uuidString)
        .insert(db)
    }
  }

  /// Uses up the code with this hash, if it has not run out, and adds `device` with its secret's hash, in one
  /// transaction: two devices racing with one code get one device between them. `false` when no such code is
  /// waiting.
  public func redeemPairingCode(
    hash: Data, now: Date, adding device: PairedDevice, secretHash: Data
  )
    throws(StoreError) -> Bool
  {
    try write { db in
      let creator = try String?.fetchOne(
        db, sql: "SELECT createdBy FROM pairingCode WHERE codeHash = ? AND expiresAt > ?",
        arguments: [hash, now.timeIntervalSince1970])
      try db.execute(
        sql: "DELETE FROM pairingCode WHERE codeHash = ? AND expiresAt > ?",
        arguments: [hash, now.timeIntervalSince1970])
      guard db.changesCount == 1 else { return false }
      try DeviceRow(
        id: device.id.uuidString, name: device.name, secretHash: secretHash,
        createdAt: device.createdAt.timeIntervalSince1970, lastUsedAt: device.lastUsedAt?.timeIntervalSince1970,
        pairedBy: creator ?? nil, scope: device.isAppPassword ? "calendars" : nil
      ).insert(db)
      return true
    }
  }

  /// The paired devices, the most recently paired first.
  public func pairedDevices() throws(StoreError) -> [PairedDevice] {
    try read { db in
      try DeviceRow.order(Column("createdAt").desc).fetchAll(db).compactMap(\.device)
    }
  }

  /// The device whose secret has this hash.
  public func pairedDevice(secretHash: Data) throws(StoreError) -> PairedDevice? {
    try read { db in try DeviceRow.filter(Column("secretHash") == secretHash).fetchOne(db)?.device }
  }

  /// Records that the device reached Hearth at `time`.
  public func markDeviceUsed(_ id: UUID, at time: Date) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "UPDATE device SET lastUsedAt = ? WHERE id = ?", arguments: [time.timeIntervalSince1970, id.uuidString])
    }
  }

  /// Renames a device; `false` when there is no such device.
  public func renameDevice(_ id: UUID, to name: String) throws(StoreError) -> Bool {
    try write { db in
      try db.execute(sql: "UPDATE device SET name = ? WHERE id = ?", arguments: [name, id.uuidString])
      return db.changesCount == 1
    }
  }

  /// Forgets a device and its secret; `false` when there is no such device.
  public func removeDevice(_ id: UUID) throws(StoreError) -> Bool {
    try write { db in try DeviceRow.deleteOne(db, key: id.uuidString) }
  }
}

/// A browser's push subscription: its push service's address and the keys its messages are encrypted for.
public struct PushSubscription: Sendable, Hashable, Codable {
  public var endpoint: String
  /// The browser's P-256 public key (65 bytes, uncompressed).
  public var receiverKey: Data
  /// The browser's 16-byte authentication secret.
  public var authSecret: Data
  public var createdAt: Date
  /// When the browser said the subscription ends, if it did.
  public var expiresAt: Date?
  /// The paired device that subscribed (`nil` for a browser with the key); revoking it forgets the subscription.
  public var deviceID: UUID?
  /// The VAPID public key the subscription was made for.
  public var senderKey: String

  public init(
    endpoint: String, receiverKey: Data, authSecret: Data, createdAt: Date, expiresAt: Date? = nil,
    deviceID: UUID? = nil, senderKey: String
  ) {
    (self.endpoint, self.receiverKey, self.authSecret, self.createdAt) = (endpoint, receiverKey, authSecret, createdAt)
    (self.expiresAt, self.deviceID, self.senderKey) = (expiresAt, deviceID, senderKey)
  }
}

struct PushSubscriptionRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "pushSubscription"
  var endpoint: String
  var receiverKey: Data
  var authSecret: Data
  var createdAt: Double
  var expiresAt: Double?
  var deviceID: String?
  var senderKey: String

  /// Where a browser asked to be sent notifications (Web Push): the push service's address for it, the keys its
  /// messages are encrypted with, the paired device it belongs to (revoked with it) and the sender key it was made
  /// for (a subscription for another key, say after a restore elsewhere, is refused by its push service).
  static func create(_ db: Database) throws {
    try db.create(table: "pushSubscription") { t in
      t.primaryKey("endpoint", .text)
      t.column("receiverKey", .blob).notNull()
      t.column("authSecret", .blob).notNull()
      t.column("createdAt", .double).notNull()
      t.column("expiresAt", .double)
      t.column("deviceID", .text).references("device", onDelete: .cascade)
      t.column("senderKey", .text).notNull()
    }
  }
}

extension HearthDatabase {
  /// Keeps a subscription; the same endpoint subscribing again replaces its keys.
  public func savePushSubscription(_ subscription: PushSubscription) throws(StoreError) {
    try write { db in
      try PushSubscriptionRow(
        endpoint: subscription.endpoint, receiverKey: subscription.receiverKey, authSecret: subscription.authSecret,
        createdAt: subscription.createdAt.timeIntervalSince1970,
        expiresAt: subscription.expiresAt?.timeIntervalSince1970, deviceID: subscription.deviceID?.uuidString,
        senderKey: subscription.senderKey
      ).save(db)
    }
  }

  /// Every subscription, the oldest first.
  public func pushSubscriptions() throws(StoreError) -> [PushSubscription] {
    try read { db in
      try PushSubscriptionRow.order(Column("createdAt")).fetchAll(db).map {
        PushSubscription(
          endpoint: $0.endpoint, receiverKey: $0.receiverKey, authSecret: $0.authSecret,
          createdAt: Date(timeIntervalSince1970: $0.createdAt),
          expiresAt: $0.expiresAt.map(Date.init(timeIntervalSince1970:)),
          deviceID: $0.deviceID.flatMap(UUID.init(uuidString:)), senderKey: $0.senderKey)
      }
    }
  }

  /// Forgets a subscription; `false` when there was none at that endpoint.
  public func removePushSubscription(endpoint: String) throws(StoreError) -> Bool {
    try write { db in try PushSubscriptionRow.deleteOne(db, key: endpoint) }
  }
}

/// A profile's pairing state — paired devices with their secrets' hashes, pairing codes and push subscriptions —
/// as read from one copy of it, to give to another.
public struct Pairing: Sendable {
  fileprivate var devices: [DeviceRow]
  fileprivate var codes: [PairingCodeRow]
  fileprivate var subscriptions: [PushSubscriptionRow]

  fileprivate static func read(_ db: Database) throws -> Pairing {
    Pairing(
      devices: try DeviceRow.fetchAll(db),
      codes: try PairingCodeRow.fetchAll(db),
      subscriptions: try PushSubscriptionRow.fetchAll(db))
  }
}

extension HearthDatabase {
  /// This database's pairing state.
  public func pairing() throws(StoreError) -> Pairing {
    try read { db in try Pairing.read(db) }
  }

  /// The pairing state of the database file at `path`, read through a read-only connection so that nothing is
  /// written to the file (a damaged profile is never written to); `nil` when there is no file, or it fails
  /// SQLite's quick check, or it has no pairing tables to read.
  public static func pairing(fileAt path: String) -> Pairing? {
    guard holdsBytes(path) else { return nil }
    do {
      return try readOnly(path) { db in
        guard try String.fetchAll(db, sql: "PRAGMA quick_check") == ["ok"] else { return nil }
        return try Pairing.read(db)
      }
    } catch {
      return nil
    }
  }

  /// Makes this database's pairing state a copy of `pairing`, in one transaction, and returns the names of the
  /// devices this database held that `pairing` does not.
  ///
  /// Pairing is the server's, not the user's data: a restore over a profile keeps that profile's devices, so a
  /// device revoked after the backup was made stays revoked, and one paired since keeps working.
  public func adoptPairing(_ pairing: Pairing) throws(StoreError) -> [String] {
    let kept = Set(pairing.devices.map(\.id))
    return try write { db in
      let dropped = try DeviceRow.fetchAll(db).filter { !kept.contains($0.id) }.map(\.name)
      // A device may name the device that paired it: the references are checked at the commit, once all are in.
      try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
      try db.execute(sql: "DELETE FROM pushSubscription")
      try db.execute(sql: "DELETE FROM pairingCode")
      try db.execute(sql: "DELETE FROM device")
      for device in pairing.devices { try device.insert(db) }
      for code in pairing.codes { try code.insert(db) }
      for subscription in pairing.subscriptions { try subscription.insert(db) }
      return dropped.sorted()
    }
  }
}
