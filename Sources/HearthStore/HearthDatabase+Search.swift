import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  /// Full-text search over session titles and message bodies, best matches first, at most one hit per
  /// session. Words are matched whole (with English stemming), all of them required.
  public func search(_ query: String, scope: SearchScope = .all, limit: Int = 20) throws(StoreError) -> [SearchHit] {
    guard let pattern = FTS5Pattern(matchingAllTokensIn: query), limit > 0 else { return [] }
    return try read { db in
      var hits: [SearchHit] = []
      if scope != .bodies {
        hits += try titleHits(db, pattern: pattern, pinnedOnly: scope == .pinned, limit: limit)
      }
      if scope != .titles {
        hits += try bodyHits(db, pattern: pattern, pinnedOnly: scope == .pinned, limit: limit)
      }
      var seen = Set<UUID>()
      return hits.sorted { $0.rank < $1.rank }.filter { seen.insert($0.session.id).inserted }.prefix(limit)
        .map { $0 }
    }
  }

  private func titleHits(_ db: Database, pattern: FTS5Pattern, pinnedOnly: Bool, limit: Int) throws -> [SearchHit] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT session.*, snippet(session_fts, 0, ?, ?, '…', 12) AS excerpt, bm25(session_fts) AS score
        FROM session_fts JOIN session ON session.rowid = session_fts.rowid
        WHERE session_fts MATCH ? \(pinnedOnly ? "AND session.isPinned" : "")
        ORDER BY score LIMIT ?
        """, arguments: [SearchExcerpt.openMark, SearchExcerpt.closeMark, pattern, limit])
    return try rows.map { row in
      SearchHit(
        session: try SessionRow(row: row).session, messageID: nil,
        snippet: SearchExcerpt.marked(row["excerpt"] ?? ""), rank: row["score"])
    }
  }

  private func bodyHits(_ db: Database, pattern: FTS5Pattern, pinnedOnly: Bool, limit: Int) throws -> [SearchHit] {
    // Several messages of one session may match; fetch a few more than needed before keeping one per session.
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT message.id AS messageID, message.sessionID AS sessionID, message.content AS content,
               snippet(message_fts, 0, ?, ?, '…', 12) AS excerpt, bm25(message_fts) AS score
        FROM message_fts JOIN message ON message.rowid = message_fts.rowid
        \(pinnedOnly ? "JOIN session ON session.id = message.sessionID" : "")
        WHERE message_fts MATCH ? \(pinnedOnly ? "AND session.isPinned" : "")
        ORDER BY score LIMIT ?
        """, arguments: [SearchExcerpt.openMark, SearchExcerpt.closeMark, pattern, limit * 4])
    var sessions: [String: ChatSession] = [:]
    return try rows.compactMap { row in
      let sessionID: String = row["sessionID"]
      if sessions[sessionID] == nil {
        sessions[sessionID] = try SessionRow.fetchOne(db, key: sessionID)?.session
      }
      guard let session = sessions[sessionID] else { return nil }
      let messageID: String = row["messageID"]
      // The words around the match as the answer shows them: its action blocks are cards, not text.
      let excerpt = SearchExcerpt.make(
        shown: MarkdownText.plain(ActionBlockFilter.shown(row["content"] ?? "")), snippet: row["excerpt"] ?? "")
      return SearchHit(
        session: session, messageID: UUID(uuidString: messageID), snippet: excerpt, rank: row["score"])
    }
  }
}
