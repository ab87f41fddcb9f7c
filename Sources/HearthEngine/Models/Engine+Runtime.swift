public import Foundation
import HearthCore
import HearthStore
import LlamaKit

/// What a settings test measured: a tiny prompt through the model as the settings load it.
public struct RuntimeTestResult: Sendable, Hashable, Codable {
  public var at: Date
  public var settings: RuntimeSettings
  public var model: String
  /// How long the load took, when the test had to load the model.
  public var loadMs: Double?
  public var firstTokenMs: Double?
  public var tokensPerSecond: Double?
  public var promptTokensPerSecond: Double?
  public var generatedTokens: Int
  public var peakResidentBytes: UInt64?
  /// What llama.cpp held during the test: context, threads and batch.
  public var contextSize: Int?
  public var threads: Int?
  public var batchSize: Int?

  enum CodingKeys: String, CodingKey {
    case at, settings, model, threads
    case contextSize = "context_size"
    case batchSize = "batch_size"
    case loadMs = "load_ms"
    case firstTokenMs = "first_token_ms"
    case tokensPerSecond = "tokens_per_second"
    case promptTokensPerSecond = "prompt_tokens_per_second"
    case generatedTokens = "generated_tokens"
    case peakResidentBytes = "peak_resident_bytes"
  }
}

extension Engine {
  static let runtimeKey = "runtime"
  private static let runtimeTestsKey = "runtime-tests"
  /// Tests kept: the latest for each model and set of numbers.
  private static let runtimeTestsKept = 20

  /// The saved runtime settings, or the balanced preset.
  public func runtimeSettings() throws -> RuntimeSettings {
    try database.setting(Self.runtimeKey, as: RuntimeSettings.self) ?? .preset(.balanced)
  }

  /// The options a load of `path` asks for under `settings`, with `entry`'s recommended context and template.
  static func loadOptions(
    path: String, entry: ModelEntry?, settings: RuntimeSettings, base: LocalModelOptions? = nil
  ) -> LocalModelOptions {
    let shape = try? ModelShape(path: path)
    var options = base ?? LocalModelOptions(path: path)
    options.path = path
    // A catalogue model given by its path is known by its name and size.
    let known = entry ?? BundledModels.entry(forFile: path)
    options.chatTemplate = options.chatTemplate ?? known?.chatTemplate
    return settings.options(
      for: options, recommended: known?.recommendedContext,
      trained: shape?.trainedContext)
  }

  /// The chosen model's file and template, without the numbers earlier settings or flags gave it.
  static func bare(_ choice: LocalModelHost.Choice) -> LocalModelOptions {
    LocalModelOptions(path: choice.options.path, chatTemplate: choice.options.chatTemplate)
  }

  /// What `settings` would change for the chosen model: memory and the expected speed.
  /// - Throws: ``InvalidParameterError`` naming a number out of range; ``ChatError/modelNotReady`` without a
  ///   model; the header reader's error for a model file it cannot read.
  public func previewRuntime(_ settings: RuntimeSettings) throws -> RuntimeImpact {
    try settings.validate()
    guard let host else { throw ChatError.modelNotReady }
    let active = host.active
    let shape = try ModelShape(path: active.options.path)
    let entry = active.id.flatMap { id in
      logger.attempt("reading the model's registry entry") { try ModelRegistry(folder: paths.models).entry(named: id) }
    }
    let proposed = Self.loadOptions(
      path: active.options.path, entry: entry, settings: settings, base: Self.bare(active))
    let devices = GPUDevices.available()
    func side(
      _ options: LocalModelOptions, applied: (contextSize: Int, batchSize: Int, threads: Int)?,
      offloaded: Int? = nil
    ) -> RuntimeImpact.Side {
      let parallel = max(1, options.parallel ?? 1)
      // llama.cpp reports the whole context: every slot's window together.
      let context = applied.map { $0.contextSize / parallel } ?? options.contextSize ?? shape.defaultContext
      let estimate = shape.estimate(contextSize: context * parallel)
      let gpuLayers =
        offloaded
        ?? min(
          shape.layers + 1,
          GPUOffload.layers(
            options.gpuLayers, path: options.path, contextTokens: context * parallel, devices: devices))
      return RuntimeImpact.Side(
        contextSize: context,
        threads: applied?.threads ?? options.threads ?? Processors.available,
        batchSize: applied?.batchSize ?? min(options.batchSize ?? 512, context * parallel), parallel: parallel,
        estimatedBytes: estimate.total, kvCacheBytes: estimate.kvCache, gpuLayers: gpuLayers)
    }
    let loaded = host.loaded
    let isLoaded = loaded?.options.path == active.options.path
    let current = side(
      active.options, applied: isLoaded ? loaded?.applied : nil,
      offloaded: isLoaded ? loaded?.placement.offloadedLayers : nil)
    let next = side(proposed, applied: nil)
    var impact = Self.speeds(from: current, to: next, model: active.fileName) { measured($0, model: active.fileName) }
    impact.risk = try runtimeRisk(from: current, to: next, loaded: loaded != nil)
    return impact
  }

  /// What going from `current` to `next` risks: memory against what the machine has now (with what the loaded
  /// model would give back), and the window against the chat's longest answer after today's instructions.
  private func runtimeRisk(
    from current: RuntimeImpact.Side, to next: RuntimeImpact.Side, loaded: Bool
  ) throws -> RuntimeRisk {
    let budget = try MemoryBudget.current(environment: configuration.environment)
    let answer =
      logger.attempt("reading the chat settings") { try chatSettings().maxTokens } ?? ChatSettings().maxTokens
    let instructions = systemPrompt()
    let tokens = model?.countTokens(instructions) ?? instructions.utf8.count / 3
    // A fixed limit is what a load is checked against, whatever is loaded; the system's available memory grows by
    // what the loaded model gives back.
    let room =
      budget.source == "HEARTH_MEMORY_LIMIT" ? budget.bytes : budget.bytes + (loaded ? current.estimatedBytes : 0)
    return RuntimeRisk.assess(
      from: current, to: next, roomBytes: room,
      answerTokens: answer, instructionTokens: tokens)
  }

  /// The impact's speeds: measured when both sides were tested (`measured` finds a side's test), else a rough
  /// guess from threads and batch.
  private static func speeds(
    from current: RuntimeImpact.Side, to next: RuntimeImpact.Side, model: String,
    measured: (RuntimeImpact.Side) -> RuntimeTestResult?
  ) -> RuntimeImpact {
    // Speeds both settings were tested at are compared as measured; otherwise the factors are a rough guess.
    if let now = measured(current), let then = measured(next),
      let nowGeneration = now.tokensPerSecond, let thenGeneration = then.tokensPerSecond, nowGeneration > 0,
      let nowPrompt = now.promptTokensPerSecond, let thenPrompt = then.promptTokensPerSecond, nowPrompt > 0
    {
      return RuntimeImpact(
        model: model, current: current, proposed: next,
        generationSpeedFactor: (thenGeneration / nowGeneration * 100).rounded() / 100,
        promptSpeedFactor: (thenPrompt / nowPrompt * 100).rounded() / 100, speedSource: .measured)
    }
    let (generation, prompt) = RuntimeImpact.speedFactors(
      from: current, to: next, processors: Processors.available)
    return RuntimeImpact(
      model: model, current: current, proposed: next, generationSpeedFactor: generation,
      promptSpeedFactor: prompt, speedSource: .rough)
  }

  /// Checks and saves `settings`; the model loads with them on the next turn.
  /// - Throws: as ``previewRuntime(_:)``; `StoreError` when saving fails.
  @discardableResult
  public func applyRuntime(_ settings: RuntimeSettings) throws -> RuntimeImpact {
    let impact = try previewRuntime(settings)
    try database.setSetting(Self.runtimeKey, to: settings)
    if let host {
      let active = host.active
      let entry = active.id.flatMap { id in
        logger.attempt("reading the model's registry entry") {
          try ModelRegistry(folder: paths.models).entry(named: id)
        }
      }
      host.choose(
        LocalModelHost.Choice(
          options: Self.loadOptions(
            path: active.options.path, entry: entry, settings: settings, base: Self.bare(active)),
          id: active.id))
    }
    return impact
  }

  /// The saved settings against what llama.cpp was given when the chosen model loaded with them (loading it
  /// first when it is not in memory): llama.cpp may round or clamp a number.
  /// - Throws: ``ChatError/modelNotReady`` without a model; the loader's error when it cannot load.
  public func validateRuntime() async throws -> [DoctorReport.SettingCheck] {
    guard let host else { throw ChatError.modelNotReady }
    let (wanted, applied, slots) = try await host.line.run {
      let model = try await host.model(for: host.active)
      return (model.options, model.applied, model.slotCount)
    }
    func check(_ name: String, _ wanted: Int?, _ given: Int) -> DoctorReport.SettingCheck {
      guard let wanted else {
        return .init(name: name, wanted: "default", given: "\(given)", verdict: "ok")
      }
      return .init(name: name, wanted: "\(wanted)", given: "\(given)", verdict: wanted == given ? "ok" : "differs")
    }
    return [
      // llama.cpp reports the whole context: every slot's window together.
      check("context size", wanted.contextSize, applied.contextSize / slots),
      check("parallel", wanted.parallel, slots),
      check("threads", wanted.threads, applied.threads),
      check("batch size", wanted.batchSize.map { min($0, applied.contextSize) }, applied.batchSize),
    ]
  }

  /// Runs a tiny prompt through the chosen model as the saved settings load it, records the figures with the
  /// profile's telemetry, keeps the result as the latest test and returns it.
  /// - Throws: ``ChatError/modelNotReady`` without a model; the model's error when it cannot load or answer.
  public func testRuntime() async throws -> RuntimeTestResult {
    guard host != nil else { throw ChatError.modelNotReady }
    let loadsBefore = try database.telemetry(kinds: [.load], limit: 1).last
    var usage: GenerationUsage?
    let options = GenerationOptions(maxNewTokens: 16, sampling: .greedy, ignoresEndOfGeneration: true)
    let reservation = try await reserveModel()
    guard let applied = reservation.local?.applied else {
      await release(reservation)
      throw ChatError.modelNotReady
    }
    do {
      for try await event in reservation.model.generate(
        messages: [.user("Reply with one word: ready.")], options: options)
      {
        if case .usage(let figures) = event { usage = figures }
      }
      await release(reservation)
    } catch {
      await release(reservation)
      throw error
    }
    let name = reservation.model.name
    let load = try database.telemetry(kinds: [.load], limit: 1).last
    let result = RuntimeTestResult(
      at: Date(), settings: try runtimeSettings(), model: name,
      loadMs: load != loadsBefore ? load?.durationMs : nil,
      firstTokenMs: usage?.timeToFirstToken?.milliseconds,
      tokensPerSecond: usage.map(\.generationTokensPerSecond),
      promptTokensPerSecond: usage.map(\.prefillTokensPerSecond),
      generatedTokens: usage?.generatedTokens ?? 0, peakResidentBytes: SystemMemory.peakResidentBytes(),
      contextSize: applied.contextSize, threads: applied.threads, batchSize: applied.batchSize)
    var kept = try runtimeTests().filter { !$0.measuresTheSame(as: result) }
    kept.append(result)
    try database.setSetting(Self.runtimeTestsKey, to: Array(kept.suffix(Self.runtimeTestsKept)))
    return result
  }

  /// The latest settings test, if one ran.
  public func lastRuntimeTest() throws -> RuntimeTestResult? {
    try runtimeTests().last
  }

  /// The tests kept, oldest first.
  func runtimeTests() throws -> [RuntimeTestResult] {
    try database.setting(Self.runtimeTestsKey, as: [RuntimeTestResult].self) ?? []
  }

  /// The measured test of `model` with these numbers, if one ran.
  func measured(_ side: RuntimeImpact.Side, model: String) -> RuntimeTestResult? {
    (logger.attempt("reading the measured runtime tests") { try runtimeTests() } ?? []).last {
      $0.model == model && $0.contextSize == side.contextSize && $0.threads == side.threads
        && $0.batchSize == side.batchSize
    }
  }
}

extension RuntimeTestResult {
  /// Whether `other` measured the same model with the same numbers (the later one replaces it).
  func measuresTheSame(as other: RuntimeTestResult) -> Bool {
    model == other.model && contextSize == other.contextSize && threads == other.threads
      && batchSize == other.batchSize
  }
}
