public import HearthCore

/// Every chunk's vector in one contiguous block of memory: with unit vectors a dot product is the cosine
/// similarity. Up to ``defaultExactScanLimit`` vectors a search scans them all with SIMD arithmetic, which beats an
/// index structure at the sizes a person's memory reaches; beyond it, a scan of one sign bit per dimension
/// (``SignCodes``) picks the likeliest ``candidateCount(for:)`` places and only those are scored in full
/// (see `hearth bench memory --scale`).
public struct VectorIndex: Sendable {
  /// Most vectors searched by scoring every one: about 20 ms of scanning on one core here.
  public static let defaultExactScanLimit = 131_072
  /// Most vectors this index searches by scoring every one.
  public let exactScanLimit: Int

  /// Length of every vector.
  public let dimension: Int
  private(set) var rowIDs: [Int64] = []
  private var collections: [MemoryCollection] = []
  private var values: [Float] = []
  private var slots: [Int64: Int] = [:]
  private var codes: SignCodes

  /// Creates an empty index.
  public init(dimension: Int, exactScanLimit: Int = Self.defaultExactScanLimit) {
    precondition(dimension > 0)
    self.dimension = dimension
    self.exactScanLimit = exactScanLimit
    codes = SignCodes(dimension: dimension)
  }

  /// Vectors held.
  public var count: Int { rowIDs.count }

  /// Adds (or replaces) the vector of a chunk.
  public mutating func insert(_ rowID: Int64, collection: MemoryCollection, vector: [Float]) {
    precondition(vector.count == dimension)
    if let slot = slots[rowID] {
      values.replaceSubrange(slot * dimension..<(slot + 1) * dimension, with: vector)
      collections[slot] = collection
      vector.withUnsafeBufferPointer { codes.replace(slot, with: $0) }
      return
    }
    slots[rowID] = rowIDs.count
    rowIDs.append(rowID)
    collections.append(collection)
    values.append(contentsOf: vector)
    vector.withUnsafeBufferPointer { codes.append($0) }
  }

  /// Adds many vectors given as one block (`rowIDs.count × dimension` floats).
  public mutating func insert(rowIDs ids: [Int64], collections kinds: [MemoryCollection], values block: [Float]) {
    precondition(block.count == ids.count * dimension && kinds.count == ids.count)
    guard slots.isEmpty else {
      for (index, id) in ids.enumerated() {
        insert(id, collection: kinds[index], vector: Array(block[index * dimension..<(index + 1) * dimension]))
      }
      return
    }
    for (index, id) in ids.enumerated() { slots[id] = index }
    rowIDs = ids
    collections = kinds
    values = block
    codes = SignCodes(dimension: dimension)
    block.withUnsafeBufferPointer { all in
      for row in 0..<ids.count {
        codes.append(UnsafeBufferPointer(rebasing: all[row * dimension..<(row + 1) * dimension]))
      }
    }
  }

  /// Removes every vector of `collection`, giving their memory back (the arrays are built again at the size of
  /// what stays: removing one by one would keep their capacity); how many there were.
  @discardableResult
  public mutating func removeAll(in collection: MemoryCollection) -> Int {
    let kept = collections.indices.filter { collections[$0] != collection }
    let gone = rowIDs.count - kept.count
    guard gone > 0 else { return 0 }
    var (keptRows, keptCollections, keptValues) = ([Int64](), [MemoryCollection](), [Float]())
    keptRows.reserveCapacity(kept.count)
    keptCollections.reserveCapacity(kept.count)
    keptValues.reserveCapacity(kept.count * dimension)
    var keptSlots: [Int64: Int] = [:]
    keptSlots.reserveCapacity(kept.count)
    for slot in kept {
      keptSlots[rowIDs[slot]] = keptRows.count
      keptRows.append(rowIDs[slot])
      keptCollections.append(collections[slot])
      keptValues.append(contentsOf: values[slot * dimension..<(slot + 1) * dimension])
    }
    (rowIDs, collections, values, slots) = (keptRows, keptCollections, keptValues, keptSlots)
    codes.keep(kept)
    return gone
  }

  /// The bytes the vectors' storage holds now, its spare room included.
  public var reservedBytes: Int { values.capacity * MemoryLayout<Float>.stride + codes.reservedBytes }

  /// Vectors held of `collection`.
  public func count(in collection: MemoryCollection) -> Int {
    collections.count { $0 == collection }
  }

  /// Removes a chunk's vector; the last vector takes its place, so the block stays contiguous.
  public mutating func remove(_ rowID: Int64) {
    guard let slot = slots.removeValue(forKey: rowID) else { return }
    let last = rowIDs.count - 1
    if slot != last {
      let moved = rowIDs[last]
      rowIDs[slot] = moved
      collections[slot] = collections[last]
      values.withUnsafeMutableBufferPointer { buffer in
        for offset in 0..<dimension { buffer[slot * dimension + offset] = buffer[last * dimension + offset] }
      }
      slots[moved] = slot
    }
    codes.moveLast(to: slot)
    rowIDs.removeLast()
    collections.removeLast()
    values.removeLast(dimension)
  }

  /// The `k` chunks most similar to `query` (a unit vector), best first, optionally within some collections.
  /// Beyond ``exactScanLimit`` vectors only the ``candidateCount(for:)`` likeliest by their sign codes are
  /// scored, unless `exact` asks for every one.
  public func nearest(
    to query: [Float], k: Int, in allowed: Set<MemoryCollection>? = nil, exact: Bool = false
  ) -> [(rowID: Int64, similarity: Float)] {
    precondition(query.count == dimension)
    guard k > 0, !rowIDs.isEmpty else { return [] }
    var best = TopK(capacity: k)
    let dimension = dimension
    let collections = collections
    let isAllowed: ((Int) -> Bool)? = allowed.map { allowed in { allowed.contains(collections[$0]) } }
    let candidates: [Int]? =
      exact || rowIDs.count <= exactScanLimit
      ? nil
      : query.withUnsafeBufferPointer {
        codes.nearest(to: codes.code(of: $0), count: Self.candidateCount(for: k), allowed: isAllowed)
      }
    values.withUnsafeBufferPointer { matrix in
      query.withUnsafeBufferPointer { q in
        func score(_ slot: Int) {
          best.offer(Self.dot(q.baseAddress!, matrix.baseAddress! + slot * dimension, count: dimension), slot)
        }
        if let candidates {
          candidates.forEach(score)
        } else {
          for slot in 0..<rowIDs.count where isAllowed?(slot) ?? true { score(slot) }
        }
      }
    }
    return best.sorted().map { (rowIDs[$0.slot], $0.score) }
  }

  /// Places scored in full when the sign codes choose them, for `k` results.
  public static func candidateCount(for k: Int) -> Int { max(8192, k * 256) }

  /// The collection a chunk belongs to, or `nil` when the chunk is not held.
  public func collection(of rowID: Int64) -> MemoryCollection? {
    slots[rowID].map { collections[$0] }
  }

  /// The cosine similarity of a chunk's vector to `query`, or `nil` when the chunk is not held.
  public func similarity(of rowID: Int64, to query: [Float]) -> Float? {
    guard let slot = slots[rowID], query.count == dimension else { return nil }
    return values.withUnsafeBufferPointer { matrix in
      query.withUnsafeBufferPointer {
        Self.dot($0.baseAddress!, matrix.baseAddress! + slot * dimension, count: dimension)
      }
    }
  }

  @inline(__always)
  static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
    var sum0 = SIMD16<Float>()
    var sum1 = SIMD16<Float>()
    var index = 0
    let rawA = UnsafeRawPointer(a)
    let rawB = UnsafeRawPointer(b)
    while index + 32 <= count {
      sum0 +=
        rawA.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self)
        * rawB.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self)
      sum1 +=
        rawA.loadUnaligned(fromByteOffset: (index + 16) * 4, as: SIMD16<Float>.self)
        * rawB.loadUnaligned(fromByteOffset: (index + 16) * 4, as: SIMD16<Float>.self)
      index += 32
    }
    var total = (sum0 + sum1).sum()
    while index < count {
      total += a[index] * b[index]
      index += 1
    }
    return total
  }
}

/// The `capacity` highest scores seen, kept in a small min-heap.
struct TopK {
  let capacity: Int
  private var heap: [(score: Float, slot: Int)] = []

  init(capacity: Int) {
    self.capacity = capacity
    heap.reserveCapacity(capacity)
  }

  mutating func offer(_ score: Float, _ slot: Int) {
    if heap.count < capacity {
      heap.append((score, slot))
      siftUp(heap.count - 1)
    } else if score > heap[0].score {
      heap[0] = (score, slot)
      siftDown(0)
    }
  }

  func sorted() -> [(score: Float, slot: Int)] {
    heap.sorted { $0.score > $1.score || ($0.score == $1.score && $0.slot < $1.slot) }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].score < heap[parent].score else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].score < heap[smallest].score { smallest = left }
      if right < heap.count, heap[right].score < heap[smallest].score { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
