import Foundation
import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Embeddings (all-MiniLM-L6-v2, real model)", .heavy)
struct EmbeddingTests {
  static let texts = [
    "hello world",
    "The boiler makes a banging noise when the heating starts in the morning.",
    "Why is my heater knocking?",
    "Paris is the capital of France.",
    "Le chat dort sur le canapé — naïve café ☕️",
  ]

  static let load = Task { () throws -> LlamaEmbedder in
    try await LlamaEmbedder.create(
      model: try await LlamaModel.load(path: TestModels.miniLM), threads: TestModels.threads)
  }

  @Test("vectors match llama.cpp's llama-embedding on the same model and texts (cosine ≥ 0.999)")
  func matchesLlamaEmbedding() async throws {
    let embedder = try await Self.load.value
    let ours = try await embedder.embed(Self.texts)
    let theirs = try Self.reference(Self.texts)
    #expect(ours.count == Self.texts.count && theirs.count == Self.texts.count)
    for (index, (a, b)) in zip(ours, theirs).enumerated() {
      #expect(a.count == 384)
      let cosine = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
      #expect(cosine >= 0.999, "text \(index): cosine \(cosine)")
    }
  }

  @Test("a batch gives the same vectors as one text at a time, each of unit length")
  func batchEqualsSingles() async throws {
    let embedder = try await Self.load.value
    let batch = try await embedder.embed(Self.texts)
    for (index, text) in Self.texts.enumerated() {
      let single = try await embedder.embed(text)
      let norm = single.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
      #expect(abs(norm - 1) < 1e-4)
      let cosine = zip(single, batch[index]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
      #expect(cosine > 0.9999, "text \(index)")
    }
    // Similar meanings are closer than unrelated ones.
    let heater = zip(batch[1], batch[2]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
    let paris = zip(batch[1], batch[3]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
    #expect(heater > paris + 0.2)
  }

  @Test("more texts than fit in one decode are split over several, in order")
  func manyTexts() async throws {
    let embedder = try await LlamaEmbedder.create(
      model: try await LlamaModel.load(path: TestModels.miniLM), batchTokens: 512, threads: TestModels.threads)
    let texts = (0..<150).map { "Sentence number \($0) talks about topic \($0 % 4)." }
    let vectors = try await embedder.embed(texts)
    #expect(vectors.count == 150)
    #expect(texts.count > embedder.maxSequences)
    let again = try await embedder.embed(texts[7])
    #expect(zip(again, vectors[7]).reduce(Float(0)) { $0 + $1.0 * $1.1 } > 0.9999)
  }

  @Test("a text longer than the model's window is refused, naming it, never cut")
  func tooLong() async throws {
    let embedder = try await Self.load.value
    let long = Array(repeating: "word", count: 2_000).joined(separator: " ")
    await #expect {
      _ = try await embedder.embed(["short", long])
    } throws: { error in
      guard case LlamaError.inputTooLong(let index, let tokens, let limit) = error else { return false }
      return index == 1 && tokens > limit && limit == 512
    }
    await #expect {
      _ = try await embedder.embed(["fine", ""])
    } throws: { error in
      if case LlamaError.emptyPrompt = error { true } else { false }
    }
  }

  @Test("a chat model without pooling is refused as an embedding model")
  func chatModelRefused() async throws {
    let model = try await LlamaModel.load(path: TestModels.smolLM2)
    await #expect {
      _ = try await LlamaEmbedder.create(model: model)
    } throws: { error in
      guard case LlamaError.notAnEmbeddingModel = error else { return false }
      return true
    }
  }

  /// Vectors from llama.cpp's own `llama-embedding` (mean pooling, L2-normalised). The tool prints through
  /// llama.cpp's asynchronous logger, which now and then loses the end of the output when the process exits
  /// (seen with the tool alone, about one run in ten, and three times in a row once while the other lane of
  /// `make test` ran): a cut-off output is asked for again, up to six times.
  static func reference(_ texts: [String]) throws -> [[Float]] {
    for _ in 0..<5 {
      if let vectors = try referenceOnce(texts, reporting: false) { return vectors }
    }
    return try referenceOnce(texts, reporting: true) ?? []
  }

  private static func referenceOnce(_ texts: [String], reporting: Bool) throws -> [[Float]]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestModels.llamaTool("llama-embedding"))
    process.arguments = [
      "-m", TestModels.miniLM, "-t", "2", "--embd-separator", "<#sep#>", "--embd-output-format", "array",
      "--embd-normalize", "2", "-p", texts.joined(separator: "<#sep#>"),
    ]
    let file = try TestModels.temporaryDirectory().appendingPathComponent("vectors.json")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    let output = try FileHandle(forWritingTo: file)
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try output.close()
    let data = try Data(contentsOf: file)
    #expect(process.terminationStatus == 0)
    let start = data.firstIndex(of: UInt8(ascii: "[")) ?? data.startIndex
    let json = Data(data[start...])
    let decoded: [[Float]]
    do {
      decoded = try JSONDecoder().decode([[Float]].self, from: json)
    } catch {
      guard reporting else { return nil }
      let tail = String(decoding: json.suffix(300), as: UTF8.self)
      Issue.record("llama-embedding printed \(json.count) bytes that do not decode (\(error)); they end with: \(tail)")
      return nil
    }
    return decoded
  }
}
