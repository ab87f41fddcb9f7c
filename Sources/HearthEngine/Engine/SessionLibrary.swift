public import Foundation
public import HearthCore
public import HearthStore

/// The saved conversations of a profile: listing, search, editing, export and import. Every surface reads
/// and changes sessions through this, so what one does the others see the same way.
public struct SessionLibrary: Sendable {
  let database: HearthDatabase
  /// Where the local model keeps chats' evaluated state; a deleted chat's goes with it.
  var conversationStates: URL?

  /// Sessions, pinned first, most recently updated first.
  public func list(includeArchived: Bool = false, limit: Int? = nil) throws(StoreError) -> [ChatSession] {
    try database.sessions(includeArchived: includeArchived, limit: limit)
  }

  /// The session with this id.
  public func session(_ id: UUID) throws(StoreError) -> ChatSession {
    try database.session(id)
  }

  /// The session named by a full id or a unique prefix of one.
  public func session(matching reference: String) throws(StoreError) -> ChatSession {
    try database.session(matching: reference)
  }

  /// A session's messages, oldest first.
  public func messages(in id: UUID) throws(StoreError) -> [StoredMessage] {
    try database.messages(in: id)
  }

  /// Where a session went more than one way (regenerated answers, edited messages), and which way is shown.
  public func forks(in id: UUID) throws(StoreError) -> [MessageFork] {
    try database.forks(in: id)
  }

  /// Full-text search over titles and messages.
  public func search(_ query: String, scope: SearchScope = .all, limit: Int = 20) throws(StoreError) -> [SearchHit] {
    try database.search(query, scope: scope, limit: limit)
  }

  /// Changes a session and saves it.
  @discardableResult
  public func modify(
    _ id: UUID, _ change: @escaping @Sendable (inout ChatSession) -> Void
  ) throws(StoreError) -> ChatSession {
    try database.modifySession(id, change)
  }

  /// Deletes a session, its messages and the model's saved state of it.
  public func delete(_ id: UUID) throws(StoreError) {
    try database.deleteSession(id)
    if let conversationStates { ConversationStateKey.removeFiles(of: id.uuidString, in: conversationStates) }
  }

  /// Deletes one message (taking a turn back), and the model's saved state of its chat, which holds it.
  public func deleteMessage(_ id: UUID) throws(StoreError) {
    let session = try database.session(ofMessage: id)
    try database.deleteMessage(id)
    if let conversationStates, let session {
      ConversationStateKey.removeFiles(of: session.uuidString, in: conversationStates)
    }
  }

  /// A session with all its messages, ready to be written out.
  public func export(_ id: UUID) throws(StoreError) -> SessionExport {
    try database.export(id)
  }

  /// The export as people read it (Markdown, the terminal): each answer's action blocks told as what became of
  /// them ("Done: Reminder “Buy stamps”"), never the raw block. The JSON export keeps the answers as written.
  /// Every chat, archived ones too, oldest first: as they are stored (`json`) or as they read.
  public func exportAll(narrated: Bool) throws(StoreError) -> [SessionExport] {
    var exports: [SessionExport] = []
    for session in try list(includeArchived: true).sorted(by: { $0.createdAt < $1.createdAt }) {
      let export = try export(session.id)
      exports.append(narrated ? try self.narrated(export) : export)
    }
    return exports
  }

  public func narrated(_ export: SessionExport) throws(StoreError) -> SessionExport {
    let records = try database.actions(session: export.session.id, limit: 10_000)
    var narrated = export
    narrated.messages = export.messages.map { message in
      guard message.role == .assistant else { return message }
      var told = message
      told.content = ActionNarration.narrate(message.content, records: records.filter { $0.messageID == message.id })
      return told
    }
    return narrated
  }

  /// Saves an exported session as a new one.
  public func importSession(_ export: SessionExport) throws(StoreError) -> ChatSession {
    try database.importSession(export)
  }

  /// Deletes old sessions by `policy` (pinned and archived ones are kept); returns how many went.
  @discardableResult
  public func prune(_ policy: HistoryPolicy) throws(StoreError) -> Int {
    try database.prune(policy)
  }

  /// How many sessions and messages the profile holds.
  public func counts() throws(StoreError) -> (sessions: Int, messages: Int) {
    (try database.sessionCount(), try database.messageCount())
  }
}
