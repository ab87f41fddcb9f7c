public import Foundation
public import HearthCore
public import HearthStore

/// A text to remember, whole: a file's text, a note, a chat's messages, the persona.
public struct SourceText: Sendable, Hashable {
  public var id: String
  public var collection: MemoryCollection
  public var title: String
  public var location: String
  public var text: String

  /// Describes a text to index.
  public init(id: String, collection: MemoryCollection, title: String, location: String, text: String) {
    self.id = id
    self.collection = collection
    self.title = title
    self.location = location
    self.text = text
  }
}

/// What indexing one source did.
public struct IndexOutcome: Sendable, Hashable {
  public var source: MemorySource
  /// Chunks embedded and stored now.
  public var added: Int
  /// Chunks kept from before, unchanged.
  public var kept: Int
  /// Chunks that were dropped.
  public var removed: Int
  /// The text was the same as last time: nothing was done.
  public var unchanged: Bool
}

/// Why the memory could not do something.
public enum MemoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The stored vectors came from another embedding model: they cannot be compared with the new one's.
  case modelMismatch(indexed: MemoryIndexIdentity, loaded: MemoryIndexIdentity)
  /// Nothing is indexed under this source.
  case unknownSource(String)

  public var description: String {
    switch self {
    case .modelMismatch(let indexed, let loaded):
      "the memory was indexed with \(indexed.model) (\(indexed.dimension) dimensions) but the embedding model is "
        + "\(loaded.model) (\(loaded.dimension) dimensions); vectors of different models cannot be mixed: run "
        + "`hearth index rebuild` to re-embed everything with the new model, or use the old model"
    case .unknownSource(let id): "nothing is indexed as \(id) (see `hearth index list`)"
    }
  }
}

/// The assistant's memory: texts cut into chunks, embedded, stored in the profile's database with a
/// keyword index, and found again by meaning and by words.
public actor MemoryIndex {
  private let database: HearthDatabase
  private let embedder: any TextEmbedder
  private let chunking: ChunkingOptions
  private var loaded: (info: EmbedderInfo, vectors: VectorIndex)?
  // The highest chunk row whose vector is held: rows above it were added since (by another process too).
  private var lastRowID: Int64 = 0
  // Collections whose vectors were let go under memory pressure: the next search loads them back.
  private var released: Set<MemoryCollection> = []

  /// Creates the memory over a profile's database.
  public init(database: HearthDatabase, embedder: any TextEmbedder, chunking: ChunkingOptions = .init()) {
    self.database = database
    self.embedder = embedder
    self.chunking = chunking
  }

  /// Loads the embedding model and the stored vectors, checking they belong together.
  /// - Throws: ``MemoryError/modelMismatch(indexed:loaded:)`` when the vectors came from another model.
  @discardableResult
  public func prepare() async throws -> EmbedderInfo {
    if let loaded { return loaded.info }
    let info = try await embedder.prepare()
    if let indexed = try database.memoryIndexIdentity() {
      guard indexed == info.identity else { throw MemoryError.modelMismatch(indexed: indexed, loaded: info.identity) }
    } else {
      try database.setMemoryIndexIdentity(info.identity)
    }
    let last = try database.memoryLastRowID()
    let stored = try database.memoryVectors(dimension: info.identity.dimension)
    var vectors = VectorIndex(dimension: info.identity.dimension)
    vectors.insert(rowIDs: stored.rowIDs, collections: stored.collections, values: stored.values)
    if !stored.misfits.isEmpty { try await repair(stored.misfits, into: &vectors) }
    loaded = (info, vectors)
    lastRowID = max(last, stored.rowIDs.last ?? 0, stored.misfits.max() ?? 0)
    return info
  }

  /// Embeds again the chunks whose stored vector was damaged (not of the index's size), from the text they
  /// hold, and stores and holds the new vectors: a damaged row of the vector index is rebuilt, never passed over.
  private func repair(_ rowIDs: [Int64], into vectors: inout VectorIndex) async throws {
    let texts = try database.memoryChunkTexts(rowIDs: rowIDs)
    let collections = try database.memoryChunkCollections(rowIDs: rowIDs)
    for start in stride(from: 0, to: texts.count, by: 64) {
      let group = Array(texts[start..<min(start + 64, texts.count)])
      let embedded = try await embedder.embed(group.map(\.text))
      try database.updateMemoryVectors(zip(group, embedded).map { ($0.rowID, $1) })
      for (chunk, vector) in zip(group, embedded) {
        vectors.insert(chunk.rowID, collection: collections[chunk.rowID] ?? .documents, vector: vector)
      }
    }
  }

  /// Takes in the vectors another process stored since they were loaded (a `hearth index add` while
  /// `hearth serve` runs); row ids only grow, so those are the rows above the last one held.
  private func catchUp() throws {
    guard let dimension = loaded?.vectors.dimension, try database.memoryLastRowID() > lastRowID else { return }
    let fresh = try database.memoryVectors(dimension: dimension, after: lastRowID)
    for (index, rowID) in fresh.rowIDs.enumerated() {
      loaded?.vectors.insert(
        rowID, collection: fresh.collections[index],
        vector: Array(fresh.values[index * dimension..<(index + 1) * dimension]))
      lastRowID = max(lastRowID, rowID)
    }
  }

  /// The chunker this memory uses, counting with the embedding model's tokenizer.
  public func chunker() async throws -> Chunker {
    let info = try await prepare()
    var options = chunking
    options.tokenBudget = min(options.tokenBudget, info.maxTokens)
    return Chunker(options: options, countTokens: info.countTokens)
  }

  /// Indexes `document`, replacing what was indexed under its id: unchanged chunks are kept, new ones
  /// embedded, vanished ones dropped. An unchanged text costs one lookup.
  public func index(_ document: SourceText, now: Date = Date()) async throws -> IndexOutcome {
    let chunker = try await chunker()
    let hash = StableHash.hex(document.text)
    var source = MemorySource(
      id: document.id, collection: document.collection, title: document.title, location: document.location,
      contentHash: hash, byteCount: document.text.utf8.count, indexedAt: now)
    if let existing = try database.memorySource(document.id), existing.contentHash == hash,
      existing.title == document.title
    {
      return IndexOutcome(source: existing, added: 0, kept: existing.chunkCount, removed: 0, unchanged: true)
    }
    let chunks = chunker.chunks(of: document.text, sourceID: document.id)
    let stored = try database.memoryChunkIDs(of: document.id)
    let fresh = chunks.filter { !stored.contains($0.id) }
    var embedded: [EmbeddedChunk] = []
    for start in stride(from: 0, to: fresh.count, by: 64) {
      let group = Array(fresh[start..<min(start + 64, fresh.count)])
      let vectors = try await embedder.embed(group.map(\.embeddedText))
      embedded += zip(group, vectors).map { EmbeddedChunk(chunk: $0, vector: $1) }
    }
    source.chunkCount = chunks.count
    let (removed, added) = try database.replaceMemorySource(source, chunkIDs: chunks.map(\.id), added: embedded)
    for rowID in removed { loaded?.vectors.remove(rowID) }
    for (rowID, item) in zip(added, embedded) {
      loaded?.vectors.insert(rowID, collection: document.collection, vector: item.vector)
      lastRowID = max(lastRowID, rowID)
    }
    return IndexOutcome(
      source: source, added: added.count, kept: chunks.count - embedded.count, removed: removed.count,
      unchanged: false)
  }

  /// Forgets a source.
  /// - Throws: ``MemoryError/unknownSource(_:)`` when nothing is indexed under `id`.
  public func remove(_ id: String) throws {
    guard try database.memorySource(id) != nil else { throw MemoryError.unknownSource(id) }
    for rowID in try database.removeMemorySource(id) { loaded?.vectors.remove(rowID) }
  }

  /// Forgets a source if it was indexed.
  public func removeIfPresent(_ id: String) throws {
    for rowID in try database.removeMemorySource(id) { loaded?.vectors.remove(rowID) }
  }

  /// Lets the vectors of `collection` go from memory (under memory pressure, before the chat model is let go:
  /// the past chats first); they stay in the database, and the next search loads them back. How many went.
  @discardableResult
  public func release(_ collection: MemoryCollection) -> Int {
    guard loaded != nil else { return 0 }
    released.insert(collection)
    return loaded?.vectors.removeAll(in: collection) ?? 0
  }

  /// Vectors held in memory of `collection` now (none while it is let go).
  public func heldVectors(in collection: MemoryCollection) -> Int {
    loaded?.vectors.count(in: collection) ?? 0
  }

  /// Loads back what ``release(_:)`` let go. Rows added meanwhile are held already or come with ``catchUp()``;
  /// loading one twice replaces it.
  private func restoreReleased(for wanted: Set<MemoryCollection>?) throws {
    let due = wanted.map { released.intersection($0) } ?? released
    guard !due.isEmpty, let dimension = loaded?.vectors.dimension else { return }
    for collection in due {
      let stored = try database.memoryVectors(dimension: dimension, in: collection)
      loaded?.vectors.insert(rowIDs: stored.rowIDs, collections: stored.collections, values: stored.values)
    }
    released.subtract(due)
  }

  /// Chunks held in the vector search.
  public func vectorCount() async throws -> Int {
    try await prepare()
    return loaded?.vectors.count ?? 0
  }

  /// The chunks that best answer `query`, best first, each with its source and offsets.
  public func search(_ query: String, options: RetrievalOptions = .init()) async throws -> [MemoryHit] {
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, options.k > 0 else { return [] }
    try await prepare()
    try catchUp()
    // Only a search that may reach what was let go loads it back (a turn's search of the persona alone does not).
    try restoreReleased(for: options.collections)
    let pool = options.candidates + options.excludedSources.count * 4
    // The keyword search reads only SQLite: it runs while the query is embedded and the vectors scanned.
    let database = database
    let chunkCount = loaded?.vectors.count ?? 0
    async let keywordSearch: [Int64] = {
      guard options.mode != .vector else { return [] }
      let terms = try KeywordQuery.informative(
        trimmed, limit: Self.commonWordLimit(chunks: chunkCount), counts: database.memoryTermCounts)
      return try database.memoryKeywordSearch(terms, limit: pool * 2)
    }()
    let queryVector = try await embedder.embed([trimmed])[0]
    guard let vectors = loaded?.vectors else { return [] }
    let vectorHits =
      options.mode == .keyword ? [] : vectors.nearest(to: queryVector, k: pool, in: options.collections)
    var keywordHits = try await keywordSearch
    if let allowed = options.collections {
      keywordHits.removeAll { rowID in vectors.collection(of: rowID).map { !allowed.contains($0) } ?? true }
    }
    keywordHits = Array(keywordHits.prefix(pool))
    let weights = options.fusion.adjusted(for: trimmed)
    let fused = HybridRanking.fuse(vector: vectorHits.map(\.rowID), keyword: keywordHits, weights: weights)
    let found = try database.memoryChunks(rowIDs: fused.map(\.rowID))
    // Chunks gone from the database (a chat or note deleted, by any process) leave the vector search too.
    for candidate in fused where found[candidate.rowID] == nil { loaded?.vectors.remove(candidate.rowID) }
    var hits: [MemoryHit] = []
    for candidate in fused {
      guard let (chunk, source) = found[candidate.rowID], !options.excludedSources.contains(source.id) else {
        continue
      }
      let similarity = vectors.similarity(of: candidate.rowID, to: queryVector)
      let bar =
        candidate.keywordRank == nil
        ? options.minimumSimilarity
        : min(options.minimumSimilarity, options.minimumSimilarityWithSharedWords ?? options.minimumSimilarity)
      if let similarity, similarity < bar { continue }
      hits.append(
        MemoryHit(
          chunk: chunk, source: source, score: candidate.score, similarity: similarity.map(Double.init),
          vectorRank: candidate.vectorRank, keywordRank: candidate.keywordRank))
    }
    return HybridRanking.distinct(hits, k: options.k, perCollection: options.perCollection)
  }

  /// A word in more chunks than this is too common for the keyword search: 200, or one chunk in two
  /// hundred in a larger memory.
  public static func commonWordLimit(chunks: Int) -> Int { max(200, chunks / 200) }

  /// Re-embeds every stored chunk with the current model, for a memory built with another one.
  /// - Parameter progress: called after each batch with the chunks done and the total.
  public func rebuild(progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws {
    loaded = nil
    let info = try await embedder.prepare()
    let texts = try database.memoryChunkTexts()
    var done = 0
    for start in stride(from: 0, to: texts.count, by: 64) {
      let group = Array(texts[start..<min(start + 64, texts.count)])
      let vectors = try await embedder.embed(group.map(\.text))
      try database.updateMemoryVectors(zip(group, vectors).map { ($0.rowID, $1) })
      done += group.count
      progress(done, texts.count)
    }
    try database.setMemoryIndexIdentity(info.identity)
    try await prepare()
  }
}

extension MemoryError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .unknownSource: ErrorCategory(.notFound)
    case .modelMismatch: ErrorCategory(.conflict, code: "embedding_model_mismatch")
    }
  }
}
