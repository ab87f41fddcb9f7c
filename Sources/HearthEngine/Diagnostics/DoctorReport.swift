public import Foundation
public import HearthCore
import HearthStore

/// A report on the installation for troubleshooting, safe to paste anywhere: figures, file names and
/// settings only. It never holds what the user wrote, session or message ids, paths, host names or keys.
public struct DoctorReport: Sendable, Encodable {
  public var version: String
  public var provider: ProviderFacts
  public var model: ModelFacts?
  public var settings: [SettingCheck]
  public var memory: MemoryFacts
  public var machine: MachineFacts
  /// The llama.cpp build against this CPU: instruction sets compiled in and offered, and set-up's proof.
  public var native: NativeBuildFacts
  /// The latest loads, oldest first.
  public var loads: [LoadFigure]
  public var performance: PerformanceFacts
  public var counts: CountFacts
  /// The sync accounts, without their URLs, users or any title: what syncs and how the last sync went.
  public var accounts: [AccountFacts] = []
  /// The database's check and the backups, without their paths.
  public var storage = StorageFacts()
  /// What is wrong, each with what to do (``diagnosedRepairs`` of the figures above).
  public var repairs: [Repair] = []

  /// How sound the database is and how recent its backups are.
  public struct StorageFacts: Sendable, Encodable {
    /// `ok`, `damaged`, or `not checked` (the web page's report skips the full check, which reads every page).
    public var integrity = "not checked"
    /// What SQLite's check reported when it found damage (page and table names, never content).
    public var problems: [String] = []
    /// `ok`, `rebuilt` (an index did not match its rows and was built again from them) or `not checked`.
    public var searchIndexes = "not checked"
    /// The full-text indexes rebuilt by this check.
    public var rebuiltIndexes: [String] = []
    /// Backups in the backup folder.
    public var backups = 0
    /// When the newest was taken.
    public var latestBackup: Date?
    /// Whether backups are taken on a schedule.
    public var scheduled = false
  }

  /// One account in the report.
  public struct AccountFacts: Sendable, Encodable {
    /// `caldav` or `carddav`.
    public var service: String
    public var collections: Int
    public var syncedItems: Int
    /// Local changes waiting for the next sync.
    public var waiting: Int
    public var lastSync: Date?
    /// When `hearth serve` syncs next; `nil` while it syncs or when it is not running (see `schedule`).
    public var nextSync: Date?
    /// `scheduled`, `syncing` or `not scheduled`.
    public var schedule: String
    /// `ok`, `never synced`, `password refused`, `server unreachable` or `failing`.
    public var state: String
  }

  /// Where answers come from.
  public struct ProviderFacts: Sendable, Encodable {
    /// `local`, `remote` or `auto`.
    public var preference: String
    /// `openai` or `gemini` when a remote server is configured.
    public var remoteKind: String?
    /// The model asked of the remote server.
    public var remoteModel: String?
    /// Whether a remote key is set (never the key).
    public var remoteKeySet: Bool
    /// Which provider answered the latest generation on record.
    public var lastProvider: String?
  }

  /// The chat model chosen for the next load.
  public struct ModelFacts: Sendable, Encodable {
    public var id: String?
    public var displayName: String?
    public var file: String
    public var sizeBytes: UInt64?
    /// `ready`, `ready, verified`, `missing` or `unusable: why`.
    public var status: String
    public var architecture: String?
    public var parameterCount: UInt64?
    /// Whether this process has it in memory now.
    public var loaded: Bool
    /// The context the next load asks for.
    public var contextSize: Int?
    /// The chat template override, or `nil` for the model's own.
    public var chatTemplate: String?
    /// The estimated memory of a load at that context.
    public var estimatedBytes: UInt64?
    /// The GPU setting (`auto` or a layer count).
    public var gpuLayers: String = "auto"
    /// Where its layers are: when loaded, what llama.cpp reported ("31/31 layers on the GPU, 56.4 MiB");
    /// otherwise what the setting would offload on the GPUs there are now.
    public var offload: String?
  }

  /// One setting as saved (or chosen) against what llama.cpp was given at the latest load.
  public struct SettingCheck: Sendable, Encodable, Hashable {
    public var name: String
    public var wanted: String
    public var given: String?
    /// `ok`, `differs`, `not loaded yet` or `invalid: why`.
    public var verdict: String
  }

  public struct MemoryFacts: Sendable, Encodable {
    public var physicalBytes: UInt64
    public var availableBytes: UInt64
    /// `MemAvailable`, `cgroup limit` or `physical memory`.
    public var availableSource: String
    /// What a load may take (`HEARTH_MEMORY_LIMIT` when lower), or `nil` when the limit is malformed.
    public var budgetBytes: UInt64?
    public var processResidentBytes: UInt64?
    public var processPeakBytes: UInt64?
  }

  public struct MachineFacts: Sendable, Encodable {
    public var processors: Int
    public var operatingSystem: String
    public var architecture: String
    /// The sensors' readings and whether Hearth is easing off because of them.
    public var care: MachineCare
  }

  public struct LoadFigure: Sendable, Encodable, Hashable {
    public var model: String?
    public var durationMs: Double?
    public var contextSize: Int?
    public var threads: Int?
    public var peakResidentBytes: UInt64?
    /// Layers llama.cpp put on a GPU ("31/31 layers on the GPU"); `nil` when none were.
    public var offload: String?
  }

  /// Recent generations: medians, the failure rate and each one's speed (for charts).
  public struct PerformanceFacts: Sendable, Encodable {
    public var generations: Int
    public var failures: Int
    /// Failures over all attempts on record, 0…1.
    public var failureRate: Double
    /// How many failures of each kind (the error's type and case, never its message).
    public var failureKinds: [String: Int]
    public var medianFirstTokenMs: Double?
    public var medianTokensPerSecond: Double?
    public var medianPrefillTokensPerSecond: Double?
    /// The latest generations, oldest first.
    public var recent: [RecentGeneration]
  }

  public struct RecentGeneration: Sendable, Encodable, Hashable {
    public var provider: String?
    public var firstTokenMs: Double?
    public var tokensPerSecond: Double?
    public var generatedTokens: Int?
    /// How it ended: `end_of_generation`, `max_tokens`, `cancelled`, `timeout`…
    public var ended: String?
  }

  public struct CountFacts: Sendable, Encodable {
    public var sessions: Int
    public var messages: Int
    public var databaseBytes: UInt64
    public var installedModels: Int
    public var telemetryRecords: Int
  }

  /// The report as JSON with snake_case keys.
  public func json(pretty: Bool = true) throws -> Data {
    let encoder = SnakeCaseJSON.encoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
    return try encoder.encode(self)
  }
}

extension DoctorReport.PerformanceFacts {
  /// Figures from the telemetry records given, oldest first.
  init(_ records: [TelemetryRecord], recentLimit: Int = 30) {
    let generations = records.filter { $0.kind == .generation }
    let failures = records.filter { $0.kind == .failure }
    let attempts = generations.count + failures.count
    self.init(
      generations: generations.count, failures: failures.count,
      failureRate: attempts == 0 ? 0 : Double(failures.count) / Double(attempts),
      failureKinds: failures.reduce(into: [:]) { $0[$1.detail ?? "unknown", default: 0] += 1 },
      medianFirstTokenMs: Self.median(generations.compactMap(\.firstTokenMs)),
      medianTokensPerSecond: Self.median(generations.compactMap(\.tokensPerSecond)),
      medianPrefillTokensPerSecond: Self.median(generations.compactMap(\.prefillTokensPerSecond)),
      recent: generations.suffix(recentLimit).map {
        DoctorReport.RecentGeneration(
          provider: $0.provider?.rawValue, firstTokenMs: $0.firstTokenMs, tokensPerSecond: $0.tokensPerSecond,
          generatedTokens: $0.generatedTokens, ended: $0.detail)
      })
  }

  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
