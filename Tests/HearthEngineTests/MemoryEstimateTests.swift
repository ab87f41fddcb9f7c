import Foundation
import HearthEngine
import HearthTestSupport
import Testing

@Suite("The memory estimate before a load", .heavy)
struct MemoryEstimateTests {
  @Test func theKVCacheIsWhatLlamaCppAllocates() throws {
    // llama.cpp reports "llama_kv_cache: size = 90.00 MiB (4096 cells, 30 layers)" for SmolLM2 at 4096.
    let smol = try ModelShape(path: TestModels.smolLM2).estimate(contextSize: 4096)
    #expect(smol.kvCache == 90 << 20)
    #expect(smol.weights > 90 << 20 && smol.weights < 98_362_432)
    // Gemma 3 keeps its sliding-window layers whole: 18 layers × 4096 cells × 1 KiB.
    let gemma = try ModelShape(path: TestModels.gemma3).estimate(contextSize: 4096)
    #expect(gemma.kvCache == 72 << 20)
    #expect(try ModelShape(path: TestModels.smolLM2).estimate(contextSize: 8192).kvCache == 180 << 20)
  }

  @Test func theLargestContextThatFitsIsOffered() throws {
    let shape = try ModelShape(path: TestModels.smolLM2)
    let budget = shape.estimate(contextSize: 1024).total + 1000
    #expect(shape.largestContext(fitting: budget, upTo: 8192) == 1024)
    #expect(shape.largestContext(fitting: 1 << 20, upTo: 8192) == nil)
    #expect(shape.largestContext(fitting: .max, upTo: 8192) == 8192)
  }

  @Test func aModelThatDoesNotFitIsRefusedWithTheNumbers() async throws {
    let home = try TestModels.temporaryDirectory()
    let limited = EngineConfiguration(
      paths: HearthPaths(home: home), model: .file(path: TestModels.smolLM2),
      environment: ["HEARTH_MEMORY_LIMIT": "150MiB"])
    let error = await #expect(throws: ModelTooLargeError.self) { _ = try await Engine.open(limited) }
    #expect(error?.budget.source == "HEARTH_MEMORY_LIMIT")
    #expect(error?.estimate.contextSize == 4096)
    let offered = try #require(error?.largestContext)
    #expect(offered < 4096)
    #expect(error?.description.contains("needs about 222 MiB") == true)
    #expect(error?.description.contains("only 150 MiB is available") == true)

    // The context offered does load within the same limit.
    let fitting = EngineConfiguration(
      paths: HearthPaths(home: home), model: .file(path: TestModels.smolLM2, contextSize: offered),
      environment: ["HEARTH_MEMORY_LIMIT": "150MiB"])
    let engine = try await Engine.open(fitting)
    #expect(engine.model?.contextSize == offered)

    let bad = EngineConfiguration(
      paths: HearthPaths(home: home), model: .file(path: TestModels.smolLM2),
      environment: ["HEARTH_MEMORY_LIMIT": "lots"])
    await #expect { _ = try await Engine.open(bad) } throws: { "\($0)".contains("HEARTH_MEMORY_LIMIT") }
  }
}
