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
  /// A lower bar for hits the keyword search found too (they share a rare word with the query); `nil` keeps
  /// `minimumSimilarity` for every hit.
  public var minimumSimilarityWithSharedWords: Float?
  /// Candidates each search contributes to the fusion.
  public var candidates: Int
  /// Sources never returned (such as the chat being answered, whose messages are already in the prompt).
  public var excludedSources: Set<String>
  /// How fusion weighs the two searches.
  public var fusion: HybridRanking.Weights

  /// Creates options.
  public init(
    k: Int = 5, mode: RetrievalMode = .hybrid, collections: Set<MemoryCollection>? = nil, perCollection: Int? = nil,
    minimumSimilarity: Float = 0, minimumSimilarityWithSharedWords: Float? = nil, candidates: Int = 20,
    excludedSources: Set<String> = [], fusion: HybridRanking.Weights = .init()
  ) {
    self.minimumSimilarityWithSharedWords = minimumSimilarityWithSharedWords
    self.fusion = fusion
    self.k = k
    self.mode = mode
    self.collections = collections
    self.perCollection = perCollection
    self.minimumSimilarity = minimumSimilarity
    self.candidates = candidates
    self.excludedSources = excludedSources
  }
}

/// Weighted reciprocal rank fusion: a chunk scores Σ w/(c + rank) over the searches that found it, so
/// agreement between meaning and words lifts a chunk without either search's raw scores having to be
/// comparable. Words count fully only when the query names something exact (a code, a number, a name):
/// for a question asked in other words, keyword matches on its common words are mostly noise.
public enum HybridRanking {
  /// How the two rankings count in the fusion.
  public struct Weights: Sendable, Hashable {
    /// The constant added to every rank (60 in the original formulation): the larger, the flatter.
    public var damping: Double
    public var vector: Double
    public var keyword: Double

    /// Whether the keyword weight follows the query: full for a query naming something exact (a code, a
    /// number, a name), reduced to `keyword` otherwise.
    public var adaptive: Bool
    /// The keyword weight of a query that names something exact, when adaptive.
    public var exactKeyword: Double

    /// Creates weights. The defaults were chosen on the labelled set (`hearth bench memory`): a small damping
    /// so that a first place counts, words weighed at 0.3 unless the query names something exact.
    public init(
      damping: Double = 5, vector: Double = 1, keyword: Double = 0.3, adaptive: Bool = true, exactKeyword: Double = 1
    ) {
      self.damping = damping
      self.vector = vector
      self.keyword = keyword
      self.adaptive = adaptive
      self.exactKeyword = exactKeyword
    }

    /// Plain reciprocal rank fusion as first published: both rankings equal, damping 60.
    public static let classic = Weights(damping: 60, vector: 1, keyword: 1, adaptive: false)

    /// The weights for `query`.
    public func adjusted(for query: String) -> Weights {
      guard adaptive, KeywordQuery.namesSomethingExact(query) else { return self }
      var weights = self
      weights.keyword = exactKeyword
      return weights
    }
  }

  /// One candidate after fusion.
  public struct Fused: Sendable, Hashable {
    public var rowID: Int64
    public var score: Double
    public var vectorRank: Int?
    public var keywordRank: Int?
  }

  /// Fuses two ranked lists of row ids (best first).
  public static func fuse(vector: [Int64], keyword: [Int64], weights: Weights = .init()) -> [Fused] {
    var fused: [Int64: Fused] = [:]
    for (index, rowID) in vector.enumerated() {
      fused[rowID, default: Fused(rowID: rowID, score: 0)].score +=
        weights.vector / (weights.damping + Double(index + 1))
      fused[rowID]?.vectorRank = index + 1
    }
    for (index, rowID) in keyword.enumerated() {
      fused[rowID, default: Fused(rowID: rowID, score: 0)].score +=
        weights.keyword / (weights.damping + Double(index + 1))
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
