public import Foundation
import GRDB
public import HearthCore

enum NoticeSchema {
  static func create(_ db: Database) throws {
    try db.create(table: "notice") { t in
      t.primaryKey("id", .text)
      t.column("kind", .text).notNull()
      t.column("itemID", .text).notNull()
      t.column("title", .text).notNull()
      t.column("detail", .text).notNull()
      t.column("fireAt", .double).notNull()
      t.column("deliveredAt", .double)
      t.column("settledAt", .double)
    }
    try db.create(index: "notice_fireAt", on: "notice", columns: ["fireAt"])
  }
}

private struct NoticeRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "notice"
  var id: String
  var kind: String
  var itemID: String
  var title: String
  var detail: String
  var fireAt: Double
  var deliveredAt: Double?
  var settledAt: Double?

  init(_ notice: Notice) {
    id = notice.id
    kind = notice.kind.rawValue
    itemID = notice.itemID
    title = notice.title
    detail = notice.detail
    fireAt = notice.fireAt.timeIntervalSince1970
    deliveredAt = notice.deliveredAt?.timeIntervalSince1970
    settledAt = notice.settledAt?.timeIntervalSince1970
  }

  var notice: Notice? {
    guard let kind = Notice.Kind(rawValue: kind) else { return nil }
    var notice = Notice(
      kind: kind, itemID: itemID, title: title, detail: detail, fireAt: Date(timeIntervalSince1970: fireAt),
      deliveredAt: deliveredAt.map(Date.init(timeIntervalSince1970:)),
      settledAt: settledAt.map(Date.init(timeIntervalSince1970:)))
    notice.id = id
    return notice
  }
}

extension HearthDatabase {
  /// Adds the notices not recorded yet and returns those it added: one made by two processes at once is
  /// recorded, and so shown, once.
  public func recordNotices(_ notices: [Notice]) throws(StoreError) -> [Notice] {
    try write { db in
      try notices.filter { notice in
        try NoticeRow(notice).insert(db, onConflict: .ignore)
        return db.changesCount > 0
      }
    }
  }

  /// Replaces a notice (its delivery, settling or new time).
  public func saveNotice(_ notice: Notice) throws(StoreError) {
    try write { db in try NoticeRow(notice).save(db) }
  }

  public func notice(_ id: String) throws(StoreError) -> Notice? {
    try read { db in try NoticeRow.fetchOne(db, key: id)?.notice }
  }

  /// Notices not yet settled whose time has come, oldest first.
  public func standingNotices(at now: Date) throws(StoreError) -> [Notice] {
    try read { db in
      try NoticeRow.filter(Column("settledAt") == nil && Column("fireAt") <= now.timeIntervalSince1970)
        .order(Column("fireAt")).fetchAll(db).compactMap(\.notice)
    }
  }

  /// The most recent notices, settled or not, newest first.
  public func recentNotices(limit: Int = 50) throws(StoreError) -> [Notice] {
    try read { db in
      try NoticeRow.order(Column("fireAt").desc).limit(limit).fetchAll(db).compactMap(\.notice)
    }
  }
}
