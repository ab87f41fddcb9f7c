import Foundation
import HearthCore
import Testing

@testable import HearthMemory

@Suite("Chunking")
struct ChunkerTests {
  static let countWords: @Sendable (String) -> Int = { text in text.split(whereSeparator: \.isWhitespace).count + 2 }

  static let document = """
    # Boiler

    The boiler is in the cellar. It was serviced in March by Verdant Heating.

    ## Noises

    It bangs when the heating starts in the morning. The engineer said the pump is fine. \
    Bleed the radiators first. Then check the pressure gauge reads between one and two bar.

    ## Codes

    - F28: no ignition, reset once
    - F22: low pressure, top up

    ```
    reset: hold the button for 5 seconds
    ```
    """

  @Test("pieces follow headings and keep the byte offsets of their text")
  func offsetsAndHeadings() {
    let chunker = Chunker(options: ChunkingOptions(tokenBudget: 24, overlap: 6), countTokens: Self.countWords)
    let chunks = chunker.chunks(of: Self.document, sourceID: "file:/boiler.md")
    let bytes = Array(Self.document.utf8)
    #expect(chunks.count >= 4)
    for chunk in chunks {
      #expect(String(decoding: bytes[chunk.start..<chunk.end], as: UTF8.self) == chunk.text)
      #expect(chunk.tokenCount <= 24, "\(chunk.text)")
      #expect(!chunk.text.hasPrefix("#"))
    }
    #expect(chunks.first?.heading == "Boiler")
    #expect(chunks.contains { $0.heading == "Boiler › Noises" && $0.text.contains("bangs") })
    #expect(chunks.contains { $0.heading == "Boiler › Codes" && $0.text.contains("F28") })
    #expect(chunks.map(\.ordinal) == Array(0..<chunks.count))
  }

  @Test("a cut inside a paragraph repeats the sentence before it; a new paragraph starts clean")
  func overlap() {
    let paragraph = (1...12).map { "Sentence \($0) has five words." }.joined(separator: " ")
    let chunker = Chunker(options: ChunkingOptions(tokenBudget: 20, overlap: 6), countTokens: Self.countWords)
    let chunks = chunker.chunks(of: paragraph, sourceID: "x")
    #expect(chunks.count > 2)
    for (previous, next) in zip(chunks, chunks.dropFirst()) {
      #expect(next.start < previous.end, "pieces overlap")
    }
    let two = chunker.chunks(of: "First paragraph here.\n\nSecond paragraph here.", sourceID: "y")
    #expect(two.count == 1)
  }

  @Test("editing one section keeps the ids of the others")
  func stableIDs() {
    let chunker = Chunker(options: ChunkingOptions(tokenBudget: 24, overlap: 0), countTokens: Self.countWords)
    let before = chunker.chunks(of: Self.document, sourceID: "s")
    let edited = Self.document.replacingOccurrences(of: "F22: low pressure", with: "F22: pressure under 1 bar")
    let after = chunker.chunks(of: edited, sourceID: "s")
    let kept = Set(before.map(\.id)).intersection(after.map(\.id))
    #expect(kept.count == before.count - 1)
    #expect(Set(chunker.chunks(of: Self.document, sourceID: "other").map(\.id)).isDisjoint(with: before.map(\.id)))
  }

  @Test("a sentence longer than a piece is cut between words, and a run without spaces between characters")
  func longRuns() {
    let chunker = Chunker(
      options: ChunkingOptions(tokenBudget: 10, overlap: 0),
      countTokens: { text in
        text.unicodeScalars.count / 4 + 2
      })
    let long = String(repeating: "ü", count: 300) + " " + (0..<60).map { "w\($0)" }.joined(separator: " ")
    let chunks = chunker.chunks(of: long, sourceID: "z")
    let bytes = Array(long.utf8)
    #expect(chunks.count > 5)
    for chunk in chunks {
      #expect(chunk.tokenCount <= 10)
      #expect(String(decoding: bytes[chunk.start..<chunk.end], as: UTF8.self) == chunk.text)
      #expect(!chunk.text.contains("\u{FFFD}"))
    }
    #expect(chunks.map(\.text).joined().filter { $0 == "ü" }.count == 300)
  }

  @Test("empty and blank texts give no pieces")
  func empty() {
    let chunker = Chunker(countTokens: Self.countWords)
    #expect(chunker.chunks(of: "", sourceID: "e").isEmpty)
    #expect(chunker.chunks(of: "\n\n   \n", sourceID: "e").isEmpty)
  }
}
