public import Foundation
import GRDB
public import HearthCore

/// One measured event: figures about a load or a generation, never what was said.
public struct TelemetryRecord: Sendable, Hashable, Codable {
  /// What was measured.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// A model was loaded.
    case load
    /// A generation ended (completely, stopped or out of time).
    case generation
    /// A generation or load failed.
    case failure
    /// A model was unloaded.
    case unload
    /// An answer was replaced before it was shown: it stated something about the user's data that no record
    /// read in its turn holds, held a broken block, or began repeating itself and was cut (`detail` says which
    /// kinds of claim, `malformed block` or `repeating`, never the words).
    case answerReplaced = "answer_replaced"
  }

  public var at: Date
  public var kind: Kind
  public var provider: Provider?
  /// The model's file name.
  public var model: String?
  /// How long a load took, in milliseconds.
  public var durationMs: Double?
  public var promptTokens: Int?
  public var generatedTokens: Int?
  public var firstTokenMs: Double?
  /// Generation speed after the first token.
  public var tokensPerSecond: Double?
  /// Prompt evaluation speed.
  public var prefillTokensPerSecond: Double?
  /// The process's peak resident memory when the event was recorded.
  public var peakResidentBytes: UInt64?
  /// The context window a load created.
  public var contextSize: Int?
  /// The CPU threads a load was given.
  public var threads: Int?
  /// A word or two without user content: the stop reason of a generation, the kind of error of a failure,
  /// why a model was unloaded.
  public var detail: String?

  /// Creates a record.
  public init(
    at: Date = Date(), kind: Kind, provider: Provider? = nil, model: String? = nil, durationMs: Double? = nil,
    promptTokens: Int? = nil, generatedTokens: Int? = nil, firstTokenMs: Double? = nil,
    tokensPerSecond: Double? = nil, prefillTokensPerSecond: Double? = nil, peakResidentBytes: UInt64? = nil,
    contextSize: Int? = nil, threads: Int? = nil, detail: String? = nil
  ) {
    self.at = at
    self.kind = kind
    self.provider = provider
    self.model = model
    self.durationMs = durationMs
    self.promptTokens = promptTokens
    self.generatedTokens = generatedTokens
    self.firstTokenMs = firstTokenMs
    self.tokensPerSecond = tokensPerSecond
    self.prefillTokensPerSecond = prefillTokensPerSecond
    self.peakResidentBytes = peakResidentBytes
    self.contextSize = contextSize
    self.threads = threads
    self.detail = detail
  }
}

enum TelemetrySchema {
  static func create(_ db: Database) throws {
    try db.create(table: "telemetry") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("at", .double).notNull()
      t.column("kind", .text).notNull().indexed()
      t.column("provider", .text)
      t.column("model", .text)
      t.column("durationMs", .double)
      t.column("promptTokens", .integer)
      t.column("generatedTokens", .integer)
      t.column("firstTokenMs", .double)
      t.column("tokensPerSecond", .double)
      t.column("prefillTokensPerSecond", .double)
      t.column("peakResidentBytes", .integer)
      t.column("contextSize", .integer)
      t.column("threads", .integer)
      t.column("detail", .text)
    }
  }
}

private struct TelemetryRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "telemetry"
  var at: Double
  var kind: String
  var provider: String?
  var model: String?
  var durationMs: Double?
  var promptTokens: Int?
  var generatedTokens: Int?
  var firstTokenMs: Double?
  var tokensPerSecond: Double?
  var prefillTokensPerSecond: Double?
  var peakResidentBytes: Int64?
  var contextSize: Int?
  var threads: Int?
  var detail: String?

  init(_ record: TelemetryRecord) {
    at = record.at.timeIntervalSince1970
    kind = record.kind.rawValue
    provider = record.provider?.rawValue
    model = record.model
    durationMs = record.durationMs
    promptTokens = record.promptTokens
    generatedTokens = record.generatedTokens
    firstTokenMs = record.firstTokenMs
    tokensPerSecond = record.tokensPerSecond
    prefillTokensPerSecond = record.prefillTokensPerSecond
    peakResidentBytes = record.peakResidentBytes.map { Int64(clamping: $0) }
    contextSize = record.contextSize
    threads = record.threads
    detail = record.detail
  }

  var record: TelemetryRecord? {
    guard let kind = TelemetryRecord.Kind(rawValue: kind) else { return nil }
    return TelemetryRecord(
      at: Date(timeIntervalSince1970: at), kind: kind, provider: provider.flatMap(Provider.init(rawValue:)),
      model: model, durationMs: durationMs, promptTokens: promptTokens, generatedTokens: generatedTokens,
      firstTokenMs: firstTokenMs, tokensPerSecond: tokensPerSecond, prefillTokensPerSecond: prefillTokensPerSecond,
      peakResidentBytes: peakResidentBytes.map { UInt64(clamping: $0) }, contextSize: contextSize, threads: threads,
      detail: detail)
  }
}

extension HearthDatabase {
  /// The most telemetry records kept; older ones are dropped as new ones arrive.
  public static let telemetryCapacity = 2_000

  /// Appends `record`, dropping the oldest beyond ``telemetryCapacity``.
  public func recordTelemetry(_ record: TelemetryRecord) throws(StoreError) {
    try write { db in
      try TelemetryRow(record).insert(db)
      try db.execute(
        sql: "DELETE FROM telemetry WHERE id <= ?", arguments: [db.lastInsertedRowID - Int64(Self.telemetryCapacity)])
    }
  }

  /// The newest records (newest last), at most `limit`, of the given kinds (all when empty).
  public func telemetry(kinds: Set<TelemetryRecord.Kind> = [], limit: Int = 200) throws(StoreError) -> [TelemetryRecord]
  {
    try read { db in
      var request = TelemetryRow.order(Column("id").desc).limit(limit)
      if !kinds.isEmpty { request = request.filter(kinds.map(\.rawValue).contains(Column("kind"))) }
      return try request.fetchAll(db).reversed().compactMap(\.record)
    }
  }

  /// The number of records of each kind kept.
  public func telemetryCounts() throws(StoreError) -> [TelemetryRecord.Kind: Int] {
    try read { db in
      let rows = try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) FROM telemetry GROUP BY kind")
      var counts: [TelemetryRecord.Kind: Int] = [:]
      for row in rows {
        if let kind = TelemetryRecord.Kind(rawValue: row[0]) { counts[kind] = row[1] }
      }
      return counts
    }
  }
}
