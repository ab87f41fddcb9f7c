/// The modules of one symbol while it is drawn: the function patterns (finders, separators, timing, alignment,
/// the reserved format and version areas) first, then the data in the standard's zigzag, then a mask over the
/// data only.
struct ModuleGrid {
  let version: Int
  let size: Int
  private(set) var dark: [[Bool]]
  /// Modules of the function patterns, which data and masks never touch.
  private var reserved: [[Bool]]

  init(version: Int) {
    self.version = version
    size = 17 + 4 * version
    dark = Array(repeating: Array(repeating: false, count: size), count: size)
    reserved = dark
    drawFunctionPatterns()
  }

  private mutating func set(_ row: Int, _ column: Int, _ isDark: Bool) {
    dark[row][column] = isDark
    reserved[row][column] = true
  }

  private mutating func drawFunctionPatterns() {
    for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { drawFinder(top: row, left: column) }
    for index in 8..<(size - 8) {
      set(6, index, index % 2 == 0)
      set(index, 6, index % 2 == 0)
    }
    let centres = Self.alignmentCentres(version: version)
    for row in centres {
      for column in centres
      where !(row == 6 && column == 6) && !(row == 6 && column == centres.last!)
        && !(row == centres.last! && column == 6)
      {
        drawAlignment(row: row, column: column)
      }
    }
    // The format areas are reserved now and written per mask; the single dark module beside them is fixed.
    for index in 0..<9 {
      reserve(8, index)
      reserve(index, 8)
    }
    for index in 0..<8 {
      reserve(8, size - 1 - index)
      reserve(size - 1 - index, 8)
    }
    set(size - 8, 8, true)
    if version >= 7 { drawVersionBits(QRCode.versionBits(version)) }
  }

  private mutating func reserve(_ row: Int, _ column: Int) { reserved[row][column] = true }

  /// A 7 × 7 finder and its light separator, as far as the symbol reaches.
  private mutating func drawFinder(top: Int, left: Int) {
    for row in (top - 1)...(top + 7) {
      for column in (left - 1)...(left + 7) where (0..<size).contains(row) && (0..<size).contains(column) {
        let distance = max(abs(row - top - 3), abs(column - left - 3))
        set(row, column, distance != 2 && distance != 4)
      }
    }
  }

  private mutating func drawAlignment(row: Int, column: Int) {
    for dy in -2...2 {
      for dx in -2...2 { set(row + dy, column + dx, max(abs(dy), abs(dx)) != 1) }
    }
  }

  /// The rows and columns of the alignment patterns' centres.
  static func alignmentCentres(version: Int) -> [Int] {
    let table: [[Int]] = [
      [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]
    return table[version - 1]
  }

  private mutating func drawVersionBits(_ bits: Int) {
    for index in 0..<18 {
      let isDark = bits >> index & 1 == 1
      let near = index / 3
      let far = size - 11 + index % 3
      set(near, far, isDark)
      set(far, near, isDark)
    }
  }

  /// Both copies of the 15 format bits, least significant first, around the top-left finder and split
  /// between the other two.
  mutating func drawFormatBits(_ bits: Int) {
    func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
    for index in 0..<6 { dark[index][8] = bit(index) }
    dark[7][8] = bit(6)
    dark[8][8] = bit(7)
    dark[8][7] = bit(8)
    for index in 9..<15 { dark[8][14 - index] = bit(index) }
    for index in 0..<8 { dark[8][size - 1 - index] = bit(index) }
    for index in 8..<15 { dark[size - 15 + index][8] = bit(index) }
  }

  /// The codewords' bits, most significant first, up and down two-column strips from the bottom right,
  /// stepping over the vertical timing column; modules left over stay light.
  mutating func placeData(_ codewords: [UInt8]) {
    var bitIndex = 0
    let totalBits = codewords.count * 8
    var right = size - 1
    while right >= 1 {
      if right == 6 { right = 5 }
      let upward = ((right + 1) & 2) == 0
      for step in 0..<size {
        let row = upward ? size - 1 - step : step
        for column in [right, right - 1] where !reserved[row][column] {
          if bitIndex < totalBits {
            dark[row][column] = codewords[bitIndex >> 3] >> (7 - bitIndex & 7) & 1 == 1
            bitIndex += 1
          }
        }
      }
      right -= 2
    }
  }

  /// Flips the data modules where the mask's condition holds.
  mutating func applyMask(_ mask: Int) {
    for row in 0..<size {
      for column in 0..<size where !reserved[row][column] && Self.maskCondition(mask, row, column) {
        dark[row][column].toggle()
      }
    }
  }

  static func maskCondition(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
    switch mask {
    case 0: (row + column) % 2 == 0
    case 1: row % 2 == 0
    case 2: column % 3 == 0
    case 3: (row + column) % 3 == 0
    case 4: (row / 2 + column / 3) % 2 == 0
    case 5: row * column % 2 + row * column % 3 == 0
    case 6: (row * column % 2 + row * column % 3) % 2 == 0
    default: ((row + column) % 2 + row * column % 3) % 2 == 0
    }
  }

  /// The standard's penalty for a masked symbol: long runs of one colour, 2 × 2 blocks, finder-like patterns,
  /// and a dark share far from half. The mask with the fewest points reads best.
  func penalty() -> Int {
    var points = 0
    let columns = (0..<size).map { column in dark.map { $0[column] } }
    for line in dark + columns {
      points += Self.runPenalty(line) + Self.finderLikePenalty(line)
    }
    for row in 0..<(size - 1) {
      for column in 0..<(size - 1) {
        let colour = dark[row][column]
        if dark[row][column + 1] == colour && dark[row + 1][column] == colour && dark[row + 1][column + 1] == colour {
          points += 3
        }
      }
    }
    let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
    let percent = darkCount * 100 / (size * size)
    points += abs(percent - 50) / 5 * 10
    return points
  }

  private static func runPenalty(_ line: [Bool]) -> Int {
    var points = 0
    var run = 1
    for index in 1...line.count {
      if index < line.count && line[index] == line[index - 1] {
        run += 1
      } else {
        if run >= 5 { points += run - 2 }
        run = 1
      }
    }
    return points
  }

  /// Dark-light-dark-dark-dark-light-dark with four light modules (or the symbol's edge) on one side.
  private static func finderLikePenalty(_ line: [Bool]) -> Int {
    let pattern = [true, false, true, true, true, false, true]
    var points = 0
    for start in 0...(line.count - 7) where Array(line[start..<start + 7]) == pattern {
      let before = (start - 4..<start).allSatisfy { $0 < 0 || !line[$0] }
      let after = (start + 7..<start + 11).allSatisfy { $0 >= line.count || !line[$0] }
      if before || after { points += 40 }
    }
    return points
  }
}
