import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

@Suite("Telemetry and the doctor report", .heavy)
struct DiagnosticsTests {
  private func database() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  @Test func telemetryRollsOverAtItsCapacity() throws {
    let database = try database()
    let extra = 25
    for index in 0..<(HearthDatabase.telemetryCapacity + extra) {
      try database.recordTelemetry(
        TelemetryRecord(kind: index.isMultiple(of: 10) ? .failure : .generation, tokensPerSecond: Double(index)))
    }
    let counts = try database.telemetryCounts()
    #expect(counts.values.reduce(0, +) == HearthDatabase.telemetryCapacity)
    let newest = try database.telemetry(kinds: [.generation], limit: 3)
    #expect(newest.map(\.tokensPerSecond) == [2_022, 2_023, 2_024])
    // The oldest records went first.
    let oldest = try database.telemetry(limit: HearthDatabase.telemetryCapacity).first
    #expect(oldest?.tokensPerSecond == Double(extra))
  }

  @Test func performanceFiguresComeFromTheRecords() {
    let records = [
      TelemetryRecord(kind: .load, durationMs: 400),
      TelemetryRecord(
        kind: .generation, provider: .local, firstTokenMs: 100, tokensPerSecond: 10, detail: "max_tokens"),
      TelemetryRecord(kind: .generation, provider: .remote, firstTokenMs: 300, tokensPerSecond: 30),
      TelemetryRecord(kind: .failure, detail: "RemoteError.unreachable"),
      TelemetryRecord(kind: .generation, provider: .local, firstTokenMs: 200, tokensPerSecond: 20),
    ]
    let facts = DoctorReport.PerformanceFacts(records, recentLimit: 2)
    #expect(facts.generations == 3)
    #expect(facts.failures == 1)
    #expect(facts.failureRate == 0.25)
    #expect(facts.failureKinds == ["RemoteError.unreachable": 1])
    #expect(facts.medianFirstTokenMs == 200)
    #expect(facts.medianTokensPerSecond == 20)
    #expect(facts.recent.map(\.provider) == ["remote", "local"])
    #expect(DoctorReport.PerformanceFacts([]).failureRate == 0)
  }

  @Test func anErrorIsRecordedByItsKindNeverItsMessage() {
    #expect(ErrorKind.of(RemoteError.unreachable("the words Okonkwo said")) == "RemoteError.unreachable")
    #expect(ErrorKind.of(ChatError.modelNotReady) == "ChatError")
    #expect(ErrorKind.of(InvalidParameterError(name: "x", value: "Okonkwo", expected: "y")) == "InvalidParameterError")
  }

  @Test func theSparklineSpansLowToHigh() {
    #expect(DoctorReport.sparkline([1, nil, 8]).hasPrefix("▁ █"))
    #expect(DoctorReport.sparkline([]).isEmpty)
  }

  @Test func aLocalTurnIsMeasuredAndMarkedLocal() async throws {
    let database = try database()
    let model = try await LocalModel.load(LocalModelOptions(path: TestModels.smolLM2, contextSize: 1024))
    let chat = ChatService(
      database: database, model: MeasuredChatModel(model, record: Engine.recorder(database)),
      configuration: ChatConfiguration(generation: GenerationOptions(maxNewTokens: 8, sampling: .greedy)))
    let session = try await chat.newSession()
    for await _ in try await chat.send("Name a colour.", to: session.id) {}
    #expect(try database.messages(in: session.id).last?.provider == .local)
    let record = try #require(try database.telemetry(kinds: [.generation]).last)
    #expect(record.provider == .local)
    #expect(record.model == "SmolLM2-135M-Instruct.Q4_1.gguf")
    #expect((record.tokensPerSecond ?? 0) > 0)
    #expect((record.peakResidentBytes ?? 0) > 100 << 20)
    #expect(record.detail == "max_tokens" || record.detail == "end_of_generation")
  }
}
