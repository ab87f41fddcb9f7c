import Foundation
import HearthCore
import HearthMemory

/// The memory's vector search at the sizes mail and synced accounts bring (100,000 to 1,000,000 chunks of 384
/// dimensions): top-10 latency of the search Hearth runs (sign codes, then full precision, beyond
/// ``VectorIndex/defaultExactScanLimit``) and of the exact scan, recall@10 of the first against the second,
/// and the memory the index takes. The vectors are synthetic: unit vectors around 50,000 random centres (20 a centre at a million), as
/// embeddings of texts on shared topics cluster (uniform random vectors, which have no near neighbours, would
/// measure nothing an index can use); queries are drawn the same way.
public struct VectorScaleBenchmark: Sendable {
  public struct Row: Sendable, Codable {
    public var chunks: Int
    public var searchP50Ms: Double
    public var searchP95Ms: Double
    public var exactP50Ms: Double
    public var exactP95Ms: Double
    /// Share of the exact scan's top 10 that the search finds, over every query.
    public var recallAt10: Double
    /// The index's vectors and codes, in bytes.
    public var indexBytes: Int
  }

  public let sizes: [Int]
  public let queries: Int
  public let dimension = 384
  public let clusters = 50_000

  public init(sizes: [Int], queries: Int = 200) {
    self.sizes = sizes
    self.queries = queries
  }

  public func run(progress: @Sendable (String) -> Void = { _ in }) -> [Row] {
    sizes.map { size in
      progress("building an index of \(size) vectors")
      var random = SeededRandom(seed: 42)
      let centres = (0..<clusters).map { _ in (0..<dimension).map { _ in Float.random(in: -1...1, using: &random) } }
      var index = VectorIndex(dimension: dimension)
      var block: [Float] = []
      block.reserveCapacity(size * dimension)
      for row in 0..<size { block += unitVector(near: centres[row % clusters], using: &random) }
      index.insert(
        rowIDs: (0..<size).map { Int64($0 + 1) }, collections: Array(repeating: .documents, count: size),
        values: block)
      block = []
      let probes = (0..<queries).map { _ in
        unitVector(near: centres[Int.random(in: 0..<min(clusters, size), using: &random)], using: &random)
      }
      progress("searching \(size) vectors")
      let clock = ContinuousClock()
      var search = Samples(samples: [])
      var exact = Samples(samples: [])
      var found = 0
      for probe in probes {
        var start = clock.now
        let approximate = index.nearest(to: probe, k: 10)
        search.samples.append((clock.now - start).milliseconds)
        start = clock.now
        let truth = Set(index.nearest(to: probe, k: 10, exact: true).map(\.rowID))
        exact.samples.append((clock.now - start).milliseconds)
        found += approximate.filter { truth.contains($0.rowID) }.count
      }
      return Row(
        chunks: size, searchP50Ms: search.median, searchP95Ms: search.percentile(95), exactP50Ms: exact.median,
        exactP95Ms: exact.percentile(95), recallAt10: Double(found) / Double(10 * probes.count),
        indexBytes: index.reservedBytes)
    }
  }

  /// `centre` plus noise of a random strength, scaled to length 1: from about 0.95 down to 0.4 cosine similarity
  /// to the centre, so that a query's neighbours range from close to loose, not one tight cluster.
  private func unitVector(near centre: [Float], using random: inout SeededRandom) -> [Float] {
    let strength = Float.random(in: 0.2...1.6, using: &random)
    let vector = centre.map { $0 + strength * Float.random(in: -1...1, using: &random) }
    let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return vector.map { $0 / norm }
  }
}
