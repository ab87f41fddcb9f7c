import Foundation
import GRDB
import HearthCore

/// A `session` row.
struct SessionRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "session"
  var id: String
  var title: String
  var createdAt: Double
  var updatedAt: Double
  var isPinned: Bool
  var isArchived: Bool
  var model: String?
  var droppedMessageCount: Int
  var summary: String?

  init(_ session: ChatSession) {
    id = session.id.uuidString
    title = session.title
    createdAt = session.createdAt.timeIntervalSince1970
    updatedAt = session.updatedAt.timeIntervalSince1970
    isPinned = session.isPinned
    isArchived = session.isArchived
    model = session.model
    droppedMessageCount = session.droppedMessageCount
    summary = session.summary
  }

  var session: ChatSession {
    ChatSession(
      id: UUID(uuidString: id) ?? UUID(), title: title, createdAt: Date(timeIntervalSince1970: createdAt),
      updatedAt: Date(timeIntervalSince1970: updatedAt), isPinned: isPinned, isArchived: isArchived, model: model,
      droppedMessageCount: droppedMessageCount, summary: summary)
  }
}

/// A `message` row.
struct MessageRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "message"
  var id: String
  var sessionID: String
  var position: Int
  var role: String
  var content: String
  var thinking: String
  var state: String
  var stopReason: String?
  var error: String?
  var promptTokens: Int?
  var generatedTokens: Int?
  var timeToFirstTokenMs: Double?
  var generationTokensPerSecond: Double?
  var provider: String?
  var attachments: String
  var createdAt: Double
  var updatedAt: Double

  init(_ message: StoredMessage) {
    id = message.id.uuidString
    sessionID = message.sessionID.uuidString
    position = message.index
    role = message.role.rawValue
    content = message.content
    thinking = message.thinking
    state = message.state.rawValue
    stopReason = message.stopReason?.rawValue
    error = message.error
    promptTokens = message.promptTokens
    generatedTokens = message.generatedTokens
    timeToFirstTokenMs = message.timeToFirstTokenMs
    generationTokensPerSecond = message.generationTokensPerSecond
    provider = message.provider?.rawValue
    attachments =
      message.attachments.isEmpty
      ? "[]" : (try? String(decoding: JSONEncoder().encode(message.attachments), as: UTF8.self)) ?? "[]"
    createdAt = message.createdAt.timeIntervalSince1970
    updatedAt = message.updatedAt.timeIntervalSince1970
  }

  var message: StoredMessage {
    StoredMessage(
      id: UUID(uuidString: id) ?? UUID(), sessionID: UUID(uuidString: sessionID) ?? UUID(), index: position,
      role: ChatMessage.Role(rawValue: role) ?? .user, content: content, thinking: thinking,
      state: MessageState(rawValue: state) ?? .interrupted, stopReason: stopReason.flatMap(StopReason.init(rawValue:)),
      error: error, promptTokens: promptTokens, generatedTokens: generatedTokens,
      timeToFirstTokenMs: timeToFirstTokenMs, generationTokensPerSecond: generationTokensPerSecond,
      provider: provider.flatMap(Provider.init(rawValue:)), attachments: Self.decodeAttachments(attachments),
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }

  /// Most messages have no attachments; skip the JSON decoder for them.
  static func decodeAttachments(_ text: String) -> [Attachment] {
    guard text != "[]" else { return [] }
    return (try? JSONDecoder().decode([Attachment].self, from: Data(text.utf8))) ?? []
  }
}

extension MessageRow {
  /// Reads a message straight from a row selected with ``orderedColumns``, skipping the intermediate row
  /// struct: loading a long session is dominated by this.
  static func message(fromOrderedRow row: Row, sessionID: UUID) -> StoredMessage {
    let id: String = row[0]
    let stopReason: String? = row[7]
    let provider: String? = row[16]
    return StoredMessage(
      id: UUID(storedString: id) ?? UUID(), sessionID: sessionID, index: row[2],
      role: ChatMessage.Role(rawValue: row[3]) ?? .user, content: row[4], thinking: row[5],
      state: MessageState(rawValue: row[6]) ?? .interrupted, stopReason: stopReason.flatMap(StopReason.init(rawValue:)),
      error: row[8], promptTokens: row[9], generatedTokens: row[10], timeToFirstTokenMs: row[11],
      generationTokensPerSecond: row[12], provider: provider.flatMap(Provider.init(rawValue:)),
      attachments: decodeAttachments(row[13]),
      createdAt: Date(timeIntervalSince1970: row[14]), updatedAt: Date(timeIntervalSince1970: row[15]))
  }

  /// The columns in the order `init(orderedRow:)` reads them.
  static let orderedColumns = [
    "id", "sessionID", "position", "role", "content", "thinking", "state", "stopReason", "error", "promptTokens",
    "generatedTokens", "timeToFirstTokenMs", "generationTokensPerSecond", "attachments", "createdAt", "updatedAt",
    "provider",
  ].map { Column($0) }
}
