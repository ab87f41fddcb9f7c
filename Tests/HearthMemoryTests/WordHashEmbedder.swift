import HearthCore
import HearthMemory
import HearthStore

/// A stand-in embedding model for unit tests of the memory's own logic: a bag of hashed words, so texts
/// sharing words are similar. One token per word, plus two around the text as BERT adds.
struct WordHashEmbedder: TextEmbedder {
  var name = "word-hash"
  var dimension = 64

  func prepare() async throws -> EmbedderInfo {
    EmbedderInfo(
      identity: MemoryIndexIdentity(model: name, dimension: dimension), maxTokens: 512,
      countTokens: { Self.words($0).count + 2 })
  }

  func embed(_ texts: [String]) async throws -> [[Float]] {
    texts.map { text in
      var vector = [Float](repeating: 0, count: dimension)
      for word in Self.words(text) {
        vector[Int(UInt64(StableHash.hex(word.lowercased()), radix: 16)! % UInt64(dimension))] += 1
      }
      let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
      return norm > 0 ? vector.map { $0 / norm } : vector
    }
  }

  static func words(_ text: String) -> [Substring] {
    text.split { !($0.isLetter || $0.isNumber) }
  }
}
