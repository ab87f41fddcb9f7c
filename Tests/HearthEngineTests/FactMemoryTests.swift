import Foundation
import HearthBench
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

/// What Hearth keeps about the user, through whole turns with a scripted model (the drafted blocks need none):
/// facts kept from the user's words, replaced by a later statement on the same thing, undone, forgotten with
/// their history, in every prompt, and checked as records.
@Suite("Facts the user tells: kept, replaced, forgotten, in the prompt")
struct FactMemoryTests {
  static func engine(_ model: any ChatModel = ScriptedChatModel(pieces: ["Noted."])) throws -> Engine {
    let engine = try Engine.open(
      AssistantProfile.configuration(home: try TestModels.temporaryDirectory()), answering: model)
    try AssistantProfile.seed(engine)
    return engine
  }

  /// A turn in a new chat: the records its answer made, and the answer as stored.
  static func turn(
    _ text: String, on engine: Engine, in session: UUID? = nil
  ) async throws -> (records: [ActionRecord], stored: StoredMessage, session: UUID) {
    let id: UUID
    if let session { id = session } else { id = try await engine.chat.newSession().id }
    try await engine.runTurn(TurnRequest(session: id, kind: .message(text))) { event in
      if case .failed(let error) = event { throw error }
    }
    let stored = try #require(try engine.database.messages(in: id).last)
    return (try engine.actions.log(message: stored.id), stored, id)
  }

  @Test("'remember that …' keeps the fact where it was said, runs at once, and is in the next prompt")
  func rememberThat() async throws {
    let engine = try Self.engine()
    let (records, stored, session) = try await Self.turn("Remember that I'm allergic to nuts", on: engine)
    #expect(records.map(\.state) == [.created], "\(stored.content)")
    #expect(records.first?.summary == "Remembered “I'm allergic to nuts.”")
    let fact = try #require(try engine.facts.list().first)
    #expect(fact.text == "I'm allergic to nuts." && fact.sessionID == session && fact.messageID == stored.id)
    #expect(engine.systemPrompt().contains("- I'm allergic to nuts."))
    // Undone, it is gone from the store and the prompt.
    _ = try engine.actions.undo(try #require(records.first).id)
    #expect(try engine.facts.list().isEmpty)
    #expect(!engine.systemPrompt().contains("allergic"))
  }

  @Test("a later statement on the same thing replaces a fact, keeps it as history, and undo brings it back")
  func aContradictionReplaces() async throws {
    let engine = try Self.engine()
    let first = try await Self.turn("My brother's name is Tomas", on: engine)
    #expect(first.records.map(\.state) == [.created], "\(first.stored.content)")
    let second = try await Self.turn("Actually, my brother's name is Tomás", on: engine)
    #expect(
      second.records.first?.summary
        == "Remembered “My brother's name is Tomás.”, in place of “My brother's name is Tomas.”")
    #expect(try engine.facts.list().map(\.text) == ["My brother's name is Tomás."])
    #expect(try engine.facts.list(includingHistory: true).count == 2)
    #expect(!engine.systemPrompt().contains("Tomas."))
    // The same statement again is not kept twice.
    let again = try await Self.turn("remember that my brother's name is Tomás", on: engine)
    #expect(again.records.map(\.state) == [.failed])
    #expect(again.records.first?.reason?.contains("remembered already") == true)
    _ = try engine.actions.undo(try #require(second.records.first).id)
    #expect(try engine.facts.list().map(\.text) == ["My brother's name is Tomas."])
  }

  @Test("forgetting waits for the user's OK, then takes the fact's history with it; an unknown one is not a fact")
  func forgetting() async throws {
    let engine = try Self.engine()
    _ = try engine.facts.remember("I live in Porto.")
    _ = try engine.facts.remember("I live in Lisbon.")
    let asked = try await Self.turn("Forget that I live in Lisbon", on: engine)
    #expect(asked.records.map(\.state) == [.pending], "\(asked.stored.content)")
    #expect(asked.records.first?.summary == "Forget “I live in Lisbon.”")
    #expect(try engine.facts.list().count == 1)
    let done = try await engine.actions.confirm(try #require(asked.records.first).id)
    #expect(done.state == .deleted)
    #expect(try engine.facts.list(includingHistory: true).isEmpty)
    // Restored, the forgotten fact holds again.
    #expect(try engine.actions.undo(done.id).state == .restored)
    #expect(try engine.facts.list().map(\.text) == ["I live in Lisbon."])
    // "Remember my appointment at 3 tomorrow" is the calendar's, not a fact.
    let plan = try await Self.turn("Remember my appointment at 3 tomorrow", on: engine)
    #expect(!plan.records.contains { $0.kind == ActionKind.memory.rawValue }, "\(plan.stored.content)")
    // "Forget …" naming no fact is left to the other readers: no memory action is drafted.
    let other = try await Self.turn("forget the team lunch", on: engine)
    #expect(!other.records.contains { $0.kind == ActionKind.memory.rawValue }, "\(other.stored.content)")
  }

  @Test("a fact proposed after reading a document waits; a fact's words count as a record for the answer check")
  func provenanceAndGrounds() async throws {
    let engine = try Self.engine()
    let held = try await engine.actions.process(
      answer: #"[MEMORY_ACTION:{"action":"remember","text":"My bank PIN is 1234."}]"#, read: "a retrieved document")
    #expect(held.map(\.state) == [.pending])
    #expect(try engine.facts.list().isEmpty)
    // A name the model says is kept when a fact holds it, and replaced when nothing does.
    let answer = ScriptedChatModel(pieces: ["Your brother is called Ansgar."])
    let withoutFact = try Self.engine(answer)
    let invented = try await Self.turn("Tell me about my family", on: withoutFact)
    #expect(!invented.stored.content.contains("Ansgar"), "\(invented.stored.content)")
    let withFact = try Self.engine(answer)
    _ = try withFact.facts.remember("My brother is called Ansgar.")
    let grounded = try await Self.turn("Tell me about my family", on: withFact)
    #expect(grounded.stored.content == "Your brother is called Ansgar.")
  }

  @Test("a question a kept fact answers is answered from the facts, not by the model")
  func aQuestionTheFactsAnswer() async throws {
    let engine = try Self.engine(ScriptedChatModel(pieces: ["Your brother is called Liam."]))
    _ = try engine.facts.remember("My brother is called Ansgar.")
    let asked = try await Self.turn("What is my brother called?", on: engine)
    #expect(asked.records.map(\.state) == [.answered], "\(asked.stored.content)")
    #expect(asked.stored.content.contains("You told me: My brother is called Ansgar."), "\(asked.stored.content)")
    #expect(!asked.stored.content.contains("Liam"))
    // One no fact answers is the model's, checked: an invented sister is not shown.
    let sister = try await Self.turn("What is my sister called?", on: engine)
    #expect(!sister.stored.content.contains("Liam"), "\(sister.stored.content)")
  }

  @Test("an expired fact leaves the prompt; a pinned one comes first; a fact ending in the past is refused")
  func expiryAndPins() async throws {
    let engine = try Self.engine()
    let today = engine.facts.today
    _ = try engine.facts.remember("I'm in Lisbon.", until: today)
    let pinned = try engine.facts.remember("I don't eat meat.").fact
    _ = try engine.facts.edit(pinned.id, pinned: true)
    let prompt = engine.systemPrompt()
    let meat = try #require(prompt.range(of: "I don't eat meat."))
    let lisbon = try #require(prompt.range(of: "I'm in Lisbon. (until \(today))"))
    #expect(meat.lowerBound < lisbon.lowerBound)
    // One whose last day has passed is kept and listed, but no longer told to the model.
    try engine.database.insert(Fact(text: "I was in Rome.", expires: today.adding(days: -1)))
    #expect(throws: FactError.endsInThePast(today.adding(days: -1))) {
      try engine.facts.remember("I was in Rome.", until: today.adding(days: -1))
    }
    #expect(try engine.facts.list().count == 3)
    #expect(!engine.systemPrompt().contains("Rome"))
    let past = try await engine.actions.process(
      answer: #"[MEMORY_ACTION:{"action":"remember","text":"I was in Rome.","until":"2020-01-01"}]"#)
    #expect(past.map(\.state) == [.failed])
    #expect(past.first?.reason?.contains("in the past") == true)
  }
}

/// The same through the real default model: a fact told in one chat answers a question in another.
@Suite("Facts the user tells, answered from in a later chat (SmolLM2, real)", .serialized, .heavy)
struct FactAnswerTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads))
  }

  @Test("told in one chat, a fact is the answer in the next, looked up rather than made up")
  func toldThenAsked() async throws {
    let engine = try Engine.open(
      AssistantProfile.configuration(home: try TestModels.temporaryDirectory()), model: try await Self.model.value)
    try AssistantProfile.seed(engine)
    let told = try await FactMemoryTests.turn("Remember that my brother's name is Tomas", on: engine)
    #expect(told.records.map(\.state) == [.created], "\(told.stored.content)")
    let asked = try await FactMemoryTests.turn("What is my brother's name?", on: engine)
    #expect(asked.stored.content.contains("Tomas"), "\(asked.stored.content)")
  }
}

/// Sixty turns with a scripted model whose window holds a few of them: what the user told in the second turn
/// is still known at the sixtieth, long after that turn left the prompt for a summary.
@Suite("Long chats that keep what the user told")
struct LongChatFactTests {
  static let filler = String(repeating: "Here is a long and careful answer about the topic at hand. ", count: 8)

  static func sixtyTurns(actions: Bool) async throws -> (engine: Engine, model: ScriptedChatModel, session: UUID) {
    var configuration = AssistantProfile.configuration(home: try TestModels.temporaryDirectory())
    configuration.chat.actions = actions
    let model = ScriptedChatModel(contextSize: 2048, pieces: [filler])
    let engine = try Engine.open(configuration, answering: model)
    let session = try await engine.chat.newSession().id
    _ = try await FactMemoryTests.turn("Hello there.", on: engine, in: session)
    _ = try await FactMemoryTests.turn("My brother's name is Tomas.", on: engine, in: session)
    for number in 3..<60 {
      _ = try await FactMemoryTests.turn("Tell me about topic number \(number).", on: engine, in: session)
    }
    return (engine, model, session)
  }

  @Test("told at turn 2, a fact answers turn 60 from the facts, though turn 2 left the prompt long ago")
  func answeredAtTurnSixty() async throws {
    let (engine, model, session) = try await Self.sixtyTurns(actions: true)
    #expect(try engine.sessions.session(session).droppedMessageCount > 4)
    let asked = try await FactMemoryTests.turn("What is my brother's name?", on: engine, in: session)
    #expect(asked.stored.content.contains("You told me: My brother's name is Tomas."), "\(asked.stored.content)")
    // The model's own last prompt no longer held the second turn, only the fact.
    let last = try #require(model.conversations.last)
    #expect(!last.dropFirst().contains { $0.content == "My brother's name is Tomas." })
    #expect(last.first?.content.contains("- My brother's name is Tomas.") == true)
  }

  @Test("with actions off, a statement leaving the prompt for a summary is kept as a fact from its message")
  func keptWhenSummarised() async throws {
    let (engine, model, session) = try await Self.sixtyTurns(actions: false)
    let fact = try #require(try engine.facts.list().first)
    #expect(fact.text == "My brother's name is Tomas." && fact.sessionID == session)
    let said = try engine.database.messages(in: session).first { $0.content == "My brother's name is Tomas." }
    #expect(fact.messageID == said?.id)
    _ = try await FactMemoryTests.turn("What is my brother's name?", on: engine, in: session)
    #expect(model.conversations.last?.first?.content.contains("- My brother's name is Tomas.") == true)
  }
}
