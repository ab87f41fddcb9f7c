public import Foundation

/// What a remembered text belongs to.
public enum MemoryCollection: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// The user's notes, kept in step with them.
  case notes
  /// Files the user added (`hearth index add`, uploads).
  case documents
  /// Messages of past chats.
  case conversations
  /// What the user wants the assistant to know about them.
  case persona
  /// The facts the user told Hearth about themselves, kept in step with them.
  case facts
  /// The backstories of the user's personas, each read only in the chats started with its persona.
  case backstories

  public var description: String { rawValue }
}

/// One remembered text as a whole: a file, a note, a chat, the persona.
public struct MemorySource: Sendable, Hashable, Codable, Identifiable {
  /// `file:` + absolute path, `note:` + id, `chat:` + session id, `fact:` + id, `backstory:` + persona id, or
  /// `persona`.
  public var id: String
  public var collection: MemoryCollection
  /// A name for people: the file name, the note's title, the chat's title.
  public var title: String
  /// Where it lives: the file path, the note or session id.
  public var location: String
  /// Hash of the text that was indexed, to tell whether it changed.
  public var contentHash: String
  /// Size of the text in UTF-8 bytes.
  public var byteCount: Int
  /// Chunks it was cut into.
  public var chunkCount: Int
  /// When it was last indexed.
  public var indexedAt: Date

  /// Creates a source description.
  public init(
    id: String, collection: MemoryCollection, title: String, location: String, contentHash: String, byteCount: Int,
    chunkCount: Int = 0, indexedAt: Date = Date()
  ) {
    self.id = id
    self.collection = collection
    self.title = title
    self.location = location
    self.contentHash = contentHash
    self.byteCount = byteCount
    self.chunkCount = chunkCount
    self.indexedAt = indexedAt
  }
}

/// A piece of a source small enough to embed, with where it sits in the source's text.
public struct MemoryChunk: Sendable, Hashable, Codable {
  /// Stable across re-indexing as long as the piece's text and headings are unchanged.
  public var id: String
  public var sourceID: String
  /// Position among the source's chunks.
  public var ordinal: Int
  /// The Markdown headings it sits under, joined with " › "; empty when none.
  public var heading: String
  /// The text itself.
  public var text: String
  /// UTF-8 byte offsets of the text in the source's text (`start..<end`).
  public var start: Int
  public var end: Int
  /// Tokens the embedding model reads for it (heading included).
  public var tokenCount: Int

  /// Creates a chunk.
  public init(
    id: String, sourceID: String, ordinal: Int, heading: String, text: String, start: Int, end: Int, tokenCount: Int
  ) {
    self.id = id
    self.sourceID = sourceID
    self.ordinal = ordinal
    self.heading = heading
    self.text = text
    self.start = start
    self.end = end
    self.tokenCount = tokenCount
  }

  /// What the embedding model reads: the headings give a paragraph its context.
  public var embeddedText: String { heading.isEmpty ? text : "\(heading)\n\(text)" }
}

/// A chunk found for a query, with its source and how it ranked.
public struct MemoryHit: Sendable, Hashable, Codable {
  public var chunk: MemoryChunk
  public var source: MemorySource
  /// The fused score (reciprocal rank fusion); higher is better.
  public var score: Double
  /// Cosine similarity to the query, when the vector search saw the chunk.
  public var similarity: Double?
  /// 1-based rank in the vector search, when it found the chunk.
  public var vectorRank: Int?
  /// 1-based rank in the keyword (BM25) search, when it found the chunk.
  public var keywordRank: Int?

  /// Creates a hit.
  public init(
    chunk: MemoryChunk, source: MemorySource, score: Double, similarity: Double? = nil, vectorRank: Int? = nil,
    keywordRank: Int? = nil
  ) {
    self.chunk = chunk
    self.source = source
    self.score = score
    self.similarity = similarity
    self.vectorRank = vectorRank
    self.keywordRank = keywordRank
  }
}

/// A source an answer drew on, as the answer's numbered citation shows it.
public struct Citation: Sendable, Hashable, Codable {
  /// The number the answer uses (`[1]`).
  public var number: Int
  public var sourceID: String
  public var collection: MemoryCollection
  public var title: String
  public var location: String
  /// The Markdown headings of the cited piece.
  public var heading: String
  /// UTF-8 byte offsets of the piece in the source's text.
  public var start: Int
  public var end: Int
  /// The cited words (the start of the piece, at most ``passageLength`` characters), shown where the citation
  /// is; `nil` in citations kept before they were recorded.
  public var passage: String?

  /// The most characters of a piece a citation keeps to show.
  public static let passageLength = 300

  /// Creates a citation.
  public init(
    number: Int, sourceID: String, collection: MemoryCollection, title: String, location: String, heading: String,
    start: Int, end: Int, passage: String? = nil
  ) {
    self.number = number
    self.sourceID = sourceID
    self.collection = collection
    self.title = title
    self.location = location
    self.heading = heading
    self.start = start
    self.end = end
    self.passage = passage
  }
}

/// A short, stable hash of a text (FNV-1a, 64 bits, hexadecimal): for ids that must not change between runs.
public enum StableHash {
  /// The hash of `text`'s UTF-8 bytes.
  public static func hex(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}

extension MemoryCollection {
  /// What one item of the collection is called.
  public var singular: String {
    switch self {
    case .notes: "note"
    case .documents: "document"
    case .conversations: "past chat"
    case .persona: "about the user"
    case .facts: "fact"
    case .backstories: "persona's backstory"
    }
  }
}

extension Array where Element == Float {
  /// The values as little-endian IEEE 754 single-precision bytes: how a vector is stored, and what an
  /// embeddings API sends as base64.
  public var littleEndianBytes: Data {
    var data = Data(capacity: count * 4)
    for value in self { Swift.withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
  }
}
