import LlamaKit
import Testing

@Suite("UTF-8 assembly of token pieces")
struct UTF8AssemblerTests {
  @Test(arguments: ["🦙", "日本語", "café", "👩‍👩‍👧", "a🦙b"])
  func holdsBackSplitCharactersUntilComplete(_ text: String) {
    let bytes = Array(text.utf8)
    for split in 1..<bytes.count {
      var assembler = UTF8Assembler()
      let first = assembler.append(bytes[..<split])
      let second = assembler.append(bytes[split...])
      #expect(!first.contains("\u{FFFD}") && !second.contains("\u{FFFD}"))
      #expect(first + second + assembler.flush() == text)
    }
  }

  @Test func feedsOneByteAtATime() {
    let text = "Grüße 🦙 from 東京"
    var assembler = UTF8Assembler()
    var chunks: [String] = []
    for byte in text.utf8 {
      let chunk = assembler.append([byte])
      if !chunk.isEmpty { chunks.append(chunk) }
    }
    #expect(chunks.joined() == text)
    #expect(chunks.allSatisfy { !$0.contains("\u{FFFD}") })
    #expect(!assembler.hasPendingBytes)
  }

  @Test func replacesInvalidBytesInsteadOfWaitingForever() {
    var assembler = UTF8Assembler()
    #expect(assembler.append([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
    #expect(assembler.append([0xF0, 0x9F]) == "")
    #expect(assembler.hasPendingBytes)
    #expect(assembler.flush() == "\u{FFFD}")
  }
}
