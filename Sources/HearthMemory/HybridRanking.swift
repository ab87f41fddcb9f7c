public import HearthCore

/// Which searches a retrieval runs.
public enum RetrievalMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// Vector and keyword search, fused.
  case hybrid
  /// Vector search only (meaning).
  case vector
  /// Keyword search only (BM25).
  case keyword
}

/// How a query retrieves.
public struct RetrievalOptions: Sendable, Hashable {
  /// Hits returned.
  public var k: Int
  public var mode: RetrievalMode
  /// Collections searched; `nil` searches all.
  public var collections: Set<MemoryCollection>?
  /// Most hits from any one collection; `nil` for no limit.
  public var perCollection: Int?
  /// Hits less similar to the query than this (cosine) are dropped, however they were found.
  public var minimumSimilarity: Float
  /// Candidates each search contributes to the fusion.
  public var candidates: Int
  /// Sources never returned (such as the chat being answered, whose messages are already in the prompt).
  public var excludedSources: Set<String>

  /// Creates options.
  public init(
    k: Int = 5, mode: RetrievalMode = .hybrid, collections: Set<MemoryCollection>? = nil, perCollection: Int? = nil,
    minimumSimilarity: Float = 0, candidates: Int = 50, excludedSources: Set<String> = []
  ) {
    self.k = k
    self.mode = mode
    self.collections = collections
    self.perCollection = perCollection
    self.minimumSimilarity = minimumSimilarity
    self.candidates = candidates
    self.excludedSources = excludedSources
  }
}

/// Reciprocal rank fusion: a chunk scores Σ 1/(c + rank) over the searches that found it, so agreement
/// between meaning and words lifts a chunk without either search's raw scores having to be comparable.
public enum HybridRanking {
  /// The damping constant of reciprocal rank fusion (60 in the original formulation).
  public static let damping = 60.0

  /// One candidate after fusion.
  public struct Fused: Sendable, Hashable {
    public var rowID: Int64
    public var score: Double
    public var vectorRank: Int?
    public var keywordRank: Int?
  }

  /// Fuses two ranked lists of row ids (best first).
  public static func fuse(vector: [Int64], keyword: [Int64]) -> [Fused] {
    var fused: [Int64: Fused] = [:]
    for (index, rowID) in vector.enumerated() {
      fused[rowID, default: Fused(rowID: rowID, score: 0)].score += 1 / (damping + Double(index + 1))
      fused[rowID]?.vectorRank = index + 1
    }
    for (index, rowID) in keyword.enumerated() {
      fused[rowID, default: Fused(rowID: rowID, score: 0)].score += 1 / (damping + Double(index + 1))
      fused[rowID]?.keywordRank = index + 1
    }
    return fused.values.sorted { $0.score > $1.score || ($0.score == $1.score && $0.rowID < $1.rowID) }
  }

  /// `hits` (best first) without repeats: a chunk mostly inside a better one of the same source, or with the
  /// same text as a better one, is dropped; then at most `perCollection` per collection and `k` in all.
  public static func distinct(_ hits: [MemoryHit], k: Int, perCollection: Int?) -> [MemoryHit] {
    var kept: [MemoryHit] = []
    var texts: Set<String> = []
    var perKind: [MemoryCollection: Int] = [:]
    for hit in hits {
      guard kept.count < k else { break }
      let text = hit.chunk.text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
      let overlaps = kept.contains { better in
        guard better.source.id == hit.source.id else { return false }
        let shared = min(better.chunk.end, hit.chunk.end) - max(better.chunk.start, hit.chunk.start)
        let shorter = min(better.chunk.end - better.chunk.start, hit.chunk.end - hit.chunk.start)
        return shared * 2 > shorter
      }
      guard !overlaps, !texts.contains(text) else { continue }
      if let perCollection, perKind[hit.source.collection, default: 0] >= perCollection { continue }
      perKind[hit.source.collection, default: 0] += 1
      texts.insert(text)
      kept.append(hit)
    }
    return kept
  }
}
