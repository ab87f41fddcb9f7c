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

  static func create(_ db: Database) throws {
    try db.create(table: "device") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull()
      t.column("secretHash", .blob).notNull().unique()
      t.column("createdAt", .double).notNull()
      t.column("lastUsedAt", .double)
    }
    try db.create(table: "pairingCode") { t in
      t.primaryKey("codeHash", .blob)
      t.column("expiresAt", .double).notNull()
    }
  }

  var device: PairedDevice? {
    UUID(uuidString: id).map {
      PairedDevice(
        id: $0, name: name, createdAt: Date(timeIntervalSince1970: createdAt),
        lastUsedAt: lastUsedAt.map(Date.init(timeIntervalSince1970:)))
    }
  }
}

extension HearthDatabase {
  /// Keeps a new pairing code's hash until `expiresAt`, dropping the codes that have run out.
  public func addPairingCode(hash: Data, expiresAt: Date, now: Date) throws(StoreError) {
    try write { db in
      try db.execute(sql: "DELETE FROM pairingCode WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
      try db.execute(
        sql: "INSERT INTO pairingCode (codeHash, expiresAt) VALUES (?, ?)",
        arguments: [hash, expiresAt.timeIntervalSince1970])
    }
  }

  /// Uses up the code with this hash, if it has not run out, and adds `device` with its secret's hash, in one
  /// transaction: two devices racing with one code get one device between them. `false` when no such code is
  /// waiting.
  public func redeemPairingCode(hash: Data, now: Date, adding device: PairedDevice, secretHash: Data)
    throws(StoreError) -> Bool
  {
    try write { db in
      try db.execute(
        sql: "DELETE FROM pairingCode WHERE codeHash = ? AND expiresAt > ?",
        arguments: [hash, now.timeIntervalSince1970])
      guard db.changesCount == 1 else { return false }
      try DeviceRow(
        id: device.id.uuidString, name: device.name, secretHash: secretHash,
        createdAt: device.createdAt.timeIntervalSince1970, lastUsedAt: device.lastUsedAt?.timeIntervalSince1970
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
