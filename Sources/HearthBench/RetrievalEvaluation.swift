public import Foundation
import HearthCore
public import HearthMemory
import HearthStore

/// Retrieval quality on a labelled set: a corpus of Markdown files and queries, each with a short phrase
/// from the passage that answers it. A retrieved chunk is relevant when it contains that phrase.
public struct RetrievalEvaluation: Sendable {
  /// One labelled query.
  public struct Query: Sendable, Hashable, Codable {
    public var id: String
    public var query: String
    public var kind: String
    public var source: String
    public var evidence: String
  }

  /// Recall of one retrieval mode.
  public struct Score: Sendable, Hashable, Codable {
    public var mode: RetrievalMode
    public var queries: Int
    /// Queries with a relevant chunk among the first `k`.
    public var found: Int
    /// The same, per kind of query (paraphrase, keyword, mixed).
    public var foundByKind: [String: Int]
    /// Mean reciprocal rank of the first relevant chunk within `k` (0 when none).
    public var meanReciprocalRank: Double
    public var recall: Double { Double(found) / Double(max(queries, 1)) }
  }

  /// The set's folder: `corpus/` and `queries.json`.
  public var folder: URL

  /// Uses the set in `folder`.
  public init(folder: URL) {
    self.folder = folder
  }

  /// The queries of the set.
  public func queries() throws -> [Query] {
    try JSONDecoder().decode([Query].self, from: Data(contentsOf: folder.appendingPathComponent("queries.json")))
  }

  /// Indexes the corpus into `memory` (one source per file, ids by relative path).
  /// - Returns: the files and chunks indexed.
  @discardableResult
  public func index(into memory: MemoryIndex) async throws -> (files: Int, chunks: Int) {
    let corpus = folder.appendingPathComponent("corpus")
    let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let next = walker?.nextObject() as? URL {
      if next.pathExtension == "md" { files.append(next) }
    }
    files.sort { $0.path < $1.path }
    var chunks = 0
    for file in files {
      let relative = "corpus/" + file.path.dropFirst(corpus.path.count + 1)
      let outcome = try await memory.index(
        SourceText(
          id: "file:\(relative)", collection: .documents, title: file.lastPathComponent, location: relative,
          text: try String(contentsOf: file, encoding: .utf8)))
      chunks += outcome.source.chunkCount
    }
    return (files.count, chunks)
  }

  /// Recall@`k` of `mode` over every query.
  public func score(
    _ mode: RetrievalMode, k: Int = 5, memory: MemoryIndex, options: RetrievalOptions = .init()
  ) async throws -> Score {
    let queries = try queries()
    var score = Score(mode: mode, queries: queries.count, found: 0, foundByKind: [:], meanReciprocalRank: 0)
    for query in queries {
      var options = options
      options.k = k
      options.mode = mode
      let hits = try await memory.search(query.query, options: options)
      let evidence = Self.collapsed(query.evidence)
      if let rank = hits.firstIndex(where: { Self.collapsed($0.chunk.text).contains(evidence) }) {
        score.found += 1
        score.foundByKind[query.kind, default: 0] += 1
        score.meanReciprocalRank += 1 / Double(rank + 1)
      }
    }
    score.meanReciprocalRank /= Double(max(queries.count, 1))
    return score
  }

  static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
