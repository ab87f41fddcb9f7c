import Foundation
import HearthActions
import HearthBench
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

/// A request whose words no reader takes, read by its meaning through the real embedding model
/// (all-MiniLM-L6-v2) in a whole turn: the view it asks for is shown from the records, and without the
/// embedding model the same words ask nothing of the data.
@Suite("Intents read from a request's meaning (all-MiniLM-L6-v2, real)", .serialized, .heavy)
struct IntentReaderTests {
  static let embedder = LocalEmbedder(path: TestModels.miniLM, threads: TestModels.threads)

  /// The records a turn made, asked of a seeded profile answered by a scripted model.
  static func records(for request: String, embedder: LocalEmbedder?) async throws -> [ActionRecord] {
    var configuration = AssistantProfile.configuration(home: try TestModels.temporaryDirectory())
    configuration.sharedEmbedder = embedder
    let engine = try Engine.open(configuration, answering: ScriptedChatModel(pieces: ["Sure."]))
    try AssistantProfile.seed(engine)
    let session = try await engine.chat.newSession()
    var records: [ActionRecord] = []
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message(request))) { event in
      if case .chat(.actions(let made)) = event { records = made }
      if case .failed(let error) = event { throw error }
    }
    return records
  }

  @Test(
    "a question about what is left to do, in words no reader knows, lists the reminders",
    arguments: ["anything I still have to get done?", "what's pending for me"])
  func aParaphraseListsTheReminders(_ request: String) async throws {
    // The words alone find nothing in it.
    #expect(RequestHints(request, today: AssistantProfile.thursday).kind == nil)
    #expect(DataQuestion(request, today: AssistantProfile.thursday) == nil)
    let records = try await Self.records(for: request, embedder: Self.embedder)
    #expect(records.map(\.kind) == [ActionKind.reminder.rawValue], "\(records)")
    #expect(records.first?.action == "list")
    #expect(records.first?.state == .answered)
    #expect(try await Self.records(for: request, embedder: nil).isEmpty)
  }

  @Test("a plain question reads as plain and runs nothing")
  func aPlainQuestionRunsNothing() async throws {
    let reader = IntentReader(embedder: Self.embedder)
    let reading = try #require(await reader.read("Who painted the Mona Lisa?"))
    if case .clear(let intent, _) = reading { #expect(intent == .plain) }
    #expect(try await Self.records(for: "Who painted the Mona Lisa?", embedder: Self.embedder).isEmpty)
  }

  @Test("without the embedding model installed there is no reading")
  func noModelNoReading() async {
    let reader = IntentReader(embedder: LocalEmbedder(path: "/nonexistent/model.gguf"))
    #expect(await reader.read("what's pending for me") == nil)
  }
}
