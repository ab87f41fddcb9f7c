import Foundation
import HearthBench
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore
import HearthTestSupport
import Testing

@Suite("Retrieval quality on the labelled set (all-MiniLM-L6-v2, real SQLite)", .heavy)
struct RetrievalQualityTests {
  static let set = RetrievalEvaluation(
    folder: TestModels.packageRoot.appendingPathComponent("Tests/HearthMemoryTests/Fixtures/retrieval"))

  @Test("hybrid retrieval finds more answers in its first five than vector or keyword search alone")
  func hybridBeatsBoth() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try HearthDatabase(path: folder.appendingPathComponent("hearth.sqlite").path)
    let memory = MemoryIndex(
      database: database, embedder: LocalEmbedder(path: TestModels.miniLM, threads: TestModels.threads))
    let indexed = try await Self.set.index(into: memory)
    #expect(indexed.files >= 120 && indexed.chunks >= 500, "\(indexed)")
    #expect(try Self.set.queries().count >= 50)
    let vector = try await Self.set.score(.vector, memory: memory)
    let keyword = try await Self.set.score(.keyword, memory: memory)
    let hybrid = try await Self.set.score(.hybrid, memory: memory)
    #expect(hybrid.found > vector.found, "hybrid \(hybrid.found), vector \(vector.found)")
    #expect(hybrid.found > keyword.found, "hybrid \(hybrid.found), keyword \(keyword.found)")
    #expect(hybrid.recall >= 0.8, "hybrid recall@5 \(hybrid.recall)")
  }
}
