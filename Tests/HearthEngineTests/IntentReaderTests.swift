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
  /// A request that reads, by its meaning, about as much as one change as another.
  static let twoWays = "dentist friday at 10"

  /// A seeded profile answered by a scripted model.
  static func engine(embedder: LocalEmbedder?) async throws -> Engine {
    var configuration = AssistantProfile.configuration(home: try TestModels.temporaryDirectory())
    configuration.sharedEmbedder = embedder
    let engine = try Engine.open(configuration, answering: ScriptedChatModel(pieces: ["Sure."]))
    try AssistantProfile.seed(engine)
    return engine
  }

  /// The answer a turn showed and the records it made.
  static func turn(
    _ request: String, in session: UUID, of engine: Engine
  ) async throws -> (answer: String, records: [ActionRecord]) {
    var records: [ActionRecord] = []
    var answer = ""
    try await engine.runTurn(TurnRequest(session: session, kind: .message(request))) { event in
      if case .chat(.actions(let made)) = event { records = made }
      if case .chat(.answer(let piece)) = event { answer += piece }
      if case .failed(let error) = event { throw error }
    }
    return (answer, records)
  }

  /// The records a turn made in a new session.
  static func records(for request: String, embedder: LocalEmbedder?) async throws -> [ActionRecord] {
    let engine = try await engine(embedder: embedder)
    return try await turn(request, in: try await engine.chat.newSession().id, of: engine).records
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

  @Test("a request that reads as two changes is asked about, and a reply that names one makes that change")
  func twoCloseChangesAreAskedAbout() async throws {
    let request = Self.twoWays
    // Neither the words nor the meaning decide it.
    #expect(RequestHints(request, today: AssistantProfile.thursday).kind == nil)
    let reading = try #require(await IntentReader(embedder: Self.embedder).read(request))
    guard case .close(let first, let second) = reading else {
      Issue.record("\(request) reads as \(reading): pick a request that reads as two changes")
      return
    }
    let engine = try await Self.engine(embedder: Self.embedder)
    let session = try await engine.chat.newSession().id
    let asked = try await Self.turn(request, in: session, of: engine)
    #expect(asked.answer == ClarifyingQuestion.text(first, second))
    #expect(asked.records.isEmpty, "nothing is changed on a guess: \(asked.records)")
    // The question is kept as it was shown: the answer check finds no claim in it to replace.
    #expect(try engine.sessions.messages(in: session).last?.content == asked.answer)
    // The same question in an imported chat may not be Hearth's: a reply there is a request of its own.
    let imported = try engine.sessions.importSession(try engine.sessions.export(session)).id
    let chosen = try await Self.turn("the second, please", in: session, of: engine)
    #expect(chosen.records.map(\.kind) == [second.kind?.rawValue], "\(chosen)")
    #expect(chosen.records.first?.action == second.action)
    #expect(try await Self.turn("the second, please", in: imported, of: engine).records.isEmpty)
    // An answer that is not Hearth's question makes a reply like this one a request of its own.
    let other = try await engine.chat.newSession().id
    #expect(try await Self.turn("the second, please", in: other, of: engine).records.isEmpty)
  }

  @Test("without the embedding model installed there is no reading")
  func noModelNoReading() async {
    let reader = IntentReader(embedder: LocalEmbedder(path: "/nonexistent/model.gguf"))
    #expect(await reader.read("what's pending for me") == nil)
  }
}
