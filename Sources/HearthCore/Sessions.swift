public import Foundation

/// A conversation the user keeps: its title, flags and, once older turns stop fitting the context, the
/// summary that stands in for them.
public struct ChatSession: Sendable, Hashable, Codable, Identifiable {
  enum CodingKeys: String, CodingKey {
    case id
    case title
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case isPinned = "is_pinned"
    case isArchived = "is_archived"
    case model
    case droppedMessageCount = "dropped_message_count"
    case summary
  }

  public var id: UUID
  public var title: String
  public var createdAt: Date
  public var updatedAt: Date
  public var isPinned: Bool
  public var isArchived: Bool
  /// The model that answered last, by file name.
  public var model: String?
  /// How many leading messages no longer go to the model.
  public var droppedMessageCount: Int
  /// What replaces them in the prompt.
  public var summary: String?

  /// Creates a session.
  public init(
    id: UUID = UUID(), title: String, createdAt: Date = Date(), updatedAt: Date? = nil, isPinned: Bool = false,
    isArchived: Bool = false, model: String? = nil, droppedMessageCount: Int = 0, summary: String? = nil
  ) {
    self.id = id
    self.title = title
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.isPinned = isPinned
    self.isArchived = isArchived
    self.model = model
    self.droppedMessageCount = droppedMessageCount
    self.summary = summary
  }
}

/// Where a message is in its life.
public enum MessageState: String, Sendable, Hashable, Codable, CaseIterable {
  /// Being generated right now.
  case generating
  /// Finished normally (end of generation, token limit or full context).
  case complete
  /// Stopped by the user; the partial text stands.
  case cancelled
  /// Stopped by the time limit; the partial text stands.
  case timedOut = "timed_out"
  /// Generation failed; see the message's error.
  case failed
  /// The process ended while it was being generated.
  case interrupted
}

/// A message as stored: what was said plus how it was produced.
public struct StoredMessage: Sendable, Hashable, Codable, Identifiable {
  enum CodingKeys: String, CodingKey {
    case id
    case sessionID = "session_id"
    case index
    case role
    case content
    case thinking
    case state
    case stopReason = "stop_reason"
    case error
    case promptTokens = "prompt_tokens"
    case generatedTokens = "generated_tokens"
    case timeToFirstTokenMs = "time_to_first_token_ms"
    case generationTokensPerSecond = "generation_tokens_per_second"
    case provider
    case attachments
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  public var id: UUID
  public var sessionID: UUID
  /// Position in the session, from 0.
  public var index: Int
  public var role: ChatMessage.Role
  public var content: String
  /// The model's reasoning, when it thought aloud.
  public var thinking: String
  public var state: MessageState
  public var stopReason: StopReason?
  /// What went wrong, for a failed message.
  public var error: String?
  public var promptTokens: Int?
  public var generatedTokens: Int?
  public var timeToFirstTokenMs: Double?
  public var generationTokensPerSecond: Double?
  /// Which model wrote the answer (assistant messages generated since providers were recorded).
  public var provider: Provider?
  /// Descriptions of attached files (name, type, size), never their content.
  public var attachments: [Attachment]
  public var createdAt: Date
  public var updatedAt: Date

  /// Creates a message.
  public init(
    id: UUID = UUID(), sessionID: UUID, index: Int, role: ChatMessage.Role, content: String, thinking: String = "",
    state: MessageState = .complete, stopReason: StopReason? = nil, error: String? = nil, promptTokens: Int? = nil,
    generatedTokens: Int? = nil, timeToFirstTokenMs: Double? = nil, generationTokensPerSecond: Double? = nil,
    provider: Provider? = nil, attachments: [Attachment] = [], createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.sessionID = sessionID
    self.index = index
    self.role = role
    self.content = content
    self.thinking = thinking
    self.state = state
    self.stopReason = stopReason
    self.error = error
    self.promptTokens = promptTokens
    self.generatedTokens = generatedTokens
    self.timeToFirstTokenMs = timeToFirstTokenMs
    self.generationTokensPerSecond = generationTokensPerSecond
    self.provider = provider
    self.attachments = attachments
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// The message as the model sees it.
  public var chatMessage: ChatMessage { ChatMessage(role: role, content: content) }
}

/// Metadata of a file attached to a message.
public struct Attachment: Sendable, Hashable, Codable {
  enum CodingKeys: String, CodingKey {
    case name
    case mediaType = "media_type"
    case byteCount = "byte_count"
    case id
    case reading
    case characters
  }

  public var name: String
  public var mediaType: String
  public var byteCount: Int
  /// The stored text read from it (``StoredAttachment``); `nil` for an attachment whose text was not kept.
  public var id: UUID?
  /// How its text was read: `text`, `html`, `pdf` or `ocr`.
  public var reading: String?
  /// The characters of text read from it.
  public var characters: Int?

  public init(
    name: String, mediaType: String, byteCount: Int, id: UUID? = nil, reading: String? = nil, characters: Int? = nil
  ) {
    self.name = name
    self.mediaType = mediaType
    self.byteCount = byteCount
    self.id = id
    self.reading = reading
    self.characters = characters
  }
}

/// A file attached to a message, with the text read from it: given to the model as data with the message.
public struct StoredAttachment: Sendable, Hashable, Codable, Identifiable {
  public var id: UUID
  public var sessionID: UUID
  /// The message it went with; `nil` while it waits in the composer.
  public var messageID: UUID?
  public var name: String
  public var mediaType: String
  public var byteCount: Int
  /// How its text was read: `text`, `html`, `pdf` or `ocr`.
  public var reading: String
  public var text: String
  public var createdAt: Date
  /// Why the text was read another way than asked (a vision projector that could not be used); not kept.
  public var fallback: String? = nil

  public init(
    id: UUID = UUID(), sessionID: UUID, messageID: UUID? = nil, name: String, mediaType: String, byteCount: Int,
    reading: String, text: String, createdAt: Date = Date()
  ) {
    self.id = id
    self.sessionID = sessionID
    self.messageID = messageID
    self.name = name
    self.mediaType = mediaType
    self.byteCount = byteCount
    self.reading = reading
    self.text = text
    self.createdAt = createdAt
  }

  /// What the message shows of it.
  public var summary: Attachment {
    Attachment(
      name: name, mediaType: mediaType, byteCount: byteCount, id: id, reading: reading, characters: text.count)
  }
}

/// Which part of the history a search looks at.
public enum SearchScope: String, Sendable, Hashable, Codable, CaseIterable {
  /// Titles and message bodies.
  case all
  /// Session titles only.
  case titles
  /// Message bodies only.
  case bodies
  /// Titles and bodies of pinned sessions.
  case pinned
}

/// One search result: a session, and the best matching message when the match was in a body.
public struct SearchHit: Sendable, Hashable, Codable {
  enum CodingKeys: String, CodingKey {
    case session
    case messageID = "message_id"
    case snippet
    case rank
  }

  public var session: ChatSession
  public var messageID: UUID?
  /// A short excerpt around the match, with the matched words in `[` `]`.
  public var snippet: String
  /// Lower is better (SQLite FTS5 bm25).
  public var rank: Double

  public init(session: ChatSession, messageID: UUID?, snippet: String, rank: Double) {
    self.session = session
    self.messageID = messageID
    self.snippet = snippet
    self.rank = rank
  }
}

/// A session and its messages in a portable form (`hearth sessions export --format json`).
///
/// Format 1 holds the messages; format 2 adds `branches`, the alternatives kept where an answer was
/// regenerated or a message edited. A session without alternatives is written as format 1, which older
/// versions of Hearth read.
public struct SessionExport: Sendable, Hashable, Codable {
  enum CodingKeys: String, CodingKey {
    case format
    case session
    case messages
    case branches
  }

  /// Format version of the export.
  public var format: Int
  public var session: ChatSession
  /// The messages shown, in order.
  public var messages: [StoredMessage]
  /// Every alternative at every fork of the messages shown (nested ones inside their alternative).
  public var branches: [SessionBranch]

  public init(session: ChatSession, messages: [StoredMessage], branches: [SessionBranch] = []) {
    self.format = branches.isEmpty ? 1 : 2
    self.session = session
    self.messages = messages
    self.branches = branches
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(Int.self, forKey: .format)
    session = try container.decode(ChatSession.self, forKey: .session)
    messages = try container.decode([StoredMessage].self, forKey: .messages)
    branches = try container.decodeIfPresent([SessionBranch].self, forKey: .branches) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(session, forKey: .session)
    try container.encode(messages, forKey: .messages)
    if !branches.isEmpty { try container.encode(branches, forKey: .branches) }
  }
}
