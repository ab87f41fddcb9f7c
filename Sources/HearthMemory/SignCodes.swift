/// One bit per dimension of every vector of a ``VectorIndex``: whether the value is positive. The number of
/// differing bits between two codes (their Hamming distance) follows the angle between the vectors, so a scan
/// of the codes — 48 bytes a vector at 384 dimensions, against 1,536 in full — finds the few thousand likeliest
/// neighbours of a query among a million, which are then scored in full precision.
struct SignCodes: Sendable {
  /// 64-bit words per code.
  let words: Int
  private(set) var bits: [UInt64] = []

  init(dimension: Int) {
    words = (dimension + 63) / 64
  }

  /// The code of `vector`.
  func code(of vector: UnsafeBufferPointer<Float>) -> [UInt64] {
    var code = [UInt64](repeating: 0, count: words)
    for (index, value) in vector.enumerated() where value > 0 { code[index / 64] |= 1 << UInt64(index % 64) }
    return code
  }

  mutating func append(_ vector: UnsafeBufferPointer<Float>) { bits += code(of: vector) }

  mutating func replace(_ slot: Int, with vector: UnsafeBufferPointer<Float>) {
    bits.replaceSubrange(slot * words..<(slot + 1) * words, with: code(of: vector))
  }

  /// Moves the last code to `slot` and drops the last place, as the index does with its vectors.
  mutating func moveLast(to slot: Int) {
    let last = bits.count / words - 1
    if slot != last {
      for word in 0..<words { bits[slot * words + word] = bits[last * words + word] }
    }
    bits.removeLast(words)
  }

  /// Keeps only the codes of `slots`, in their order.
  mutating func keep(_ slots: [Int]) {
    var kept: [UInt64] = []
    kept.reserveCapacity(slots.count * words)
    for slot in slots { kept += bits[slot * words..<(slot + 1) * words] }
    bits = kept
  }

  var reservedBytes: Int { bits.capacity * MemoryLayout<UInt64>.stride }

  /// The `count` places (or all that are allowed, when fewer) whose codes differ least from `query`'s, in no
  /// particular order; the last distance taken is cut in place order. `allowed` filters places.
  func nearest(to query: [UInt64], count: Int, allowed: ((Int) -> Bool)?) -> [Int] {
    let total = bits.count / words
    guard count < total else { return (0..<total).filter { allowed?($0) ?? true } }
    var distances = [UInt16](repeating: .max, count: total)
    var histogram = [Int](repeating: 0, count: words * 64 + 1)
    bits.withUnsafeBufferPointer { codes in
      query.withUnsafeBufferPointer { probe in
        for slot in 0..<total {
          if let allowed, !allowed(slot) { continue }
          var distance = 0
          let base = slot * words
          for word in 0..<words { distance &+= (codes[base + word] ^ probe[word]).nonzeroBitCount }
          distances[slot] = UInt16(distance)
          histogram[distance] += 1
        }
      }
    }
    // The smallest distance at which `count` places are reached: every place nearer, and some at it.
    var cut = 0
    var reached = 0
    while cut < histogram.count - 1, reached + histogram[cut] < count {
      reached += histogram[cut]
      cut += 1
    }
    var atCut = count - reached
    var chosen: [Int] = []
    chosen.reserveCapacity(count)
    for slot in 0..<total {
      let distance = Int(distances[slot])
      if distance < cut {
        chosen.append(slot)
      } else if distance == cut, atCut > 0 {
        chosen.append(slot)
        atCut -= 1
      }
    }
    return chosen
  }
}
