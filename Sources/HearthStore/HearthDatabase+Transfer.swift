public import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  /// A session, all its messages and the alternatives kept at its forks.
  public func export(_ sessionID: UUID) throws(StoreError) -> SessionExport {
    let path = path
    return try read { db in
      guard let session = try SessionRow.fetchOne(db, key: sessionID.uuidString)?.session else {
        throw StoreError.sessionNotFound(sessionID.uuidString)
      }
      let messages = try MessageRow.filter(Column("sessionID") == sessionID.uuidString).order(Column("position"))
        .fetchAll(db).map(\.message)
      return SessionExport(
        session: session, messages: messages,
        branches: try BranchRows.fetch(db, sessionID: sessionID, after: -1, path: path))
    }
  }

  /// Whether the session was read from a file rather than written here.
  public func isImported(_ sessionID: UUID) throws(StoreError) -> Bool {
    try read { db in
      try Int.fetchOne(
        db, sql: "SELECT 1 FROM importedSession WHERE sessionID = ?", arguments: [sessionID.uuidString]) != nil
    }
  }

  /// Imports an export in one transaction: either all of it is stored or nothing. When a session with the
  /// same id exists, the import gets fresh ids so that nothing is overwritten. The session is marked imported.
  @discardableResult
  public func importSession(_ export: SessionExport) throws(StoreError) -> ChatSession {
    guard export.format == 1 || export.format == 2 else {
      throw .invalidImport("unknown export format \(export.format)")
    }
    if export.format == 1, !export.branches.isEmpty {
      throw .invalidImport("branches need export format 2")
    }
    let ordered = export.messages.sorted { $0.index < $1.index }
    guard ordered.map(\.index) == Array(0..<ordered.count) else {
      throw .invalidImport("message positions must run from 0 without gaps")
    }
    guard ordered.allSatisfy({ $0.sessionID == export.session.id }) else {
      throw .invalidImport("a message belongs to another session")
    }
    var ids = Set(ordered.map(\.id))
    guard ids.count == ordered.count else { throw .invalidImport("duplicate message ids") }
    if let problem = BranchCheck.problem(
      in: export.branches, after: -1, shownEnd: ordered.count, sessionID: export.session.id, ids: &ids)
    {
      throw .invalidImport(problem)
    }
    let allIDs = ids
    return try write { db in
      var session = export.session
      var messages = ordered
      var branches = export.branches
      let clash =
        try SessionRow.exists(db, key: session.id.uuidString)
        || MessageRow.filter(keys: allIDs.map(\.uuidString)).fetchCount(db) > 0
      if clash {
        session.id = UUID()
        var renamed: [UUID: UUID] = [:]
        messages = messages.map { BranchCheck.renamed($0, session: session.id, ids: &renamed) }
        branches = branches.map { BranchCheck.renamed($0, session: session.id, ids: &renamed) }
      }
      try SessionRow(session).insert(db)
      try db.execute(sql: "INSERT INTO importedSession (sessionID) VALUES (?)", arguments: [session.id.uuidString])
      for message in messages { try MessageRow(message).insert(db) }
      for branch in branches { try BranchRows.insert(db, sessionID: session.id, branch) }
      return session
    }
  }
}

/// Checks and renames the alternatives of an imported session.
enum BranchCheck {
  /// What is wrong with `branches` (the forks after position `after`, in a path whose messages end before
  /// `shownEnd`), or `nil`; every message id seen is added to `ids`, which must stay unique.
  static func problem(
    in branches: [SessionBranch], after start: Int, shownEnd: Int, sessionID: UUID, ids: inout Set<UUID>
  ) -> String? {
    for (position, group) in Dictionary(grouping: branches, by: \.position).sorted(by: { $0.key < $1.key }) {
      guard position > start, position < shownEnd else {
        return "a fork at position \(position) is outside the messages it belongs to"
      }
      guard group.count > 1 else { return "the fork at position \(position) has only one alternative" }
      guard Set(group.map(\.ordinal)).count == group.count else {
        return "the fork at position \(position) has two alternatives with one number"
      }
      guard group.filter({ $0.tail == nil }).count == 1 else {
        return "the fork at position \(position) must show exactly one alternative"
      }
      for tail in group.compactMap(\.tail) {
        guard !tail.messages.isEmpty,
          tail.messages.map(\.index) == Array(position..<position + tail.messages.count)
        else { return "an alternative at position \(position) must hold its messages in order from there" }
        guard tail.messages.allSatisfy({ $0.sessionID == sessionID }) else {
          return "a message of an alternative belongs to another session"
        }
        for message in tail.messages where !ids.insert(message.id).inserted {
          return "duplicate message ids"
        }
        guard Set(tail.citations.keys).isSubset(of: Set(tail.messages.map(\.id))) else {
          return "an alternative cites sources for a message it does not hold"
        }
        if let problem = Self.problem(
          in: tail.branches, after: position, shownEnd: position + tail.messages.count, sessionID: sessionID,
          ids: &ids)
        {
          return problem
        }
      }
    }
    return nil
  }

  static func renamed(_ message: StoredMessage, session: UUID, ids: inout [UUID: UUID]) -> StoredMessage {
    var copy = message
    copy.sessionID = session
    copy.id = ids[message.id] ?? UUID()
    ids[message.id] = copy.id
    return copy
  }

  static func renamed(_ branch: SessionBranch, session: UUID, ids: inout [UUID: UUID]) -> SessionBranch {
    var copy = branch
    guard var tail = branch.tail else { return copy }
    tail.messages = tail.messages.map { renamed($0, session: session, ids: &ids) }
    var citations: [UUID: [Citation]] = [:]
    for (id, cited) in tail.citations { citations[ids[id] ?? id] = cited }
    tail.citations = citations
    tail.branches = tail.branches.map { renamed($0, session: session, ids: &ids) }
    copy.tail = tail
    return copy
  }
}
