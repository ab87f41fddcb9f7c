import Testing

@testable import HearthQR

/// The encoder against the standard's own figures; a reader of another origin (zxing-cpp) decodes Hearth's
/// symbols in the browser test of the `/ca` page.
@Suite("QR codes")
struct QRCodeTests {
  @Test func errorCorrectionMatchesTheStandardsWorkedExample() {
    // ISO/IEC 18004's example: "01234567" as a 1-M symbol, its 16 data codewords and 10 of error correction.
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
    ]
    #expect(
      ReedSolomon.remainder(of: data, degree: 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
  }

  @Test func formatAndVersionBitsMatchTheStandardsTables() {
    #expect(QRCode.formatBits(mask: 0) == 0b101_0100_0001_0010)
    #expect(QRCode.formatBits(mask: 0, level: 0b01) == 0b111_0111_1100_0100)
    #expect(QRCode.formatBits(mask: 7) == 0b100_1010_1010_0000)
    #expect(QRCode.versionBits(7) == 0x07C94)
    #expect(QRCode.versionBits(10) == 0x0A4D3)
  }

  @Test func everyVersionsDataAreaHoldsExactlyItsCodewords() {
    for version in 1...10 {
      let grid = ModuleGrid(version: version)
      var placed = grid
      // Every free module dark: counting them counts the data area.
      placed.placeData([UInt8](repeating: 0xFF, count: 400))
      let free = zip(grid.dark.joined(), placed.dark.joined()).filter { !$0 && $1 }.count
      #expect(free / 8 == QRCode.blocks[version - 1].totalCodewords, "version \(version)")
      #expect(free % 8 == [0, 7, 7, 7, 7, 7, 0, 0, 0, 0][version - 1], "remainder bits of version \(version)")
    }
  }

  @Test func theSmallestVersionThatHoldsTheTextIsChosen() throws {
    #expect(try QRCode(text: String(repeating: "a", count: 14)).version == 1)
    #expect(try QRCode(text: String(repeating: "a", count: 15)).version == 2)
    #expect(try QRCode(text: "https://192.168.178.20:8080/ca").version == 3)
    #expect(try QRCode(text: String(repeating: "a", count: 213)).version == 10)
    #expect(throws: QRCodeError.tooLong(214)) { try QRCode(text: String(repeating: "a", count: 214)) }
  }

  @Test func theSymbolHasItsFindersTimingAndFormatBits() throws {
    let code = try QRCode(text: "https://hearth.local:8443/ca")
    let size = code.size
    #expect(size == 17 + 4 * code.version)
    for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
      #expect((0..<7).allSatisfy { code.modules[top][left + $0] && code.modules[top + 6][left + $0] })
      #expect(!code.modules[top + 1][left + 1] && code.modules[top + 3][left + 3])
    }
    #expect((8..<(size - 8)).allSatisfy { code.modules[6][$0] == ($0 % 2 == 0) })
    #expect(code.modules[size - 8][8])
    // Both copies of the format bits say level M and the chosen mask.
    let bits = QRCode.formatBits(mask: code.mask)
    let first =
      (0..<6).map { code.modules[$0][8] } + [code.modules[7][8], code.modules[8][8], code.modules[8][7]]
      + (9..<15).map { code.modules[8][14 - $0] }
    let second = (0..<8).map { code.modules[8][size - 1 - $0] } + (8..<15).map { code.modules[size - 15 + $0][8] }
    let expected = (0..<15).map { bits >> $0 & 1 == 1 }
    #expect(first == expected)
    #expect(second == expected)
  }

  @Test func theSVGDrawsEachDarkModuleInsideAQuietZone() throws {
    let code = try QRCode(text: "hi")
    let svg = code.svg(pixelsPerModule: 4, title: "A <test> & more")
    #expect(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 29 29\"") && svg.contains("width=\"116\""))
    #expect(svg.contains("<title>A &lt;test&gt; &amp; more</title>"))
    #expect(!svg.contains("<script") && !svg.contains("style="))
    // The top-left finder's first row: seven dark modules from (4, 4).
    #expect(svg.contains("M4 4h7v1h-7z"))
  }
}
