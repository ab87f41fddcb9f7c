import Foundation
import Testing

@testable import HearthBackup

@Suite("zlib streams in pieces")
struct ZlibStreamTests {
  private func deflated(_ data: Data) throws -> [UInt8] {
    let deflater = try Deflater()
    var out: [UInt8] = []
    try data.withUnsafeBytes { bytes in try deflater.add(bytes) { out += $0 } }
    try deflater.finish { out += $0 }
    return out
  }

  @Test func aFewBytesThatInflateToMegabytesComeOutAPieceAtATime() throws {
    // 16 MiB of zeros deflate to a few kilobytes: the ratio a crafted backup would use to exhaust memory.
    let original = Data(count: 16 << 20)
    let compressed = try deflated(original)
    #expect(compressed.count < 64 * 1024)
    // Fed in frames of a few bytes, of 4 KiB and all at once: the pieces never outgrow their size either way.
    for frameSize in [7, 4_096, compressed.count] {
      let inflater = try Inflater()
      var total = 0
      var largest = 0
      for start in stride(from: 0, to: compressed.count, by: frameSize) {
        inflater.feed(Array(compressed[start..<min(start + frameSize, compressed.count)]))
        while let piece = try inflater.next() {
          total += piece.count
          largest = max(largest, piece.count)
          #expect(piece.allSatisfy { $0 == 0 })
        }
      }
      #expect(total == original.count, "frames of \(frameSize) bytes")
      #expect(largest <= Inflater.pieceSize)
    }
  }

  @Test func textComesBackWholeAndBytesAfterTheEndAreRefused() throws {
    var generator = SystemRandomNumberGenerator()
    let original = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let compressed = try deflated(original)
    let inflater = try Inflater()
    inflater.feed(compressed)
    var out: [UInt8] = []
    while let piece = try inflater.next() { out += piece }
    #expect(Data(out) == original)

    let trailing = try Inflater()
    trailing.feed(compressed + [1, 2, 3])
    #expect(throws: Inflater.InflateError.self) {
      while try trailing.next() != nil {}
    }
  }
}
