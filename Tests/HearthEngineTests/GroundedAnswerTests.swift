import Foundation
import HearthBench
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

/// Each class of invented answer a check of everyday requests found, through a whole turn with the real default
/// model on the evaluation's seeded profile (a Thursday): the answer states only what the data holds, and what
/// the model makes up on its own is caught before it is shown.
@Suite("Answers grounded in the data (SmolLM2, real)", .serialized, .heavy)
struct GroundedAnswerTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads))
  }

  private func ask(_ testCase: AssistantCase) async throws -> AssistantEvaluation.Outcome {
    let evaluation = AssistantEvaluation(model: try await Self.model.value)
    return try await evaluation.ask(testCase, home: try TestModels.temporaryDirectory())
  }

  @Test("a contact's organisation is the one in the contact, and nothing else is said of it")
  func anOrganisation() async throws {
    let outcome = try await ask(
      AssistantCase(
        "Which company does Priya work for?", .lookups, .answer(.contactsSearch, nil, facts: ["Northwind Labs"])))
    #expect(outcome.fullyRight, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.invented.isEmpty, "\(outcome.invented) in \(outcome.answer)")
  }

  @Test("what is overdue is the overdue reminder, and nothing is said to have been added")
  func overdue() async throws {
    let outcome = try await ask(
      AssistantCase("is anything overdue?", .lookups, .answer(.reminder, "list", facts: ["Pay the electricity bill"])))
    #expect(outcome.fullyRight, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.invented.isEmpty, "\(outcome.invented) in \(outcome.answer)")
    #expect(!outcome.answer.lowercased().contains("added"), "\(outcome.answer)")
  }

  @Test("an overview of the week gives each day its own date, from the calendar")
  func aWeek() async throws {
    let outcome = try await ask(
      AssistantCase(
        "give me an overview of my week", .schedule,
        .answer(.calendar, "query", facts: ["Fri 2026-11-27", "Lunch with Priya", "Sat 2026-11-28", "Yoga class"])))
    #expect(outcome.fullyRight, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.invented.isEmpty, "\(outcome.invented) in \(outcome.answer)")
  }

  @Test("pushing an event to a time keeps its day; pushing it back an hour moves it by an hour")
  func pushes() async throws {
    let toATime = try await ask(
      AssistantCase(
        "push the dentist to 2pm", .changes,
        .action(.calendar, "update", fields: ["title": "Dentist", "newStart": "2026-12-01T14:00"])))
    #expect(toATime.fullyRight, "\(toATime.blocks) \(toATime.answer)")
    let byAnHour = try await ask(
      AssistantCase(
        "Push my haircut back by an hour", .changes,
        .action(.calendar, "update", fields: ["title": "Haircut", "newStart": "2026-11-26T16:00"])))
    #expect(byAnHour.fullyRight, "\(byAnHour.blocks) \(byAnHour.answer)")
    #expect(toATime.invented.isEmpty && byAnHour.invented.isEmpty, "\(toATime.invented) \(byAnHour.invented)")
  }

  @Test("a note's title and text given in one sentence are its title and its text")
  func aNamedNote() async throws {
    let outcome = try await ask(
      AssistantCase(
        "Create a note called Packing list saying passport, charger and adapter", .creations,
        .action(.note, "create", fields: ["title": "Packing list", "body": "~charger"])))
    #expect(outcome.fullyRight, "\(outcome.blocks) \(outcome.answer)")
  }

  @Test("an event for someone named in it is added, not searched for among the contacts")
  func aPartyForSomeone() async throws {
    let outcome = try await ask(
      AssistantCase(
        "Add birthday party for Lea on Saturday at 3pm", .creations,
        .action(.calendar, "create", fields: ["title": "~party", "start": "2026-11-28T15:00"])))
    #expect(outcome.fullyRight, "\(outcome.blocks) \(outcome.answer)")
  }

  @Test("a general question, and a greeting in another script, get a plain answer with no block in it")
  func plainAnswers() async throws {
    for request in ["What is the capital of Spain?", "שלום! מה שלומך?"] {
      let outcome = try await ask(AssistantCase(request, .plain, .nothing()))
      #expect(outcome.blocks.isEmpty, "\(request): \(outcome.blocks)")
      #expect(!AnswerCheck.holdsBlockRemains(outcome.answer), "\(request): \(outcome.answer)")
      #expect(!outcome.answer.isEmpty)
    }
  }

  @Test("what the model invents about the user's data is replaced before it is shown, and counted")
  func theModelsOwnInventionIsCaught() async throws {
    let home = try TestModels.temporaryDirectory()
    let engine = try Engine.open(
      AssistantProfile.configuration(home: home), model: try await Self.model.value)
    try AssistantProfile.seed(engine)
    let session = try await engine.chat.newSession()
    // No reader takes this for a look-up, so the model writes the answer, and a 135M model writes a life for Anna
    // that her contact does not hold.
    var streamed = ""
    var replaced: String?
    var final = ""
    try await engine.runTurn(
      TurnRequest(
        session: session.id, kind: .message("Write a short bio of Anna Martin"),
        options: GenerationOptions(maxNewTokens: 60, sampling: .greedy))
    ) { event in
      switch event {
      case .chat(.answer(let text)): streamed += text
      case .chat(.replaced(let text, _)): replaced = text
      case .chat(.finished(let message)): final = message.content
      case .failed(let error): throw error
      default: break
      }
    }
    // The model did write about her (else this test proves nothing), and the check caught it.
    #expect(streamed.contains("Anna"), "\(streamed)")
    let shown = try #require(replaced, "the invention was not caught: \(streamed)")
    // What stands instead is her contact, as stored.
    #expect(shown.contains("+33 6 12 34 56 78") && shown.contains("Atelier Lumen"), "\(shown)")
    #expect(final == shown)
    #expect(try engine.database.messages(in: session.id).last?.content == shown)
    let counted = try engine.database.telemetry(kinds: [.answerReplaced])
    #expect(counted.count == 1)
    #expect(counted.first?.detail?.contains("detail") == true, "\(counted)")
  }

  @Test("an answer that is not kept (hearth ask --no-save) runs the same turn: checked, measured, and never stored")
  func anUnsavedAnswerIsCheckedToo() async throws {
    let engine = try Engine.open(
      AssistantProfile.configuration(home: try TestModels.temporaryDirectory()), model: try await Self.model.value)
    try AssistantProfile.seed(engine)
    let sessionsBefore = try engine.database.sessions(includeArchived: true).count
    let figuresBefore = try engine.database.telemetry(kinds: [.generation]).count
    var heard = ""
    var replaced: String?
    var final: StoredMessage?
    try await engine.runTurn(
      .ephemeral(
        "Write a short bio of Anna Martin", options: GenerationOptions(maxNewTokens: 60, sampling: .greedy),
        usesMemory: false)
    ) { event in
      switch event {
      case .chat(.answer(let text)): heard += text
      case .chat(.replaced(let text, _)): replaced = text
      case .chat(.finished(let message)): final = message
      case .failed(let error): throw error
      default: break
      }
    }
    #expect(heard.contains("Anna"), "\(heard)")
    let shown = try #require(replaced, "the invention was not caught: \(heard)")
    #expect(shown.contains("+33 6 12 34 56 78"), "\(shown)")
    #expect(final?.content == shown)
    // Nothing of the exchange is in the profile; its figures are, as a kept turn's are.
    #expect(try engine.database.sessions(includeArchived: true).count == sessionsBefore)
    #expect(try engine.database.search("Anna Martin", scope: .bodies).isEmpty)
    #expect(try engine.database.telemetry(kinds: [.generation]).count > figuresBefore)
    #expect(try engine.database.telemetry(kinds: [.answerReplaced]).count == 1)
  }

  @Test("the memory's budget is counted in the model's own tokens through every wrapper a turn generates with")
  func tokensAreCountedByTheTokenizerThroughTheWrappers() async throws {
    let model = try await Self.model.value
    let engine = try Engine.open(
      AssistantProfile.configuration(home: try TestModels.temporaryDirectory()), model: model)
    let text = "Der Kühlschrank summt leise — 冷蔵庫 — while the kettle boils."
    let exact = model.countTokens(text)
    // The router, the measuring model and the host each reach the tokenizer; none falls back to an estimate.
    for wrapper in [engine.answering, engine.measured, engine.host.map { $0 as any ChatModel }] {
      #expect(wrapper?.countTokens(in: text) == exact)
    }
    #expect(exact != text.utf8.count / 3)
  }
}
