import HearthCore
import Testing

@testable import HearthMemory

@Suite("Large indexes searched through sign codes")
struct SignCodeSearchTests {
  /// Unit vectors in clusters, as embeddings of texts on shared topics are: `count` vectors around
  /// `clusters` centres, each centre plus noise.
  static func clustered(count: Int, clusters: Int, dimension: Int, seed: UInt64) -> [Float] {
    var random = SeededRandom(seed: seed)
    let centres = (0..<clusters).map { _ in (0..<dimension).map { _ in Float.random(in: -1...1, using: &random) } }
    var block: [Float] = []
    block.reserveCapacity(count * dimension)
    for row in 0..<count {
      let centre = centres[row % clusters]
      let vector = centre.map { $0 + Float.random(in: -0.8...0.8, using: &random) }
      let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
      block += vector.map { $0 / norm }
    }
    return block
  }

  @Test func codesKeepOneBitPerDimensionInStepWithTheVectors() {
    var codes = SignCodes(dimension: 70)
    #expect(codes.words == 2)
    let first = (0..<70).map { Float($0 % 3 == 0 ? 1 : -1) }
    let second = (0..<70).map { Float($0 == 69 ? 1 : -1) }
    first.withUnsafeBufferPointer { codes.append($0) }
    second.withUnsafeBufferPointer { codes.append($0) }
    #expect(codes.bits[2] == 0 && codes.bits[3] == 1 << 5)
    #expect(codes.bits[0] & 0b1001 == 0b1001 && codes.bits[0] & 0b110 == 0)
    codes.moveLast(to: 0)
    #expect(codes.bits == [0, 1 << 5])
    let query = second.withUnsafeBufferPointer { codes.code(of: $0) }
    #expect(codes.nearest(to: query, count: 5, allowed: nil) == [0])
    // Fewer places wanted than held: the nearest by differing bits, the last distance taken in place order.
    let third = (0..<70).map { Float($0 == 69 || $0 == 0 ? 1 : -1) }  // one bit from `second`
    third.withUnsafeBufferPointer { codes.append($0) }
    first.withUnsafeBufferPointer { codes.append($0) }
    second.withUnsafeBufferPointer { codes.append($0) }  // places: second, third, first, second
    #expect(codes.nearest(to: query, count: 2, allowed: nil).sorted() == [0, 3])
    #expect(codes.nearest(to: query, count: 3, allowed: nil).sorted() == [0, 1, 3])
    #expect(codes.nearest(to: query, count: 1, allowed: { $0 != 0 }) == [3])
  }

  /// Over the exact-scan limit, the top ten found through the codes are the exact scan's in at least 95 % of
  /// places, and collections, removals and replacements are honoured as in the exact scan.
  @Test func theTopTenMatchTheExactScan() throws {
    let dimension = 64
    let count = 60_000
    let block = Self.clustered(count: count, clusters: 600, dimension: dimension, seed: 3)
    var index = VectorIndex(dimension: dimension, exactScanLimit: 10_000)
    let kinds = (0..<count).map { $0 % 5 == 0 ? MemoryCollection.notes : .documents }
    index.insert(rowIDs: (0..<count).map { Int64($0 + 1) }, collections: kinds, values: block)
    let queries = Self.clustered(count: 50, clusters: 600, dimension: dimension, seed: 9)
    var found = 0
    for probe in 0..<50 {
      let query = Array(queries[probe * dimension..<(probe + 1) * dimension])
      let exact = Set(index.nearest(to: query, k: 10, exact: true).map(\.rowID))
      let approximate = index.nearest(to: query, k: 10)
      #expect(approximate.count == 10)
      found += approximate.filter { exact.contains($0.rowID) }.count
      let notes = index.nearest(to: query, k: 10, in: [.notes])
      #expect(notes.allSatisfy { index.collection(of: $0.rowID) == .notes })
    }
    #expect(found >= 475, "\(found) of 500")
    // A removed row is never found; a replaced one is found where its new vector is.
    let query = Array(queries[0..<dimension])
    let top = try #require(index.nearest(to: query, k: 1).first)
    index.remove(top.rowID)
    #expect(!index.nearest(to: query, k: 10).contains { $0.rowID == top.rowID })
    index.insert(7, collection: .documents, vector: query)
    #expect(index.nearest(to: query, k: 1).first?.rowID == 7)
  }
}
