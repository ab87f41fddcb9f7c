import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

@Suite("Runtime presets: impact before, llama.cpp's numbers after", .heavy)
struct RuntimeSettingsTests {
  @Test func presetsAndRanges() throws {
    #expect(
      RuntimeSettings.preset(.efficient, processors: 8)
        == RuntimeSettings(
          preset: .efficient, contextSize: 1024, threads: 4, batchSize: 128, gpuLayers: .auto))
    #expect(RuntimeSettings.preset(.efficient, processors: 1).threads == 1)
    #expect(RuntimeSettings.preset(.quality).contextSize == 8192)
    #expect(throws: InvalidParameterError.self) { try RuntimeSettings(preset: .custom, contextSize: 100).validate() }
    #expect(throws: InvalidParameterError.self) {
      try RuntimeSettings(preset: .custom, threads: 17).validate(processors: 8)
    }
    #expect(throws: InvalidParameterError.self) { try RuntimeSettings(preset: .custom, batchSize: 8).validate() }
    try RuntimeSettings(preset: .custom, contextSize: 2048, threads: 16, batchSize: 64).validate(processors: 8)
    for parallel in [0, 17] {
      #expect(throws: InvalidParameterError.self) { try RuntimeSettings(parallel: parallel).validate() }
    }
    try RuntimeSettings(parallel: 4).validate()
    #expect(
      RuntimeSettings(parallel: 4).options(for: LocalModelOptions(path: "m"), recommended: nil, trained: nil).parallel
        == 4)
    // A context is never asked beyond what the model was trained on.
    let options = RuntimeSettings.preset(.quality).options(
      for: LocalModelOptions(path: "m.gguf"), recommended: 4096, trained: 2048)
    #expect(options.contextSize == 2048)
    #expect(
      RuntimeSettings.preset(.balanced).options(for: LocalModelOptions(path: "m"), recommended: 4096, trained: 8192)
        .contextSize == 4096)
  }

  @Test func withNothingSayingOtherwiseTheContextFollowsTheMachinesMemory() {
    let gigabyte: UInt64 = 1_000_000_000
    #expect(RuntimeSettings.machineContext(installedBytes: 4 * gigabyte) == 4096)
    #expect(RuntimeSettings.machineContext(installedBytes: 6 * gigabyte - 1) == 4096)
    #expect(RuntimeSettings.machineContext(installedBytes: 6 * gigabyte) == 8192)
    let balanced = RuntimeSettings.preset(.balanced)
    let bare = LocalModelOptions(path: "own.gguf")
    func context(recommended: Int?, trained: Int?, memory: UInt64) -> Int? {
      balanced.options(for: bare, recommended: recommended, trained: trained, installedBytes: memory).contextSize
    }
    #expect(context(recommended: nil, trained: 131_072, memory: 16 * gigabyte) == 8192)
    #expect(context(recommended: nil, trained: 131_072, memory: 4 * gigabyte) == 4096)
    // Within what the model allows.
    #expect(context(recommended: nil, trained: 2048, memory: 16 * gigabyte) == 2048)
    // A catalogue's recommendation, a preset's number and the user's own say otherwise.
    #expect(context(recommended: 4096, trained: 8192, memory: 16 * gigabyte) == 4096)
    #expect(
      RuntimeSettings.preset(.efficient).options(
        for: bare, recommended: nil, trained: 8192, installedBytes: 16 * gigabyte
      ).contextSize == 1024)
    #expect(
      RuntimeSettings(preset: .custom, contextSize: 2048).options(
        for: bare, recommended: nil, trained: 8192, installedBytes: 4 * gigabyte
      ).contextSize == 2048)
  }

  @Test func aModelTheCatalogueDoesNotKnowLoadsWithTheMachinesContext() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // SmolLM2 (trained on 8,192 tokens) under a name of the user's own: the catalogue's 4,096 no longer applies.
    let own = folder.appendingPathComponent("my-own-model.gguf")
    try FileManager.default.createSymbolicLink(atPath: own.path, withDestinationPath: TestModels.smolLM2)
    let machine = RuntimeSettings.machineContext(installedBytes: SystemMemory.installedBytes())
    #expect(Engine.loadOptions(path: own.path, entry: nil, settings: .preset(.balanced)).contextSize == machine)
    #expect(
      Engine.loadOptions(path: TestModels.smolLM2, entry: nil, settings: .preset(.balanced)).contextSize == 4096)

    var configuration = EngineConfiguration(paths: HearthPaths(home: folder), environment: [:])
    configuration.model = .file(path: own.path)
    configuration.provider = .local
    configuration.chat.actions = false
    configuration.chat.memory = false
    let engine = try await Engine.open(configuration)
    #expect(try #require(engine.model).contextSize == machine)
  }

  @Test func theRiskWeighsMemoryAndTheAnswerAgainstTheWindow() {
    func side(_ context: Int, megabytes: UInt64) -> RuntimeImpact.Side {
      RuntimeImpact.Side(
        contextSize: context, threads: 2, batchSize: 512, estimatedBytes: megabytes << 20, kvCacheBytes: 0)
    }
    let now = side(4096, megabytes: 200)
    func risk(_ next: RuntimeImpact.Side, room: UInt64 = 8 << 30) -> RuntimeRisk {
      RuntimeRisk.assess(from: now, to: next, roomBytes: room, answerTokens: 512, instructionTokens: 900)
    }
    #expect(risk(side(8192, megabytes: 300)).level == .low)
    #expect(risk(side(8192, megabytes: 300)).reasons.isEmpty)
    #expect(risk(side(4096, megabytes: 300), room: 500 << 20).memory == .medium)
    let tooBig = risk(side(4096, megabytes: 450), room: 500 << 20)
    #expect(tooBig.memory == .high && tooBig.level == .high)
    #expect(
      tooBig.reasons == [
        "the model would take 450 MiB of the 500 MiB available: it may not load, or leave the machine swapping"
      ])
    // 900 + 512 tokens need 1412 of the window; twice that leaves room for a conversation.
    #expect(risk(side(1024, megabytes: 100)).answers == .high)
    #expect(risk(side(2048, megabytes: 100)).answers == .medium)
    #expect(risk(side(3072, megabytes: 100)).answers == .low)
    // A longer window than now is never a risk to answers.
    #expect(
      RuntimeRisk.assess(
        from: side(1024, megabytes: 100), to: side(2048, megabytes: 100), roomBytes: 8 << 30, answerTokens: 512,
        instructionTokens: 900
      ).answers == .low)
  }

  @Test func readingAheadReadsTheWholeFileAndALoadWithItAnswers() async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("ahead.bin")
    try Data(repeating: 7, count: (9 << 20) + 5).write(to: file)
    #expect(try await PageCache.warm(file.path).bytes == UInt64((9 << 20) + 5))
    await #expect(throws: (any Error).self) { try await PageCache.warm(folder.appendingPathComponent("none").path) }

    var settings = RuntimeSettings.preset(.balanced)
    settings.prefetch = true
    let options = settings.options(for: LocalModelOptions(path: TestModels.smolLM2), recommended: 4096, trained: 8192)
    #expect(options.prefetch)
    let model = try await LocalModel.load(options)
    var answer = ""
    for try await event in model.generate(
      messages: [ChatMessage(role: .user, content: "Hi")], options: GenerationOptions(maxNewTokens: 4))
    {
      if case .token(let piece) = event { answer += piece }
    }
    #expect(!answer.isEmpty)
  }

  @Test func speedFactorsFollowThreadsAndBatch() {
    let now = RuntimeImpact.Side(contextSize: 4096, threads: 2, batchSize: 512, estimatedBytes: 0, kvCacheBytes: 0)
    let half = RuntimeImpact.Side(contextSize: 1024, threads: 1, batchSize: 128, estimatedBytes: 0, kvCacheBytes: 0)
    let (generation, prompt) = RuntimeImpact.speedFactors(from: now, to: half, processors: 2)
    #expect(generation == 0.5)
    #expect(prompt == 0.4)
    // More threads than cores buys nothing.
    let many = RuntimeImpact.Side(contextSize: 4096, threads: 8, batchSize: 512, estimatedBytes: 0, kvCacheBytes: 0)
    #expect(RuntimeImpact.speedFactors(from: now, to: many, processors: 2).0 == 1)
  }

  @Test func applyingLoadsTheNewSettingsOnTheNextTurnAndValidateReadsThemBack() async throws {
    let home = try TestModels.temporaryDirectory()
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: home, models: URL(fileURLWithPath: TestModels.directory)), environment: [:])
    configuration.model = .file(path: TestModels.smolLM2)
    configuration.provider = .local
    configuration.chat.actions = false
    configuration.chat.memory = false
    let engine = try await Engine.open(configuration)
    let before = try #require(engine.model)
    #expect(before.contextSize == 4096)

    let impact = try engine.applyRuntime(.preset(.efficient, processors: 2))
    #expect(impact.proposed.contextSize == 1024)
    #expect(impact.proposed.kvCacheBytes * 4 == impact.current.kvCacheBytes)
    #expect(impact.proposed.estimatedBytes < impact.current.estimatedBytes)
    // Applied, not yet loaded: the model in memory is the old one until a turn needs it.
    #expect(engine.model === before)
    let test = try await engine.testRuntime()
    #expect(engine.model?.contextSize == 1024)
    #expect(engine.model?.threads == 1)
    #expect(test.loadMs != nil)
    #expect((test.tokensPerSecond ?? 0) > 0)
    #expect(try engine.lastRuntimeTest() == test)
    #expect(try await engine.validateRuntime().allSatisfy { $0.verdict == "ok" })

    // llama.cpp rounds a context up to a multiple of 256: validate reports it.
    try engine.applyRuntime(RuntimeSettings(preset: .custom, contextSize: 1000))
    let checks = try await engine.validateRuntime()
    let context = try #require(checks.first { $0.name == "context size" })
    #expect(context.wanted == "1000")
    #expect(context.given == "1024")
    #expect(context.verdict == "differs")
    #expect(try engine.runtimeSettings().contextSize == 1000)

    // Saved settings are what the next process loads with.
    try engine.applyRuntime(.preset(.efficient, processors: 2))
    let reopened = try await Engine.open(configuration)
    #expect(reopened.model?.contextSize == 1024)
  }
}

extension RuntimeSettingsTests {
  @Test func speedsOfTestedSettingsAreComparedAsMeasured() async throws {
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: try TestModels.temporaryDirectory(), models: URL(fileURLWithPath: TestModels.directory)),
      environment: [:])
    configuration.model = .file(path: TestModels.smolLM2)
    configuration.provider = .local
    let engine = try await Engine.open(configuration)
    let efficient = RuntimeSettings.preset(.efficient, processors: 2)
    #expect(try engine.previewRuntime(efficient).speedSource == .rough)
    let balanced = try await engine.testRuntime()
    try engine.applyRuntime(efficient)
    let slow = try await engine.testRuntime()
    #expect(slow.threads == 1)
    #expect(balanced.threads == Processors.available)
    // The efficient model is in memory now: going back to balanced is compared from it, as measured.
    let impact = try engine.previewRuntime(.preset(.balanced))
    #expect(impact.speedSource == .measured)
    let expected = ((balanced.tokensPerSecond ?? 0) / (slow.tokensPerSecond ?? 1) * 100).rounded() / 100
    #expect(impact.generationSpeedFactor == expected)
    #expect(try engine.runtimeTests().count == 2)
  }
}
