import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import HummingbirdTesting
import LlamaKit
import Synchronization
import Testing

@testable import HearthEngine

@Suite("Chat turns through the real model and database", .heavy)
struct ChatServiceTests {
  private static let model = Task { try await LlamaModel.load(path: TestModels.smolLM2) }

  private func localModel(contextSize: Int = 2048) async throws -> LocalModel {
    LocalModel(
      session: try await LlamaSession.create(
        model: try await Self.model.value, options: .init(contextSize: contextSize)),
      loadTime: .zero)
  }

  private func databasePath() throws -> String {
    try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path
  }

  /// Runs a turn to its end and returns the final message.
  @discardableResult
  private func turn(
    _ service: ChatService, _ text: String, in session: UUID, options: GenerationOptions? = nil
  ) async throws -> (StoredMessage, [ChatEvent]) {
    var events: [ChatEvent] = []
    for await event in try await service.send(text, to: session, options: options) { events.append(event) }
    guard case .finished(let message)? = events.last else { throw TestFailure("turn did not finish") }
    return (message, events)
  }

  @Test func aConversationSurvivesARestart() async throws {
    let path = try databasePath()
    let options = GenerationOptions(maxNewTokens: 40, sampling: .greedy)
    let sessionID: UUID
    do {
      let service = ChatService(database: try HearthDatabase(path: path), model: try await localModel())
      let session = try await service.newSession()
      sessionID = session.id
      for question in ["What is the capital of France?", "And of Spain?", "And of Italy?"] {
        let (answer, _) = try await turn(service, question, in: sessionID, options: options)
        #expect(answer.state == .complete)
        #expect(!answer.content.isEmpty)
      }
    }
    // A new process: database reopened, model reloaded, nothing cached.
    let database = try HearthDatabase(path: path)
    let stored = try database.messages(in: sessionID)
    #expect(stored.count == 6)
    #expect(stored.map(\.role) == [.user, .assistant, .user, .assistant, .user, .assistant])
    #expect(stored[1].content.contains("Paris"))
    #expect(try database.session(sessionID).title == "What is the capital of France?")
    let service = ChatService(database: database, model: try await localModel())
    let (fourth, _) = try await turn(
      service, "Which of these cities did I ask about first?", in: sessionID, options: options)
    #expect(fourth.state == .complete)
    #expect(fourth.promptTokens ?? 0 > 60)  // the whole history went to the model
    #expect(try database.messages(in: sessionID).count == 8)
  }

  @Test func stoppingKeepsThePartialAnswer() async throws {
    let database = try HearthDatabase(path: try databasePath())
    let service = ChatService(database: database, model: try await localModel())
    let session = try await service.newSession()
    let options = GenerationOptions(maxNewTokens: 400, sampling: .greedy, ignoresEndOfGeneration: true)
    var received = ""
    var final: StoredMessage?
    for await event in try await service.send("Write a long story about a fox.", to: session.id, options: options) {
      switch event {
      case .answer(let text):
        received += text
        if received.count > 30 { await service.stop(session.id) }
      case .finished(let message): final = message
      default: break
      }
    }
    let message = try #require(final)
    #expect(message.state == .cancelled)
    #expect(message.stopReason == .cancelled)
    #expect(message.content.hasPrefix(received))
    #expect(!message.content.isEmpty)
    // A stopped answer keeps its figures.
    #expect(message.generatedTokens ?? 0 >= 5)
    #expect(message.generationTokensPerSecond ?? 0 > 0)
    #expect(message.timeToFirstTokenMs != nil)
    let stored = try database.messages(in: session.id)
    #expect(stored.last?.content == message.content)
    #expect(stored.last?.state == .cancelled)
    #expect(await !service.isGenerating(session.id))
  }

  /// "What is the capital of France?" asked with five seconds to answer and no end of generation honoured: the
  /// answer always runs into the limit. The turn's stored message, its events, and the database.
  private func timedOutTurn() async throws -> (
    message: StoredMessage, events: [ChatEvent], database: HearthDatabase, session: UUID
  ) {
    let database = try HearthDatabase(path: try databasePath())
    let service = ChatService(database: database, model: try await localModel())
    let session = try await service.newSession()
    let options = GenerationOptions(
      maxNewTokens: 1500, sampling: .greedy, timeout: .seconds(5), ignoresEndOfGeneration: true)
    let (message, events) = try await turn(service, "What is the capital of France?", in: session.id, options: options)
    return (message, events, database, session.id)
  }

  @Test func aTimeoutKeepsThePartialAnswer() async throws {
    let (message, events, database, session) = try await timedOutTurn()
    #expect(message.state == .timedOut)
    #expect(message.content == events.compactMap { if case .answer(let text) = $0 { text } else { nil } }.joined())
    #expect(try database.messages(in: session).last?.state == .timedOut)
  }

  /// Five seconds always answer the question when tests run one at a time (see `TestLoad`); under a parallel run
  /// on two cores they may not, so this runs only then.
  @Test(.enabled(if: TestLoad.runsSerially, "needs the machine to itself: HEARTH_TESTS_SERIAL=1"))
  func aTimedOutAnswerKeepsWhatItSaid() async throws {
    let (message, _, _, _) = try await timedOutTurn()
    #expect(message.state == .timedOut)
    #expect(message.content.contains("Paris"), "\(message.content)")
  }

  @Test func guardsAgainstBadTurns() async throws {
    let database = try HearthDatabase(path: try databasePath())
    let unready = ChatService(database: database, model: nil)
    let session = try await unready.newSession()
    await #expect(throws: ChatError.modelNotReady) { try await unready.send("Hi", to: session.id) }
    let service = ChatService(database: database, model: try await localModel())
    await #expect(throws: ChatError.emptyMessage) { try await service.send("  \n", to: session.id) }
    await #expect(throws: StoreError.self) { try await service.send("Hi", to: UUID()) }
    let options = GenerationOptions(maxNewTokens: 300, sampling: .greedy, ignoresEndOfGeneration: true)
    let first = try await service.send("Count to a hundred.", to: session.id, options: options)
    await #expect(throws: ChatError.alreadyGenerating(sessionID: session.id)) {
      try await service.send("Hi again", to: session.id)
    }
    await service.stop(session.id)
    for await _ in first {}
    // Nothing of the refused turns was stored: one user message and one answer.
    #expect(try database.messages(in: session.id).count == 2)
  }

  @Test func storesErrorsOnTheMessage() async throws {
    let database = try HearthDatabase(path: try databasePath())
    let service = ChatService(database: database, model: try await localModel(contextSize: 128))
    let session = try await service.newSession()
    let long = String(repeating: "Please remember all of this text carefully. ", count: 40)
    let (message, _) = try await turn(
      service, long, in: session.id, options: GenerationOptions(maxNewTokens: 32, sampling: .greedy))
    #expect(message.state == .failed)
    #expect(message.error?.contains("tokens") == true)
    let stored = try database.messages(in: session.id)
    #expect(stored.map(\.state) == [.complete, .failed])
  }

  @Test(arguments: [false, true])
  func trimsLongConversationsWithinTheWindow(modelSummary: Bool) async throws {
    let database = try HearthDatabase(path: try databasePath())
    let contextSize = 384
    let service = ChatService(
      database: database, model: try await localModel(contextSize: contextSize),
      configuration: ChatConfiguration(summarizesWithModel: modelSummary))
    let session = try await service.newSession()
    let options = GenerationOptions(maxNewTokens: 32, sampling: .greedy)
    var trimmedTurns = 0
    var summaries: Set<String> = []
    for index in 1...10 {
      let (message, events) = try await turn(
        service, "Fact number \(index): my favourite colour today is shade \(index). Say something about it.",
        in: session.id, options: options)
      #expect(message.state == .complete)
      #expect((message.promptTokens ?? .max) + options.maxNewTokens <= contextSize)
      if events.contains(where: { if case .trimmed = $0 { true } else { false } }) { trimmedTurns += 1 }
      if let summary = try database.session(session.id).summary { summaries.insert(summary) }
    }
    #expect(trimmedTurns > 0)
    // Trimming is rare: the cut jumps ahead with room to spare, and the summary is reused in between.
    #expect(trimmedTurns < 5)
    #expect(!summaries.isEmpty && summaries.count <= trimmedTurns)  // only a trim changes the summary
    let stored = try database.session(session.id)
    #expect(stored.droppedMessageCount > 0)
    let summary = try #require(stored.summary)
    #expect(!summary.isEmpty && summary.count <= (contextSize - options.maxNewTokens) / 2)
    if !modelSummary { #expect(summary.contains("Fact number")) }
    // Every message is still kept; only the prompt was trimmed.
    #expect(try database.messages(in: session.id).count == 20)
  }

  @Test func laterTurnsReuseTheCachedPrompt() async throws {
    let database = try HearthDatabase(path: try databasePath())
    let model = try await localModel()
    let service = ChatService(database: database, model: model)
    let session = try await service.newSession()
    let options = GenerationOptions(maxNewTokens: 24, sampling: .greedy)
    let system = "You are a helpful assistant."
    for await _ in try await service.send("Hello!", to: session.id, systemPrompt: system, options: options) {}
    let first = try #require(model.session.lastRecord?.usage)
    for await _ in try await service.send("How are you?", to: session.id, systemPrompt: system, options: options) {}
    await model.session.waitUntilIdle()
    let second = try #require(model.session.lastRecord?.usage)
    #expect(second.reusedPromptTokens >= first.promptTokens - 1)
    #expect(second.prefilledTokens == second.promptTokens - second.reusedPromptTokens)
  }

  @Test func routesThinkingApartFromTheAnswer() async throws {
    let database = try HearthDatabase(path: try databasePath())
    // Stands in for a thinking model, which no installable package ships.
    let thinker = ScriptedChatModel(pieces: ["<thi", "nk>The user ", "greets.</th", "ink>Hello", " there!"])
    let service = ChatService(database: database, model: thinker)
    let session = try await service.newSession()
    let (message, events) = try await turn(service, "Hi", in: session.id)
    #expect(message.thinking == "The user greets.")
    #expect(message.content == "Hello there!")
    let thinking = events.compactMap { if case .thinking(let text) = $0 { text } else { nil } }.joined()
    #expect(thinking == "The user greets.")

    let hidden = ChatService(
      database: database, model: thinker, configuration: ChatConfiguration(showsThinking: false))
    let other = try await hidden.newSession()
    let (_, quiet) = try await turn(hidden, "Hi", in: other.id)
    #expect(!quiet.contains { if case .thinking = $0 { true } else { false } })
  }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

@Suite("A question's second pass", .heavy)
struct SecondPassTests {
  /// Answers "On it." to a turn and, given facts, a sentence made from them; keeps what it was given.
  private func factModel(parameters: UInt64) -> ScriptedChatModel {
    ScriptedChatModel(name: "facts", parameterCount: parameters) { messages in
      let system = messages.first { $0.role == .system }?.content ?? ""
      return system.contains("- Dentist at 10:00") ? ["The dentist ", "is at 10:00."] : ["On it."]
    }
  }

  /// The system prompts of every conversation `model` answered.
  private func systemPrompts(_ model: ScriptedChatModel) -> [String] {
    model.conversations.map { $0.first { $0.role == .system }?.content ?? "" }
  }

  private func answer(with model: any ChatModel) async throws -> StoredMessage {
    try await turn(with: model).message
  }

  /// `question` asked of `model` in a new chat whose look-up always finds the dentist at 10:00; the answer, the
  /// store and the chat.
  private func turn(
    with model: any ChatModel, question: String = "When is the dentist?", options: GenerationOptions? = nil
  ) async throws -> (message: StoredMessage, database: HearthDatabase, session: UUID) {
    let database = try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("h.sqlite").path)
    let hooks = ChatService.ActionHooks(
      grammar: { (#"root ::= "x""#, #"[\s\S]*?(QQQ[\s\S]*)"#) },
      process: { message, _ in
        [
          ActionRecord(
            messageID: message.id, kind: "CALENDAR_ACTION", block: "", state: .answered, summary: "",
            result: "- Dentist at 10:00")
        ]
      })
    let service = ChatService(database: database, model: model, actionHooks: hooks)
    let session = try await service.newSession()
    var final: StoredMessage?
    for await event in try await service.send(question, to: session.id, options: options) {
      if case .finished(let message) = event { final = message }
    }
    return (try #require(final), database, session.id)
  }

  @Test func aLargeModelWritesTheAnswerFromTheFacts() async throws {
    let model = factModel(parameters: 7_000_000_000)
    let message = try await answer(with: model)
    #expect(message.content == "On it.\n\nThe dentist is at 10:00.")
    #expect(systemPrompts(model).count == 2)
    #expect(systemPrompts(model).last?.contains("- Dentist at 10:00") == true)
  }

  @Test func aRemoteServerWritesTheAnswerFromTheFactsUnlessTheUserSaysOtherwise() async throws {
    try await GeminiWireTests.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      for writes in [true, false] {
        let local = factModel(parameters: 135_000_000)
        let settings = RemoteSettings(
          url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key",
          writesFromFacts: writes)
        let model = RoutedChatModel(
          local: local,
          route: .init(remote: RemoteChatModel(settings: settings), router: ProviderRouter(), preference: .remote))
        // The scripted server echoes the question, and says when it was given a system prompt: the turn here
        // has none, the second pass has the facts in one.
        let message = try await answer(with: model)
        let passes = message.content.components(separatedBy: "[system seen]").count - 1
        if writes {
          #expect(passes == 1, "\(message.content)")
          #expect(!message.content.contains("Here is what I found"))
        } else {
          #expect(passes == 0, "\(message.content)")
          #expect(message.content.hasSuffix("Here is what I found:\n- Dentist at 10:00"))
        }
        #expect(local.conversations.isEmpty)
      }
    }
  }

  @Test func aSecondPassCutByTheTurnsTimeLimitKeepsWhatItWroteAndTheAnswerIsMarkedTimedOut() async throws {
    try await GeminiWireTests.geminiServer().test(.live) { client in
      let port = try #require(client.port)
      let settings = RemoteSettings(
        url: URL(string: "http://127.0.0.1:\(port)/v1beta")!, kind: .gemini, model: "gemini-test", apiKey: "g-key")
      let model = RoutedChatModel(
        local: factModel(parameters: 135_000_000),
        route: .init(remote: RemoteChatModel(settings: settings), router: ProviderRouter(), preference: .remote))
      var options = GenerationOptions(maxNewTokens: 200, sampling: .greedy)
      options.timeout = .seconds(2)
      // The turn's own answer echoes at once; the second pass (the facts in its system prompt) drips a word every
      // 0.5 s and meets what is left of the 2 s.
      let (message, database, session) = try await turn(with: model, question: "When is it, slowly?", options: options)
      #expect(message.state == .timedOut, "\(message.content)")
      #expect(message.stopReason == .timeout)
      // Both passes wrote: the echo, then at least the first dripped word of the second pass.
      #expect(message.content.components(separatedBy: "When").count - 1 >= 2, "\(message.content)")
      #expect(!message.content.contains("Here is what I found"))
      #expect(try database.messages(in: session).last?.state == .timedOut)
    }
  }

  @Test func aTinyModelAnswersWithTheFactsAsTheyAre() async throws {
    let model = factModel(parameters: 135_000_000)
    let message = try await answer(with: model)
    #expect(message.content == "On it.\n\nHere is what I found:\n- Dentist at 10:00")
    #expect(systemPrompts(model).count == 1)
  }
}

@Suite("Stopping a turn, on a scripted model")
struct ScriptedStopTests {
  @Test func aStoppedTurnKeepsWhatWasSaidAndFreesTheSession() async throws {
    let database = try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("h.sqlite").path)
    // Slow enough that the stop lands between pieces.
    let model = ScriptedChatModel(pieces: ["One, ", "two, ", "three, ", "four."], pause: .milliseconds(200))
    let service = ChatService(database: database, model: model)
    let session = try await service.newSession()
    var shown = ""
    var final: StoredMessage?
    for await event in try await service.send("Count to four.", to: session.id) {
      switch event {
      case .answer(let text):
        shown += text
        if shown == "One, " { await service.stop(session.id) }
      case .finished(let message): final = message
      default: break
      }
    }
    let message = try #require(final)
    #expect(message.state == .cancelled)
    #expect(message.content == "One, ")
    #expect(try database.messages(in: session.id).last?.content == "One, ")
    #expect(await !service.isGenerating(session.id))
    #expect(model.conversations.count == 1)
  }
}

@Suite("Continuing an answer acts only on what the continuation wrote")
struct ContinueActionTests {
  @Test func aBlockInThePartGoneOnFromNeverRunsAndTheNewOneRunsOnce() async throws {
    let database = try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("h.sqlite").path)
    let processed = Mutex<[String]>([])
    let hooks = ChatService.ActionHooks(
      grammar: { (#"root ::= "x""#, #"[\s\S]*?(QQQ[\s\S]*)"#) },
      process: { message, _ in
        processed.withLock { $0.append(message.content) }
        return []
      })
    let model = ScriptedChatModel(pieces: [" and the rest. ", #"[NOTE_ACTION:{"action":"create","title":"New"}]"#])
    let service = ChatService(database: database, model: model, actionHooks: hooks)
    let session = try await service.newSession()
    // As an edited, imported session leaves it: an interrupted answer holding a block nobody generated here.
    _ = try database.appendMessage(StoredMessage(sessionID: session.id, index: 0, role: .user, content: "Go on"))
    let injected = #"Part one [NOTE_ACTION:{"action":"create","title":"Injected"}]"#
    let partial = try database.appendMessage(
      StoredMessage(
        sessionID: session.id, index: 1, role: .assistant, content: injected, state: .interrupted,
        stopReason: .maxTokens))
    var final: StoredMessage?
    for await event in try await service.continueAnswer(partial.id, in: session.id) {
      if case .finished(let message) = event { final = message }
    }
    #expect(try #require(final).content.hasPrefix(injected))
    let seen = processed.withLock { $0 }
    #expect(seen == [#" and the rest. [NOTE_ACTION:{"action":"create","title":"New"}]"#], "\(seen)")
  }
}

@Suite("A turn says what it prepares, and stops from its first moment")
struct PreparingTests {
  private func engine(_ model: ScriptedChatModel) throws -> Engine {
    try Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]),
      answering: model)
  }

  @Test func aRequestForAnActionIsAnnouncedInWordsBeforeTheAnswer() async throws {
    let engine = try engine(ScriptedChatModel(pieces: ["Fine."]))
    let session = try await engine.chat.newSession()
    var events: [String] = []
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message("Remind me to buy stamps"))) { event in
      switch event {
      case .chat(.preparing(let words)): events.append("preparing: \(words)")
      case .chat(.answer): events.append("answer")
      default: break
      }
    }
    #expect(events.first == "preparing: Looking at your reminders…")
    // The drafted answer is its block alone: the card says what it does.
    let answer = try #require(try engine.sessions.messages(in: session.id).last)
    #expect(answer.content.hasPrefix("[REMINDER_ACTION:"))
    var plain: [String] = []
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message("Tell me a joke"))) { event in
      if case .chat(.preparing(let words)) = event { plain.append(words) }
    }
    #expect(plain.isEmpty)
  }

  @Test func aStopWhileTheRequestIsReadLeavesAStoppedEmptyAnswer() async throws {
    // The model takes a while to be ready (as one being loaded does), so the stop lands before any answer
    // however fast the rest of the turn is.
    let engine = try engine(ScriptedChatModel(pieces: ["Fine."], preparation: .seconds(5)))
    let session = try await engine.chat.newSession()
    // Esc at once: the turn is stopped while it reads the request, before any answer.
    let events = try await engine.chat.send("Add a note called Boiler: it needs a service in March", to: session.id)
    await engine.chat.stop(session.id)
    var final: StoredMessage?
    for await event in events {
      if case .finished(let message) = event { final = message }
    }
    #expect(final?.state == .cancelled)
    #expect(final?.stopReason == .cancelled)
    #expect(final?.content.isEmpty == true)
    #expect(try engine.notes.list().isEmpty)
    #expect(await !engine.chat.isGenerating(session.id))
  }
}
