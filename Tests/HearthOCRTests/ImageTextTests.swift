import Foundation
import HearthOCR
import Testing

@Suite("Text in images, read by Tesseract")
struct ImageTextTests {
  /// A PNG of two lines set in DejaVu Sans, 34 px, black on white.
  static var sentence: Data {
    get throws {
      try Data(contentsOf: #require(Bundle.module.url(forResource: "Fixtures/sentence.png", withExtension: nil)))
    }
  }

  @Test func theSentenceInAnImageIsRead() async throws {
    let read = try await ImageText.read(try Self.sentence, name: "sentence.png")
    let words = read.text.replacingOccurrences(of: "\n", with: " ")
    #expect(words.contains("The spare key is under the blue flowerpot"), "\(read.text)")
    #expect(words.contains("by the back door"))
    #expect(read.confidence > 60)
  }

  @Test func bytesThatAreNoImageAreRefusedByName() async throws {
    await #expect(throws: ImageTextError.notAnImage(name: "notes.png")) {
      _ = try await ImageText.read(Data("not an image".utf8), name: "notes.png")
    }
    // A PNG header with nothing after it.
    await #expect(throws: ImageTextError.self) {
      _ = try await ImageText.read(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), name: "cut.png")
    }
  }
}
