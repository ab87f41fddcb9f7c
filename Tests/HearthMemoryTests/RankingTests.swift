import HearthCore
import PropertyBased
import Testing

@testable import HearthMemory

@Suite("Vector search and fusion")
struct RankingTests {
  static func unit(_ values: [Float]) -> [Float] {
    let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return values.map { $0 / max(norm, 1e-6) }
  }

  @Test("a collection's vectors go all at once and the rest still rank as before")
  func oneCollectionLetGo() {
    var index = VectorIndex(dimension: 4)
    let vectors: [[Float]] = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0.9, 0.1, 0, 0]].map(Self.unit)
    for (row, vector) in vectors.enumerated() {
      index.insert(Int64(row), collection: row % 2 == 0 ? .conversations : .notes, vector: vector)
    }
    #expect(index.count(in: .conversations) == 2)
    #expect(index.removeAll(in: .conversations) == 2)
    #expect(index.count(in: .conversations) == 0)
    #expect(index.count == 2)
    #expect(index.nearest(to: Self.unit([1, 0, 0, 0]), k: 2).map(\.rowID) == [3, 1])
    #expect(index.collection(of: 0) == nil)
    // The memory is given back, not kept as spare room.
    var large = VectorIndex(dimension: 64)
    for row in 0..<1000 {
      large.insert(
        Int64(row), collection: row < 900 ? .conversations : .notes, vector: Self.unit(Array(repeating: 1, count: 64)))
    }
    let before = large.reservedBytes
    #expect(large.removeAll(in: .conversations) == 900)
    #expect(large.reservedBytes <= before / 5)
    #expect(large.count == 100)
  }

  @Test("the SIMD scan finds the same top k as a plain loop, after inserts and removals")
  func matchesPlainLoop() async {
    await propertyCheck(input: Gen.int(in: 1...10_000)) { seed in
      var random = SeededRandom(seed: UInt64(seed))
      let dimension = [7, 32, 48, 384][seed % 4]
      var index = VectorIndex(dimension: dimension)
      var plain: [Int64: [Float]] = [:]
      for row in 0..<200 {
        let vector = Self.unit((0..<dimension).map { _ in Float.random(in: -1...1, using: &random) })
        index.insert(Int64(row), collection: row % 2 == 0 ? .notes : .documents, vector: vector)
        plain[Int64(row)] = vector
      }
      for row in stride(from: 0, to: 200, by: 7) {
        index.remove(Int64(row))
        plain[Int64(row)] = nil
      }
      let query = Self.unit((0..<dimension).map { _ in Float.random(in: -1...1, using: &random) })
      let found = index.nearest(to: query, k: 10, in: [.notes])
      let expected = plain.filter { $0.key % 2 == 0 }
        .map { ($0.key, zip($0.value, query).reduce(Float(0)) { $0 + $1.0 * $1.1 }) }
        .sorted { $0.1 > $1.1 }.prefix(10)
      // Rank by rank the same similarity; the rows may differ only where two similarities tie within float
      // rounding (the SIMD sum adds in another order), so each row is checked against its own true similarity.
      #expect(found.count == expected.count)
      #expect(Set(found.map(\.rowID)).count == found.count)
      for (hit, want) in zip(found, expected) {
        #expect(abs(hit.similarity - want.1) < 1e-4)
        let vector = plain[hit.rowID]
        #expect(hit.rowID % 2 == 0 && vector != nil)
        let truth = zip(vector ?? [], query).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        #expect(abs(hit.similarity - truth) < 1e-4)
      }
      #expect(index.count == plain.count)
    }
  }

  @Test("reciprocal rank fusion lifts what both searches found")
  func fusion() {
    let fused = HybridRanking.fuse(vector: [1, 2, 3], keyword: [3, 4, 1], weights: .classic)
    #expect(fused.map(\.rowID).prefix(2) == [1, 3])
    #expect(fused.first { $0.rowID == 3 }?.vectorRank == 3)
    #expect(fused.first { $0.rowID == 3 }?.keywordRank == 1)
    #expect(fused.count == 4)
  }

  @Test("words weigh fully only when the query names something exact")
  func adaptiveWeights() {
    let weights = HybridRanking.Weights()
    #expect(weights.adjusted(for: "what is the policy number for Verdant").keyword == 1)
    #expect(weights.adjusted(for: "code 4719 for the boiler").keyword == 1)
    #expect(weights.adjusted(for: "why is my heater knocking in the morning").keyword == 0.3)
    #expect(weights.adjusted(for: "What did I say about the garden").keyword == 0.3)
    // A paraphrase: the keyword list's lone first place does not outrank agreement further down.
    let fused = HybridRanking.fuse(vector: [1, 2, 3], keyword: [9, 2], weights: weights)
    #expect(fused.map(\.rowID).prefix(2) == [2, 1])
    #expect(fused.last?.rowID == 9)
  }

  @Test("words too common to tell chunks apart are left out of the keyword search")
  func commonWordsLeftOut() {
    // Index terms as a stemmer writes them, with the chunks holding each.
    let index = ["servic": 5_000, "boiler": 40, "calora": 3, "morn": 900, "knock": 12, "happi": 7]
    let counts: (Set<String>) -> [String: Int] = { wanted in index.filter { wanted.contains($0.key) } }
    #expect(KeywordQuery.informative("service the Calora boiler", limit: 1_000, counts: counts) == "Calora boiler")
    #expect(KeywordQuery.informative("knocking in the morning", limit: 1_000, counts: counts) == "knocking morning")
    #expect(KeywordQuery.informative("knocking in the morning", limit: 100, counts: counts) == "knocking")
    // All common: the rarest stays. Unknown words are rare.
    #expect(KeywordQuery.informative("service mornings", limit: 10, counts: counts) == "mornings")
    #expect(KeywordQuery.informative("QX-7781 service", limit: 1_000, counts: counts) == "QX-7781")
    #expect(KeywordQuery.stemCandidates("Happy").contains("happi"))
    #expect(KeywordQuery.stemCandidates("Däckcentrum").contains("dackcentrum"))
  }

  @Test("keyword queries drop a question's function words but keep names and codes")
  func keywordTerms() {
    #expect(KeywordQuery.terms(of: "What is the policy number for Verdant?") == "policy number Verdant")
    #expect(KeywordQuery.terms(of: "What is it?") == "What is it")
    #expect(KeywordQuery.terms(of: "code F-28 on the boiler") == "code F-28 boiler")
  }
}
