public import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  /// Creates a session.
  @discardableResult
  public func createSession(_ session: ChatSession) throws(StoreError) -> ChatSession {
    try write { db in try SessionRow(session).insert(db) }
    return session
  }

  /// The session with `id`.
  /// - Throws: ``StoreError/sessionNotFound(_:)``.
  public func session(_ id: UUID) throws(StoreError) -> ChatSession {
    guard let row = try read({ db in try SessionRow.fetchOne(db, key: id.uuidString) }) else {
      throw .sessionNotFound(id.uuidString)
    }
    return row.session
  }

  /// Finds a session by its full id or an unambiguous prefix of it (as shown by `sessions list`).
  public func session(matching reference: String) throws(StoreError) -> ChatSession {
    if let id = UUID(uuidString: reference) { return try session(id) }
    let prefix = reference.uppercased()
    guard prefix.count >= 4 else { throw .sessionNotFound(reference) }
    let rows = try read { db in
      try SessionRow.filter(sql: "id LIKE ?", arguments: [prefix + "%"]).limit(2).fetchAll(db)
    }
    guard rows.count == 1 else { throw .sessionNotFound(reference) }
    return rows[0].session
  }

  /// Sessions, pinned first, then most recently updated.
  public func sessions(includeArchived: Bool = false, limit: Int? = nil) throws(StoreError) -> [ChatSession] {
    try read { db in
      var request = SessionRow.order(Column("isPinned").desc, Column("updatedAt").desc)
      if !includeArchived { request = request.filter(Column("isArchived") == false) }
      if let limit { request = request.limit(limit) }
      return try request.fetchAll(db).map(\.session)
    }
  }

  /// Saves changed session fields.
  public func updateSession(_ session: ChatSession) throws(StoreError) {
    let found = try write { db in
      guard try SessionRow.exists(db, key: session.id.uuidString) else { return false }
      try SessionRow(session).update(db)
      return true
    }
    if !found { throw .sessionNotFound(session.id.uuidString) }
  }

  /// Changes a session with `change` and saves it.
  @discardableResult
  public func modifySession(
    _ id: UUID, _ change: @Sendable (inout ChatSession) -> Void
  ) throws(StoreError)
    -> ChatSession
  {
    let result: ChatSession? = try write { db in
      guard var session = try SessionRow.fetchOne(db, key: id.uuidString)?.session else { return nil }
      change(&session)
      try SessionRow(session).update(db)
      return session
    }
    guard let result else { throw .sessionNotFound(id.uuidString) }
    return result
  }

  /// Deletes a session and its messages.
  public func deleteSession(_ id: UUID) throws(StoreError) {
    let deleted = try write { db in try SessionRow.deleteOne(db, key: id.uuidString) }
    if !deleted { throw .sessionNotFound(id.uuidString) }
  }

  /// Number of sessions, archived included.
  public func sessionCount() throws(StoreError) -> Int {
    try read { db in try SessionRow.fetchCount(db) }
  }
}
