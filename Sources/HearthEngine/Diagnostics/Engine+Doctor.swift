import Foundation
import HearthCore
import HearthStore
import LlamaKit
import Synchronization

extension Engine {
  /// The report `hearth doctor` prints and the web app's Diagnostics page shows: provider, model, settings
  /// against what llama.cpp was given, memory, loads, recent performance and counts. Nothing the user wrote.
  /// With `fullCheck`, SQLite's full integrity check reads the whole database (`hearth doctor`).
  /// - Throws: `StoreError` when the database cannot be read.
  public func doctor(fullCheck: Bool = false) async throws -> DoctorReport {
    let records = try database.telemetry(limit: 500)
    let counts = try sessions.counts()
    let environment = configuration.environment
    let budget = try? MemoryBudget.current(environment: environment)
    let available = SystemMemory.available()
    let process = ProcessInfo.processInfo
    let modelFacts = chosenModelFacts()
    let lastLoad = records.last { $0.kind == .load && $0.model == modelFacts?.file }
    var report = DoctorReport(
      version: HearthVersion.current,
      provider: providerFacts(lastProvider: records.last { $0.kind == .generation }?.provider),
      model: modelFacts,
      settings: settingChecks(model: modelFacts, lastLoad: lastLoad),
      memory: DoctorReport.MemoryFacts(
        physicalBytes: process.physicalMemory, availableBytes: available.bytes, availableSource: available.source,
        budgetBytes: budget?.bytes, processResidentBytes: SystemMemory.residentBytes(),
        processPeakBytes: SystemMemory.peakResidentBytes()),
      machine: DoctorReport.MachineFacts(
        processors: Processors.available, operatingSystem: Self.operatingSystem,
        architecture: Self.architecture, care: assessMachine()),
      native: NativeBuild.facts(),
      loads: records.filter { $0.kind == .load }.suffix(10).map {
        DoctorReport.LoadFigure(
          model: $0.model, durationMs: $0.durationMs, contextSize: $0.contextSize, threads: $0.threads,
          peakResidentBytes: $0.peakResidentBytes, offload: $0.detail)
      },
      performance: DoctorReport.PerformanceFacts(records),
      counts: DoctorReport.CountFacts(
        sessions: counts.sessions, messages: counts.messages, databaseBytes: FileFacts(path: database.path)?.size ?? 0,
        installedModels: installedModelNames().count,
        telemetryRecords: try database.telemetryCounts().values.reduce(0, +)))
    report.accounts = try accounts.facts()
    report.storage = try storageFacts(fullCheck: fullCheck)
    report.repairs = report.diagnosedRepairs
    return report
  }

  private func storageFacts(fullCheck: Bool) throws -> DoctorReport.StorageFacts {
    var facts = DoctorReport.StorageFacts()
    if fullCheck {
      // SQLite's own check first, and a damaged database is never written to: its search indexes are rebuilt
      // (derived data, so a search that misses what the user wrote finds it again) only when it is sound.
      let found = try database.integrityCheck()
      facts.integrity = found == ["ok"] ? "ok" : "damaged"
      facts.problems = found == ["ok"] ? [] : Array(found.prefix(10))
      if found == ["ok"] {
        facts.rebuiltIndexes = try database.repairSearchIndexes()
        facts.searchIndexes = facts.rebuiltIndexes.isEmpty ? "ok" : "rebuilt"
      } else {
        facts.searchIndexes = "not checked (the database is damaged)"
      }
    }
    let listed = try backups.list()
    facts.backups = listed.count
    facts.latestBackup = listed.first?.created
    facts.scheduled = try backups.settings().scheduled
    return facts
  }

  private func providerFacts(lastProvider: Provider?) -> DoctorReport.ProviderFacts {
    let state = remoteState.withLock { $0 }
    return DoctorReport.ProviderFacts(
      preference: state.preference.rawValue, remoteKind: state.settings?.kind.rawValue,
      remoteModel: state.settings?.model, remoteKeySet: state.settings?.apiKey != nil,
      lastProvider: lastProvider?.rawValue)
  }

  /// The model loaded now, or the one the next load would choose.
  private func chosenModelFacts() -> DoctorReport.ModelFacts? {
    var explicit: String?
    var context: Int?
    var template: String?
    if case .file(let path, let contextSize, _, let chatTemplate, _, _, _) = configuration.model {
      (explicit, context, template) = (path, contextSize, chatTemplate)
    }
    let path: String
    var entry: ModelEntry?
    if let model {
      path = model.path
    } else {
      guard
        let resolved = try? ModelResolver(paths: paths, environment: configuration.environment)
          .resolveModel(explicit: explicit)
      else { return nil }
      (path, entry) = (resolved.path, resolved.entry)
    }
    let registry = ModelRegistry(folder: paths.models)
    let registered = (try? registry.list())?.first { $0.path == path }
    entry = entry ?? registered?.entry
    let header = registered?.header ?? ModelCatalog.describe(path: path)
    let contextSize = model?.contextSize ?? context ?? entry?.recommendedContext
    let shape = try? ModelShape(path: path)
    let gpuLayers = host?.active.options.gpuLayers ?? .auto
    var facts = DoctorReport.ModelFacts(
      id: entry?.id, displayName: entry?.displayName ?? header.name, file: URL(fileURLWithPath: path).lastPathComponent,
      sizeBytes: header.problem == nil || header.fileSize > 0 ? header.fileSize : nil,
      status: registered.map { Self.describe($0.status) } ?? (header.problem.map { "unusable: \($0)" } ?? "ready"),
      architecture: header.architecture, parameterCount: header.parameterCount, loaded: model != nil,
      contextSize: contextSize, chatTemplate: template ?? entry?.chatTemplate,
      estimatedBytes: shape.map { $0.estimate(contextSize: contextSize ?? $0.defaultContext).total })
    facts.gpuLayers = gpuLayers.description
    facts.offload = Self.offload(
      loaded: model?.placement, setting: gpuLayers, path: path, contextSize: contextSize,
      layerSlots: shape.map { $0.layers + 1 })
    return facts
  }

  /// Where the model's layers are (loaded) or would go (not yet loaded).
  private static func offload(
    loaded placement: ModelPlacement?, setting: GPULayers, path: String, contextSize: Int?, layerSlots slots: Int?
  ) -> String {
    if let placement {
      guard placement.offloadedLayers > 0 else { return "none: all layers on the CPU" }
      let gpuBuffers = placement.buffers.filter { !$0.isHost }.map(\.name).joined(separator: ", ")
      return String(
        format: "%d/%d layers on the GPU (%.1f MiB in %@)", placement.offloadedLayers, placement.offloadableLayers,
        Double(placement.deviceBytes) / 1_048_576, gpuBuffers)
    }
    let devices = GPUDevices.available()
    guard !devices.isEmpty else { return "none: no GPU to offload to" }
    let layers = GPUOffload.layers(setting, path: path, contextTokens: contextSize, devices: devices)
    return "would offload \(min(layers, slots ?? layers))\(slots.map { "/\($0)" } ?? "") layers at the next load"
  }

  /// The settings a load asks for against what the latest load of the same model was given.
  private func settingChecks(
    model facts: DoctorReport.ModelFacts?, lastLoad: TelemetryRecord?
  ) -> [DoctorReport
    .SettingCheck]
  {
    var checks: [DoctorReport.SettingCheck] = []
    func compare(_ name: String, wanted: Int?, given: Int?) {
      guard let wanted else { return }
      let verdict = given.map { $0 == wanted ? "ok" : "differs" } ?? "not loaded yet"
      checks.append(.init(name: name, wanted: "\(wanted)", given: given.map { "\($0)" }, verdict: verdict))
    }
    var threads: Int?
    if case .file(_, _, let wantedThreads, _, _, _, _) = configuration.model { threads = wantedThreads }
    compare("context size", wanted: facts?.contextSize, given: model?.contextSize ?? lastLoad?.contextSize)
    compare("threads", wanted: threads, given: model?.threads ?? lastLoad?.threads)
    do {
      try chatSettings().validate()
      checks.append(.init(name: "chat settings", wanted: "saved", given: "saved", verdict: "ok"))
    } catch {
      checks.append(.init(name: "chat settings", wanted: "saved", given: nil, verdict: "invalid: \(error)"))
    }
    return checks
  }

  static func describe(_ status: ModelStatus) -> String {
    switch status {
    case .ready(let verified): verified ? "ready, verified" : "ready"
    case .missing: "missing"
    case .invalid(let problem): "unusable: \(problem)"
    }
  }

  static var architecture: String {
    #if arch(x86_64)
    "x86_64"
    #elseif arch(arm64)
    "arm64"
    #else
    "other"
    #endif
  }

  static var operatingSystem: String {
    #if os(Linux)
    "Linux \(ProcessInfo.processInfo.operatingSystemVersion.majorVersion)."
      + "\(ProcessInfo.processInfo.operatingSystemVersion.minorVersion)"
    #else
    ProcessInfo.processInfo.operatingSystemVersionString
    #endif
  }
}

/// Hearth's version, as reports and the API give it.
public enum HearthVersion {
  public static let current = "0.5.0"
}
