/// A QR code symbol (ISO/IEC 18004) holding some bytes, at error correction level M (about 15 % of the symbol
/// may be lost), in the smallest of versions 1 to 10 that holds them: up to 213 bytes, which any address fits.
///
/// Hearth draws one on its `/ca` page so that a phone's camera opens the server's address; nothing more is
/// needed, so byte mode and one error correction level are all it writes.
public struct QRCode: Sendable, Hashable {
  /// The version, 1 to 10: a version-`v` symbol is `17 + 4v` modules wide.
  public let version: Int
  /// The mask pattern (0 to 7) chosen for the fewest penalty points.
  public let mask: Int
  /// Modules, row by row from the top left: `true` is dark.
  public let modules: [[Bool]]

  /// Modules per side.
  public var size: Int { modules.count }

  /// Encodes `bytes` in byte mode.
  /// - Throws: ``QRCodeError/tooLong(_:)`` for more than 213 bytes.
  public init(bytes: [UInt8]) throws(QRCodeError) {
    guard let version = (1...10).first(where: { Self.capacity(version: $0) >= bytes.count }) else {
      throw .tooLong(bytes.count)
    }
    let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
    var grid = ModuleGrid(version: version)
    grid.placeData(codewords)
    var best: (mask: Int, grid: ModuleGrid, penalty: Int)?
    for mask in 0..<8 {
      var candidate = grid
      candidate.applyMask(mask)
      candidate.drawFormatBits(Self.formatBits(mask: mask))
      let penalty = candidate.penalty()
      if best == nil || penalty < best!.penalty { best = (mask, candidate, penalty) }
    }
    self.version = version
    self.mask = best!.mask
    self.modules = best!.grid.dark
  }

  /// Encodes the UTF-8 of `text`.
  public init(text: String) throws(QRCodeError) {
    try self.init(bytes: Array(text.utf8))
  }

  /// How many bytes a symbol of `version` holds at level M in byte mode.
  static func capacity(version: Int) -> Int {
    let countBits = version < 10 ? 8 : 16
    return (Self.blocks[version - 1].dataCodewords * 8 - 4 - countBits) / 8
  }

  /// The data codewords: the mode (byte), the count, the bytes, a terminator, then the pad codewords.
  static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
    var bits = BitBuffer()
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: version < 10 ? 8 : 16)
    for byte in bytes { bits.append(Int(byte), count: 8) }
    let capacity = blocks[version - 1].dataCodewords * 8
    bits.append(0, count: min(4, capacity - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var codewords = bits.bytes
    var pad: UInt8 = 0xEC
    while codewords.count < capacity / 8 {
      codewords.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return codewords
  }

  /// Splits the data into the version's blocks, adds each block's error correction codewords, and interleaves
  /// them: the first codeword of every block, then the second…, then the error correction the same way.
  static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
    let layout = blocks[version - 1]
    var pieces: [[UInt8]] = []
    var start = 0
    for (count, length) in layout.groups {
      for _ in 0..<count {
        pieces.append(Array(data[start..<start + length]))
        start += length
      }
    }
    let corrections = pieces.map { ReedSolomon.remainder(of: $0, degree: layout.correctionPerBlock) }
    var result: [UInt8] = []
    for index in 0..<(pieces.map(\.count).max() ?? 0) {
      for piece in pieces where index < piece.count { result.append(piece[index]) }
    }
    for index in 0..<layout.correctionPerBlock {
      for correction in corrections { result.append(correction[index]) }
    }
    return result
  }

  /// The 15 format bits for level M and `mask`: five data bits, ten of a BCH code, then XORed with the fixed
  /// pattern so that they are never all light.
  static func formatBits(mask: Int, level: Int = 0b00) -> Int {
    let data = level << 3 | mask
    return (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412
  }

  /// The 18 version bits of a symbol from version 7: six data bits and twelve of a BCH code.
  static func versionBits(_ version: Int) -> Int {
    version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12)
  }

  private static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
    var remainder = value
    var bit = remainder.bitWidth - remainder.leadingZeroBitCount - 1
    while bit >= degree {
      if remainder >> bit & 1 == 1 { remainder ^= generator << (bit - degree) }
      bit -= 1
    }
    return remainder
  }

  /// Each version's blocks at level M: the error correction codewords per block and the groups of blocks (how
  /// many, and the data codewords in each), from the standard's table.
  static let blocks: [BlockLayout] = [
    BlockLayout(correctionPerBlock: 10, groups: [(1, 16)]),
    BlockLayout(correctionPerBlock: 16, groups: [(1, 28)]),
    BlockLayout(correctionPerBlock: 26, groups: [(1, 44)]),
    BlockLayout(correctionPerBlock: 18, groups: [(2, 32)]),
    BlockLayout(correctionPerBlock: 24, groups: [(2, 43)]),
    BlockLayout(correctionPerBlock: 16, groups: [(4, 27)]),
    BlockLayout(correctionPerBlock: 18, groups: [(4, 31)]),
    BlockLayout(correctionPerBlock: 22, groups: [(2, 38), (2, 39)]),
    BlockLayout(correctionPerBlock: 22, groups: [(3, 36), (2, 37)]),
    BlockLayout(correctionPerBlock: 26, groups: [(4, 43), (1, 44)]),
  ]

  struct BlockLayout: Sendable {
    let correctionPerBlock: Int
    let groups: [(count: Int, length: Int)]
    var dataCodewords: Int { groups.reduce(0) { $0 + $1.count * $1.length } }
    var totalCodewords: Int { dataCodewords + correctionPerBlock * groups.reduce(0) { $0 + $1.count } }
  }
}

/// Text a QR code cannot hold.
public enum QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// More bytes than a version-10 symbol holds at level M (213).
  case tooLong(Int)

  public var description: String {
    switch self {
    case .tooLong(let count): "\(count) bytes do not fit in a QR code of version 10 or smaller (213 at most)"
    }
  }
}

/// Bits appended most significant first.
struct BitBuffer {
  private(set) var bits: [Bool] = []
  var count: Int { bits.count }

  mutating func append(_ value: Int, count: Int) {
    for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
  }

  var bytes: [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
    }
  }
}

/// Reed–Solomon error correction over GF(256) with the QR code's field polynomial (x⁸ + x⁴ + x³ + x² + 1).
enum ReedSolomon {
  /// The `degree` error correction codewords of `data`: the remainder of data·x^degree divided by the
  /// generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)).
  static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
    let generator = generatorPolynomial(degree: degree)
    var remainder = [UInt8](repeating: 0, count: degree)
    for byte in data {
      let factor = byte ^ remainder[0]
      remainder.removeFirst()
      remainder.append(0)
      for index in 0..<degree { remainder[index] ^= multiply(generator[index + 1], factor) }
    }
    return remainder
  }

  /// Coefficients from the highest power down; the leading one is 1.
  static func generatorPolynomial(degree: Int) -> [UInt8] {
    var polynomial: [UInt8] = [1]
    var root: UInt8 = 1
    for _ in 0..<degree {
      var next = polynomial + [0]
      for index in 0..<polynomial.count { next[index + 1] ^= multiply(polynomial[index], root) }
      polynomial = next
      root = multiply(root, 2)
    }
    return polynomial
  }

  static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
    var product = 0
    var a = Int(left)
    var b = Int(right)
    while b > 0 {
      if b & 1 == 1 { product ^= a }
      a <<= 1
      if a & 0x100 != 0 { a ^= 0x11D }
      b >>= 1
    }
    return UInt8(product)
  }
}
