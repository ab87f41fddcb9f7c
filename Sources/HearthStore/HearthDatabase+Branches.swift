public import Foundation
import GRDB
public import HearthCore

/// Alternatives: a regenerated answer or an edited message puts the messages from that point on aside, and the
/// user can bring any alternative back. The `message` table always holds the path shown, so the prompt, search
/// and memory see one conversation; the others wait in `messageBranch` with their sources and their own forks.
extension HearthDatabase {
  /// Every alternative at every fork of the messages shown, nested ones inside the alternative they belong to.
  public func branches(in sessionID: UUID) throws(StoreError) -> [SessionBranch] {
    let path = path
    return try read { db in try BranchRows.fetch(db, sessionID: sessionID, after: -1, path: path) }
  }

  /// The forks of the messages shown, in order.
  public func forks(in sessionID: UUID) throws(StoreError) -> [MessageFork] {
    try branches(in: sessionID).forks
  }

  /// Puts the messages from `position` on aside as an alternative and appends `replacement` in their place, in
  /// one transaction; returns the replacement as stored (positions from `position` on).
  /// - Throws: ``StoreError/sessionNotFound(_:)``, or ``StoreError/messageNotFound(_:)`` when the session has no
  ///   message at `position`.
  @discardableResult
  public func branch(
    _ sessionID: UUID, at position: Int, replacingWith replacement: [StoredMessage]
  ) throws(StoreError) -> [StoredMessage] {
    let path = path
    return try write { db in
      guard try SessionRow.exists(db, key: sessionID.uuidString) else {
        throw StoreError.sessionNotFound(sessionID.uuidString)
      }
      guard
        try MessageRow.filter(Column("sessionID") == sessionID.uuidString && Column("position") == position)
          .fetchCount(db) == 1
      else { throw StoreError.messageNotFound("at position \(position) of session \(sessionID.uuidString)") }
      let tail = try BranchRows.setAside(db, sessionID: sessionID, from: position, path: path)
      let existing = try BranchRows.ordinals(db, sessionID: sessionID, at: position)
      if existing.isEmpty {
        try BranchRows.insert(db, sessionID: sessionID, SessionBranch(position: position, ordinal: 0, tail: tail))
      } else {
        try BranchRows.keep(tail, db, sessionID: sessionID, at: position)
      }
      let ordinal = (try BranchRows.ordinals(db, sessionID: sessionID, at: position).max() ?? 0) + 1
      try BranchRows.insert(db, sessionID: sessionID, SessionBranch(position: position, ordinal: ordinal, tail: nil))
      var stored: [StoredMessage] = []
      for (offset, message) in replacement.enumerated() {
        var copy = message
        copy.sessionID = sessionID
        copy.index = position + offset
        try MessageRow(copy).insert(db)
        stored.append(copy)
      }
      try BranchRows.forgetSummary(
        db, sessionID: sessionID, ifBefore: position, touching: replacement.map(\.updatedAt).max())
      return stored
    }
  }

  /// Shows alternative `index` (from 0, in the order they were made) of the fork at `position`, putting the
  /// one shown aside; returns the messages shown afterwards.
  /// - Throws: ``StoreError/messageNotFound(_:)`` when there is no such fork or alternative.
  @discardableResult
  public func showAlternative(
    _ index: Int, at position: Int, in sessionID: UUID
  ) throws(StoreError) -> [StoredMessage] {
    let path = path
    try write { db in
      let ordinals = try BranchRows.ordinals(db, sessionID: sessionID, at: position)
      guard ordinals.count > 1 else {
        throw StoreError.messageNotFound("no alternatives at position \(position) of session \(sessionID.uuidString)")
      }
      guard ordinals.indices.contains(index) else {
        throw StoreError.messageNotFound("alternative \(index + 1) of \(ordinals.count) at position \(position)")
      }
      let chosen = ordinals[index]
      guard let tail = try BranchRows.tail(db, sessionID: sessionID, at: position, ordinal: chosen, path: path)
      else { return }  // Already shown.
      try BranchRows.keep(
        try BranchRows.setAside(db, sessionID: sessionID, from: position, path: path), db, sessionID: sessionID,
        at: position)
      try BranchRows.restore(tail, db, sessionID: sessionID)
      try db.execute(
        sql: "UPDATE messageBranch SET tail = NULL WHERE sessionID = ? AND position = ? AND ordinal = ?",
        arguments: [sessionID.uuidString, position, chosen])
      try BranchRows.forgetSummary(db, sessionID: sessionID, ifBefore: position, touching: nil)
    }
    return try messages(in: sessionID)
  }
}

/// The `messageBranch` rows: one per alternative at a fork, `tail` NULL for the one shown.
enum BranchRows {
  static func create(_ db: Database) throws {
    try db.create(table: "messageBranch") { t in
      t.column("sessionID", .text).notNull().references("session", onDelete: .cascade)
      t.column("position", .integer).notNull()
      t.column("ordinal", .integer).notNull()
      t.column("tail", .text)
      t.primaryKey(["sessionID", "position", "ordinal"])
    }
  }

  /// The branches at positions after `position`, tails decoded.
  static func fetch(_ db: Database, sessionID: UUID, after position: Int, path: String) throws -> [SessionBranch] {
    try Row.fetchAll(
      db,
      sql:
        "SELECT position, ordinal, tail FROM messageBranch WHERE sessionID = ? AND position > ? ORDER BY position, ordinal",
      arguments: [sessionID.uuidString, position]
    ).map { row in
      let tail: String? = row["tail"]
      return SessionBranch(
        position: row["position"], ordinal: row["ordinal"], tail: try tail.map { try decode($0, path: path) })
    }
  }

  static func ordinals(_ db: Database, sessionID: UUID, at position: Int) throws -> [Int] {
    try Int.fetchAll(
      db, sql: "SELECT ordinal FROM messageBranch WHERE sessionID = ? AND position = ? ORDER BY ordinal",
      arguments: [sessionID.uuidString, position])
  }

  /// The kept tail of one alternative; `nil` for the one shown.
  static func tail(_ db: Database, sessionID: UUID, at position: Int, ordinal: Int, path: String) throws -> BranchTail?
  {
    let text = try String.fetchOne(
      db, sql: "SELECT tail FROM messageBranch WHERE sessionID = ? AND position = ? AND ordinal = ?",
      arguments: [sessionID.uuidString, position, ordinal])
    return try text.flatMap { try decode($0, path: path) }
  }

  static func insert(_ db: Database, sessionID: UUID, _ branch: SessionBranch) throws {
    try db.execute(
      sql: "INSERT INTO messageBranch (sessionID, position, ordinal, tail) VALUES (?, ?, ?, ?)",
      arguments: [sessionID.uuidString, branch.position, branch.ordinal, branch.tail.map(JSONColumn.encode)])
  }

  /// Stores `tail` as the alternative that was shown at `position` (as a new one, should the fork have lost
  /// track of which that was: messages are never dropped).
  static func keep(_ tail: BranchTail, _ db: Database, sessionID: UUID, at position: Int) throws {
    try db.execute(
      sql: "UPDATE messageBranch SET tail = ? WHERE sessionID = ? AND position = ? AND tail IS NULL",
      arguments: [JSONColumn.encode(tail), sessionID.uuidString, position])
    guard db.changesCount == 0 else { return }
    let next = (try ordinals(db, sessionID: sessionID, at: position).max() ?? -1) + 1
    try insert(db, sessionID: sessionID, SessionBranch(position: position, ordinal: next, tail: tail))
  }

  /// Takes the messages from `position` on out of the chat, with their sources and the forks below them.
  static func setAside(_ db: Database, sessionID: UUID, from position: Int, path: String) throws -> BranchTail {
    let messages = try MessageRow.filter(Column("sessionID") == sessionID.uuidString && Column("position") >= position)
      .order(Column("position")).fetchAll(db).map(\.message)
    let citations = try CitationRows.fetch(messages.map(\.id), db)
    let branches = try fetch(db, sessionID: sessionID, after: position, path: path)
    try db.execute(
      sql: "DELETE FROM messageBranch WHERE sessionID = ? AND position > ?",
      arguments: [sessionID.uuidString, position])
    // Their sources go with them (the citations table follows the messages).
    try MessageRow.filter(Column("sessionID") == sessionID.uuidString && Column("position") >= position).deleteAll(db)
    return BranchTail(messages: messages, citations: citations, branches: branches)
  }

  /// Puts a kept alternative's messages, sources and forks back into the chat.
  static func restore(_ tail: BranchTail, _ db: Database, sessionID: UUID) throws {
    for message in tail.messages { try MessageRow(message).insert(db) }
    for (id, cited) in tail.citations { try CitationRows.store(cited, for: id, db) }
    for branch in tail.branches { try insert(db, sessionID: sessionID, branch) }
  }

  /// A version left with no messages (a regenerated answer that never got a word before the process ended, and
  /// was removed) gives its place back to the version made before it, so the chat never ends at an empty fork.
  static func healEmptyVersions(_ db: Database, path: String) throws {
    let empty = try Row.fetchAll(
      db,
      sql: """
        SELECT b.sessionID, b.position FROM messageBranch b WHERE b.tail IS NULL AND NOT EXISTS (
          SELECT 1 FROM message m WHERE m.sessionID = b.sessionID AND m.position = b.position)
        """)
    for row in empty {
      let (sessionText, position): (String, Int) = (row["sessionID"], row["position"])
      guard let sessionID = UUID(uuidString: sessionText) else { continue }
      try db.execute(
        sql: "DELETE FROM messageBranch WHERE sessionID = ? AND position = ? AND tail IS NULL",
        arguments: [sessionText, position])
      let ordinals = try ordinals(db, sessionID: sessionID, at: position)
      guard let latest = ordinals.last,
        let tail = try tail(db, sessionID: sessionID, at: position, ordinal: latest, path: path)
      else { continue }
      // Whatever follows the fork belongs to the empty version: nothing does, since it had no first message.
      try restore(tail, db, sessionID: sessionID)
      if ordinals.count == 1 {
        try db.execute(
          sql: "DELETE FROM messageBranch WHERE sessionID = ? AND position = ?", arguments: [sessionText, position])
      } else {
        try db.execute(
          sql: "UPDATE messageBranch SET tail = NULL WHERE sessionID = ? AND position = ? AND ordinal = ?",
          arguments: [sessionText, position, latest])
      }
    }
  }

  /// A summary that stands in for messages that just changed no longer holds: the next turn writes a new one.
  static func forgetSummary(_ db: Database, sessionID: UUID, ifBefore position: Int, touching date: Date?) throws {
    guard var session = try SessionRow.fetchOne(db, key: sessionID.uuidString) else { return }
    if session.droppedMessageCount > position {
      session.droppedMessageCount = 0
      session.summary = nil
    }
    if let date { session.updatedAt = max(session.updatedAt, date.timeIntervalSince1970) }
    try session.update(db)
  }

  private static func decode(_ text: String, path: String) throws -> BranchTail {
    do {
      return try JSONColumn.decode(BranchTail.self, text)
    } catch {
      throw StoreError.corrupt(path: path, detail: "a kept alternative of a chat cannot be read: \(error)")
    }
  }
}
