import Foundation
import GRDB
public import HearthCore

/// A chunk ready to store, with the vector the embedding model gave it.
public struct EmbeddedChunk: Sendable {
  public var chunk: MemoryChunk
  public var vector: [Float]

  /// Pairs a chunk with its vector.
  public init(chunk: MemoryChunk, vector: [Float]) {
    self.chunk = chunk
    self.vector = vector
  }
}

/// Every stored vector in one contiguous block, in row order, for a search held in memory.
public struct StoredVectors: Sendable {
  /// Row ids, one per vector.
  public var rowIDs: [Int64]
  /// Collections, one per vector.
  public var collections: [MemoryCollection]
  /// `rowIDs.count × dimension` floats.
  public var values: [Float]
  /// Chunks whose stored vector is not of the index's size (a damaged row): left out of `rowIDs`, to be
  /// embedded again from their text.
  public var misfits: [Int64] = []
}

/// Which embedding model made the stored vectors.
public struct MemoryIndexIdentity: Sendable, Hashable, Codable {
  /// The model's name (its file name).
  public var model: String
  public var dimension: Int

  /// Creates an identity.
  public init(model: String, dimension: Int) {
    self.model = model
    self.dimension = dimension
  }
}

extension HearthDatabase {
  /// Which model the memory's vectors came from, or `nil` while the memory is empty of them.
  public func memoryIndexIdentity() throws(StoreError) -> MemoryIndexIdentity? {
    try read { db in
      guard let text = try String.fetchOne(db, sql: "SELECT value FROM memoryIndex WHERE key = 'identity'") else {
        return nil
      }
      return try JSONColumn.decode(MemoryIndexIdentity.self, text)
    }
  }

  /// Records which model the memory's vectors come from.
  public func setMemoryIndexIdentity(_ identity: MemoryIndexIdentity) throws(StoreError) {
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO memoryIndex (key, value) VALUES ('identity', ?)",
        arguments: [JSONColumn.encode(identity)])
    }
  }

  /// The indexed sources, newest first, optionally of one collection.
  public func memorySources(in collection: MemoryCollection? = nil) throws(StoreError) -> [MemorySource] {
    try read { db in
      let rows =
        if let collection {
          try Row.fetchAll(
            db, sql: "SELECT * FROM memorySource WHERE collection = ? ORDER BY indexedAt DESC",
            arguments: [collection.rawValue])
        } else {
          try Row.fetchAll(db, sql: "SELECT * FROM memorySource ORDER BY indexedAt DESC")
        }
      return rows.map(Self.memorySource)
    }
  }

  /// One source, or `nil`.
  public func memorySource(_ id: String) throws(StoreError) -> MemorySource? {
    try read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM memorySource WHERE id = ?", arguments: [id]).map(Self.memorySource)
    }
  }

  /// Ids of the chunks stored for a source.
  public func memoryChunkIDs(of sourceID: String) throws(StoreError) -> Set<String> {
    try read { db in
      Set(try String.fetchAll(db, sql: "SELECT id FROM memoryChunk WHERE sourceID = ?", arguments: [sourceID]))
    }
  }

  /// Stores `source` with exactly the chunks named by `chunkIDs`: chunks of the source that are not named go,
  /// `added` chunks are inserted, and chunks already stored under a named id are kept as they are.
  /// - Returns: the row ids of removed chunks and of added ones, one per added chunk, in the order given.
  @discardableResult
  public func replaceMemorySource(
    _ source: MemorySource, chunkIDs: [String], added: [EmbeddedChunk]
  ) throws(StoreError) -> (removed: [Int64], added: [Int64]) {
    try write { db in
      let keep = Set(chunkIDs)
      try db.execute(
        sql: """
          INSERT INTO memorySource (id, collection, title, location, contentHash, byteCount, chunkCount, indexedAt)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET collection = excluded.collection, title = excluded.title,
            location = excluded.location, contentHash = excluded.contentHash, byteCount = excluded.byteCount,
            chunkCount = excluded.chunkCount, indexedAt = excluded.indexedAt
          """,
        arguments: [
          source.id, source.collection.rawValue, source.title, source.location, source.contentHash,
          source.byteCount, chunkIDs.count, source.indexedAt.timeIntervalSince1970,
        ])
      var removed: [Int64] = []
      for row in try Row.fetchAll(
        db, sql: "SELECT rowid, id FROM memoryChunk WHERE sourceID = ?", arguments: [source.id])
      where !keep.contains(row["id"] as String) {
        removed.append(row["rowid"])
      }
      for rowID in removed {
        try db.execute(sql: "DELETE FROM memoryChunk WHERE rowid = ?", arguments: [rowID])
      }
      var inserted: [Int64] = []
      for item in added {
        let chunk = item.chunk
        // A chunk stored meanwhile by another process is overwritten in place, so every chunk given gets a
        // row id, in order.
        let rowID = try Int64.fetchOne(
          db,
          sql: """
            INSERT INTO memoryChunk (id, sourceID, collection, ordinal, heading, text, start, "end", tokenCount, vector)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET ordinal = excluded.ordinal, vector = excluded.vector
            RETURNING rowid
            """,
          arguments: [
            chunk.id, source.id, source.collection.rawValue, chunk.ordinal, chunk.heading, chunk.text, chunk.start,
            chunk.end, chunk.tokenCount, item.vector.littleEndianBytes,
          ])
        if let rowID { inserted.append(rowID) }
      }
      return (removed, inserted)
    }
  }

  /// Forgets a source and its chunks.
  /// - Returns: the row ids of the chunks removed; empty when the source was not indexed.
  @discardableResult
  public func removeMemorySource(_ id: String) throws(StoreError) -> [Int64] {
    try write { db in
      let rows = try Int64.fetchAll(db, sql: "SELECT rowid FROM memoryChunk WHERE sourceID = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM memorySource WHERE id = ?", arguments: [id])
      return rows
    }
  }

  /// Forgets every chunk and source, and which model made them.
  public func clearMemory() throws(StoreError) {
    try write { db in
      try db.execute(sql: "DELETE FROM memorySource")
      try db.execute(sql: "DELETE FROM memoryIndex")
    }
  }

  /// Every vector (or those of rows after `after`), for the search held in memory; rows whose vector is of
  /// another length than `dimension` are listed apart (``StoredVectors/misfits``).
  public func memoryVectors(
    dimension: Int, after: Int64 = 0, in collection: MemoryCollection? = nil
  ) throws(StoreError) -> StoredVectors {
    try read { db in
      var result = StoredVectors(rowIDs: [], collections: [], values: [])
      let cursor =
        if let collection {
          try Row.fetchCursor(
            db,
            sql: "SELECT rowid, collection, vector FROM memoryChunk WHERE rowid > ? AND collection = ? ORDER BY rowid",
            arguments: [after, collection.rawValue])
        } else {
          try Row.fetchCursor(
            db, sql: "SELECT rowid, collection, vector FROM memoryChunk WHERE rowid > ? ORDER BY rowid",
            arguments: [after])
        }
      while let row = try cursor.next() {
        let data: Data = row["vector"]
        guard data.count == dimension * 4 else {
          result.misfits.append(row["rowid"])
          continue
        }
        result.rowIDs.append(row["rowid"])
        result.collections.append(MemoryCollection(rawValue: row["collection"]) ?? .documents)
        data.withUnsafeBytes { raw in
          for index in 0..<dimension {
            result.values.append(
              Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))))
          }
        }
      }
      return result
    }
  }

  /// The chunks with these row ids, each with its source.
  public func memoryChunks(rowIDs: [Int64]) throws(StoreError) -> [Int64: (MemoryChunk, MemorySource)] {
    guard !rowIDs.isEmpty else { return [:] }
    return try read { db in
      let list = rowIDs.map(String.init).joined(separator: ",")
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT memoryChunk.rowid AS chunkRow, memoryChunk.id AS chunkID, memoryChunk.ordinal, memoryChunk.heading,
                 memoryChunk.text, memoryChunk.start, memoryChunk."end", memoryChunk.tokenCount, memorySource.*
          FROM memoryChunk JOIN memorySource ON memorySource.id = memoryChunk.sourceID
          WHERE memoryChunk.rowid IN (\(list))
          """)
      var found: [Int64: (MemoryChunk, MemorySource)] = [:]
      for row in rows {
        let source = Self.memorySource(row)
        let chunk = MemoryChunk(
          id: row["chunkID"], sourceID: source.id, ordinal: row["ordinal"], heading: row["heading"], text: row["text"],
          start: row["start"], end: row["end"], tokenCount: row["tokenCount"])
        found[row["chunkRow"]] = (chunk, source)
      }
      return found
    }
  }

  /// Chunks matching any of the query's words, best first by BM25, as row ids. Only the keyword index is
  /// read (never the chunks' rows with their vectors), so a common word matching thousands of chunks stays
  /// cheap; the caller filters by collection.
  public func memoryKeywordSearch(_ query: String, limit: Int) throws(StoreError) -> [Int64] {
    guard limit > 0, let pattern = FTS5Pattern(matchingAnyTokenIn: query) else { return [] }
    return try read { db in
      try Int64.fetchAll(
        db,
        sql:
          "SELECT rowid FROM memoryChunk_fts WHERE memoryChunk_fts MATCH ? ORDER BY bm25(memoryChunk_fts, 0.5, 1.0) LIMIT ?",
        arguments: [pattern, limit])
    }
  }

  /// How many chunks hold each of these index terms (stemmed, lower-case words); terms in none are absent.
  public func memoryTermCounts(_ terms: Set<String>) throws(StoreError) -> [String: Int] {
    guard !terms.isEmpty else { return [:] }
    return try read { db in
      var counts: [String: Int] = [:]
      for row in try Row.fetchAll(
        db,
        sql: "SELECT term, doc FROM memoryChunk_vocab WHERE term IN (\(terms.map { _ in "?" }.joined(separator: ",")))",
        arguments: StatementArguments(Array(terms)))
      {
        counts[row["term"]] = row["doc"]
      }
      return counts
    }
  }

  /// The highest chunk row id, 0 when there are none: rows are only ever added above it.
  public func memoryLastRowID() throws(StoreError) -> Int64 {
    try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM memoryChunk") ?? 0 }
  }

  /// Chunks stored.
  public func memoryChunkCount() throws(StoreError) -> Int {
    try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memoryChunk") ?? 0 }
  }

  /// What the embedding model reads for every chunk (headings and text), by row id, for re-embedding.
  public func memoryChunkTexts(rowIDs: [Int64]? = nil) throws(StoreError) -> [(rowID: Int64, text: String)] {
    let only = rowIDs.map { " WHERE rowid IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
    return try read { db in
      try Row.fetchAll(db, sql: "SELECT rowid, heading, text FROM memoryChunk\(only) ORDER BY rowid").map { row in
        let heading: String = row["heading"]
        let text: String = row["text"]
        return (row["rowid"], heading.isEmpty ? text : "\(heading)\n\(text)")
      }
    }
  }

  /// The collection of each of the given chunks.
  public func memoryChunkCollections(rowIDs: [Int64]) throws(StoreError) -> [Int64: MemoryCollection] {
    guard !rowIDs.isEmpty else { return [:] }
    return try read { db in
      let list = rowIDs.map(String.init).joined(separator: ",")
      let rows = try Row.fetchAll(db, sql: "SELECT rowid, collection FROM memoryChunk WHERE rowid IN (\(list))")
      return Dictionary(
        uniqueKeysWithValues: rows.map { ($0["rowid"], MemoryCollection(rawValue: $0["collection"]) ?? .documents) })
    }
  }

  /// Replaces the vectors of the given chunks.
  public func updateMemoryVectors(_ vectors: [(Int64, [Float])]) throws(StoreError) {
    try write { db in
      for (rowID, vector) in vectors {
        try db.execute(
          sql: "UPDATE memoryChunk SET vector = ? WHERE rowid = ?", arguments: [vector.littleEndianBytes, rowID])
      }
    }
  }

  /// Sources and chunks per collection.
  public func memoryCounts() throws(StoreError) -> [MemoryCollection: (sources: Int, chunks: Int)] {
    try read { db in
      var counts: [MemoryCollection: (sources: Int, chunks: Int)] = [:]
      for row in try Row.fetchAll(
        db,
        sql: "SELECT collection, COUNT(*) AS sources, SUM(chunkCount) AS chunks FROM memorySource GROUP BY collection")
      {
        guard let collection = MemoryCollection(rawValue: row["collection"]) else { continue }
        counts[collection] = (row["sources"], row["chunks"] ?? 0)
      }
      return counts
    }
  }

  private static func memorySource(_ row: Row) -> MemorySource {
    MemorySource(
      id: row["id"], collection: MemoryCollection(rawValue: row["collection"]) ?? .documents, title: row["title"],
      location: row["location"], contentHash: row["contentHash"], byteCount: row["byteCount"],
      chunkCount: row["chunkCount"], indexedAt: Date(timeIntervalSince1970: row["indexedAt"]))
  }
}
