public import Foundation
public import HearthCore
public import HearthMemory
public import HearthStore
public import Logging

/// The life of a chat turn, independent of any user interface: guards, persistence of the user message
/// and of the answer as it streams, the context budget, thinking, stop handling and crash repair.
public actor ChatService {
  let database: HearthDatabase
  private var model: (any ChatModel)?
  // The model the turn being started generates with in place of `model` (a persona's own, held by the
  // engine for it), set only while ``start(_:in:systemPrompt:options:attachments:model:)`` runs: the actor
  // runs that call through without a suspension, so no other turn sees it.
  var modelForStartingTurn: (any ChatModel)?
  private let configuration: ChatConfiguration
  let now: @Sendable () -> Date
  private let logger: Logger
  private var activeTurns: [UUID: Task<Void, Never>] = [:]
  // Turns taken in for a session that have not started yet (in line for the model, or while it loads): a stop
  // meanwhile is kept, and the turn, once it starts, ends at once as stopped with nothing generated.
  private var waitingTurns: [UUID: Set<UUID>] = [:]
  private var stopsWhileWaiting: Set<UUID> = []
  private let actionHooks: ActionHooks?
  let memoryHooks: MemoryHooks?

  /// What a chat needs from the memory: the section of retrieved notes for a question (or `nil`), and what
  /// indexes a chat once a turn has ended.
  public struct MemoryHooks: Sendable {
    public var context: @Sendable (String, UUID, any ChatModel) async -> MemoryContext?
    public var remember: @Sendable (ChatSession) async -> Void
    /// Keeps as facts what the user told about themselves in messages that leave the prompt for a summary.
    public var keepFacts: @Sendable ([StoredMessage]) async -> Void

    public init(
      context: @escaping @Sendable (String, UUID, any ChatModel) async -> MemoryContext?,
      remember: @escaping @Sendable (ChatSession) async -> Void,
      keepFacts: @escaping @Sendable ([StoredMessage]) async -> Void = { _ in }
    ) {
      self.context = context
      self.remember = remember
      self.keepFacts = keepFacts
    }
  }

  /// What a chat needs from the action pipeline: the grammar a block's payload must follow once
  /// `trigger` matches, and what runs a finished answer's blocks.
  public struct ActionHooks: Sendable {
    /// The grammar and its trigger, read for each turn (the tools offered change as servers are added).
    public var grammar: @Sendable () -> (grammar: String, trigger: String)
    /// How the model is told to call the tools offered, or `nil` when none are: a pass after a tool's result
    /// may call another.
    public var tools: @Sendable () -> String?
    /// Runs a finished answer's blocks, given the texts its blocks may not come from.
    public var process: @Sendable (StoredMessage, TurnTexts) async -> [ActionRecord]
    /// What the turn is doing while it prepares the answer to `request`, in words, or `nil` for a request
    /// that asks for no action or tool.
    public var preparing: (@Sendable (String) -> String?)?
    /// Writes the answer for a request that asks for an action or a tool (its block, written with the model
    /// under a pinned grammar), or `nil` for one that does not; the turn then answers with it instead of free
    /// text.
    public var draft: (@Sendable (String, any ChatModel, UUID) async -> String?)?
    /// Checks a finished answer against the records its turn read (``AnswerCheck``): `nil` when it may be shown
    /// as written, else what is shown instead — what was found, or an honest "I couldn't find …".
    public var check: (@Sendable (AnswerToCheck, any ChatModel) async -> CheckedAnswer?)?

    public init(
      grammar: @escaping @Sendable () -> (grammar: String, trigger: String),
      tools: @escaping @Sendable () -> String? = { nil },
      process: @escaping @Sendable (StoredMessage, TurnTexts) async -> [ActionRecord],
      draft: (@Sendable (String, any ChatModel, UUID) async -> String?)? = nil,
      check: (@Sendable (AnswerToCheck, any ChatModel) async -> CheckedAnswer?)? = nil,
      preparing: (@Sendable (String) -> String?)? = nil
    ) {
      self.check = check
      self.preparing = preparing
      self.grammar = grammar
      self.tools = tools
      self.process = process
      self.draft = draft
    }
  }

  /// Creates the service. `model` may be set later, once loaded. With `actionHooks` (and
  /// ``ChatConfiguration/actions`` on), answers are constrained by the block grammar and their blocks run.
  public init(
    database: HearthDatabase, model: (any ChatModel)?, configuration: ChatConfiguration = .init(),
    actionHooks: ActionHooks? = nil, memoryHooks: MemoryHooks? = nil, now: @escaping @Sendable () -> Date = { Date() },
    logger: Logger = .discarding
  ) {
    self.logger = logger
    self.database = database
    self.model = model
    self.configuration = configuration
    self.actionHooks = configuration.actions ? actionHooks : nil
    self.memoryHooks = configuration.memory ? memoryHooks : nil
    self.now = now
  }

  /// Sets (or clears) the model that answers.
  public func setModel(_ model: (any ChatModel)?) {
    self.model = model
  }

  /// Repairs what an earlier crash left behind; run once at start-up.
  @discardableResult
  public func repair() throws -> RepairReport {
    try database.repairAfterCrash()
  }

  /// Starts an empty session, answered by the persona with the id `persona` when one is given (both written
  /// at once: no chat is made for a persona that is not there).
  public func newSession(
    title: String = SessionTitle.placeholder, persona: UUID? = nil, instructions: String? = nil
  ) throws -> ChatSession {
    let session = ChatSession(title: title, createdAt: now(), model: model?.name)
    if let persona { return try database.createSession(session, persona: persona) }
    if let instructions { return try database.createSession(session, instructions: instructions) }
    return try database.createSession(session)
  }

  /// Whether `sessionID` is answering right now.
  public func isGenerating(_ sessionID: UUID) -> Bool {
    activeTurns[sessionID] != nil || waitingTurns[sessionID] != nil
  }

  /// A turn for `sessionID` waits to start (``Engine/runTurn(_:onEvent:)`` says so before it waits for the
  /// model): until ``turnStopsWaiting(_:in:)`` with the token returned, the session counts as answering and a
  /// stop is kept for it.
  func turnWaits(in sessionID: UUID) -> UUID {
    let token = UUID()
    waitingTurns[sessionID, default: []].insert(token)
    return token
  }

  /// The turn that waited has started, or will not (saying so again changes nothing): a stop kept for it goes
  /// with the last turn waiting in the session.
  func turnStopsWaiting(_ token: UUID, in sessionID: UUID) {
    guard var waiting = waitingTurns[sessionID], waiting.remove(token) != nil else { return }
    waitingTurns[sessionID] = waiting.isEmpty ? nil : waiting
    if waiting.isEmpty { stopsWhileWaiting.remove(sessionID) }
  }

  /// Returns once the turn running in `sessionID`, if any, has ended and stored its answer as it ended.
  public func settled(_ sessionID: UUID) async {
    await activeTurns[sessionID]?.value
  }

  /// Stops the answer being generated in `sessionID`, keeping what was said so far.
  public func stop(_ sessionID: UUID) {
    if let running = activeTurns[sessionID] {
      running.cancel()
    } else if waitingTurns[sessionID] != nil {
      stopsWhileWaiting.insert(sessionID)
    }
  }

  /// Sends a user message and streams the turn's events. The user message and an empty answer are saved
  /// before this returns; the answer is saved as it grows and once more when it ends, whatever the reason.
  /// Stopping the iteration stops the answer.
  /// - Throws: ``ChatError`` for an empty message, a session already answering or no model;
  ///   `StoreError` when the session does not exist or the database fails.
  public func send(
    _ text: String, to sessionID: UUID, systemPrompt: String? = nil, options: GenerationOptions? = nil,
    attachments: [UUID] = []
  ) throws -> AsyncStream<ChatEvent> {
    let text = try Self.messageText(text)
    let (model, options) = try ready(sessionID, options: options)
    _ = try database.session(sessionID)
    let files = try checkWaiting(attachments, in: sessionID)
    let timestamp = now()
    let user = try database.appendMessage(
      StoredMessage(
        sessionID: sessionID, index: 0, role: .user, content: text, attachments: files.map(\.summary),
        createdAt: timestamp))
    if !files.isEmpty { try database.bindAttachments(files.map(\.id), to: user.id, in: sessionID) }
    let placeholder = try database.appendMessage(
      StoredMessage(
        sessionID: sessionID, index: 0, role: .assistant, content: "", state: .generating, createdAt: timestamp))
    let session = try database.modifySession(sessionID) { [name = model.name] session in
      if session.title == SessionTitle.placeholder { session.title = SessionTitle.from(text) }
      session.model = name
    }
    return begin(
      Start(question: text, user: user, assistant: placeholder, session: session, systemPrompt: systemPrompt),
      model: model, options: options)
  }

  /// The attachments waiting in `sessionID` that `ids` name, in that order.
  /// - Throws: ``AttachmentError/notWaiting(_:)`` for one that is not waiting there.
  @discardableResult
  func checkWaiting(_ ids: [UUID], in sessionID: UUID) throws -> [StoredAttachment] {
    try ids.map { id in
      guard let file = try database.attachment(id), file.sessionID == sessionID, file.messageID == nil else {
        throw AttachmentError.notWaiting(id)
      }
      return file
    }
  }

  /// A message as it is stored: without surrounding white space, and never empty.
  static func messageText(_ text: String) throws -> String {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw ChatError.emptyMessage }
    return text
  }

  /// The model and options a new turn in `sessionID` will use, once nothing stands in its way.
  func ready(_ sessionID: UUID, options: GenerationOptions?) throws -> (any ChatModel, GenerationOptions) {
    guard activeTurns[sessionID] == nil else { throw ChatError.alreadyGenerating(sessionID: sessionID) }
    guard let model = modelForStartingTurn ?? model else { throw ChatError.modelNotReady }
    var options = options ?? configuration.generation
    try options.validate()
    if options.conversationState == nil, let folder = configuration.conversationStates {
      options.conversationState = ConversationStateKey(directory: folder, name: sessionID.uuidString)
    }
    if let actionHooks, options.grammar == nil {
      (options.grammar, options.grammarTrigger) = actionHooks.grammar()
    }
    return (model, options)
  }

  /// What a turn starts from: the question, its two stored messages and how the answer is made.
  struct Start: Sendable {
    var question: String
    var user: StoredMessage
    var assistant: StoredMessage
    var session: ChatSession
    var systemPrompt: String?
    /// The answer exists and goes on from where it stopped.
    var continuing = false
  }

  /// Runs a turn whose messages are stored: drafting, memory, the answer, its actions and the second pass.
  func begin(_ start: Start, model: any ChatModel, options: GenerationOptions) -> AsyncStream<ChatEvent> {
    let (events, continuation) = AsyncStream.makeStream(of: ChatEvent.self)
    continuation.yield(.started(user: start.user, assistant: start.assistant))
    let hooks = actionHooks
    let memoryHooks = memoryHooks
    let database = database
    let sessionID = start.session.id
    let text = start.question
    let task = Task { [configuration, now, logger] in
      // A model that was unloaded comes back before anything counts its tokens; a failure to load is
      // reported by the turn, which prepares again.
      try? await model.prepare()
      if !start.continuing, let words = hooks?.preparing?(text) { continuation.yield(.preparing(words)) }
      // An answer that goes on keeps its beginning: no draft, and the sources it already cites.
      let drafted = start.continuing ? nil : await hooks?.draft?(text, model, sessionID)
      // Stopped while the request was read: stopped it is, with nothing said and nothing done.
      if Task.isCancelled, !start.continuing {
        var stopped = start.assistant
        stopped.state = .cancelled
        stopped.stopReason = .cancelled
        stopped.updatedAt = now()
        _ = logger.attempt("saving a stopped answer") { try database.updateMessage(stopped) }
        self.turnEnded(sessionID)
        continuation.yield(.finished(stopped))
        continuation.finish()
        return
      }
      // A drafted action answers without the model reading anything, so it needs no memory.
      let memory =
        drafted == nil && !start.continuing ? await memoryHooks?.context(text, sessionID, model) : nil
      if let memory {
        do {
          try database.setCitations(memory.citations, for: start.assistant.id)
        } catch {
          // The answer still shows them; a reopened chat will not.
          logger.warning("an answer's sources could not be saved", metadata: ["error": "\(ErrorKind.of(error))"])
        }
        continuation.yield(.sources(memory.citations))
      }
      // The time limit covers the answer and its second pass, not the wait for the model.
      let generationStarted = ContinuousClock.now
      let turn = Turn(
        database: database, model: model, session: start.session, assistant: start.assistant,
        systemPrompt: start.systemPrompt, options: options, configuration: configuration, now: now,
        events: continuation, prewritten: drafted, memory: memory,
        continuing: start.continuing, keepFacts: memoryHooks?.keepFacts ?? { @Sendable _ in })
      var final = await turn.run()
      if final.stopReason == .repetition {
        // Counted as the data check's replacements are: by kind, never with the words.
        logger.attempt("counting a cut loop") {
          try database.recordTelemetry(TelemetryRecord(at: now(), kind: .answerReplaced, detail: "repeating"))
        }
      }
      // Only a whole answer acts: a stopped or failed one may hold half a block. A continued answer acts only
      // on what this turn wrote: the part it went on from was never run (it had stopped) and may not be the
      // model's at all (an imported session), so its blocks stay text.
      var written = final
      if start.continuing {
        written.content =
          final.content.hasPrefix(start.assistant.content)
          ? String(final.content.dropFirst(start.assistant.content.count)) : ""
      }
      // What the model read that Hearth did not write: the memory's pieces, the part of the answer it went on
      // from, or — in a session imported from a file — the whole conversation before.
      // Every input of the decision whether proposals wait fails closed: a read that fails makes them wait.
      var unreadable = false
      func read<T>(_ what: String, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
          unreadable = true
          logger.error(
            "a turn's \(what) could not be read; its proposals wait for confirmation",
            metadata: ["error": "\(ErrorKind.of(error))"])
          return nil
        }
      }
      let earlier = read("conversation") { try database.messages(in: sessionID) }?.filter {
        $0.role != .system && $0.id != start.user.id && $0.id != start.assistant.id
      }.map(\.content).joined(separator: "\n")
      let imported = read("origin") { try database.isImported(sessionID) } ?? true
      // An automation's turn runs with no one there: whatever it proposes waits for the user.
      let unattended = read("origin") { try database.isAutomationSession(sessionID) } ?? true
      // Attached files are read as data too.
      let attached = (read("attachments") { try database.attachments(in: sessionID) } ?? []).filter {
        $0.messageID != nil
      }.map(\.text)
      // So is a persona's backstory, whole in the prompt or in pieces: often pasted from elsewhere, it is never
      // the user's request. A block drafted by code from the user's words owes it nothing.
      let backstory =
        drafted == nil ? read("persona") { try database.persona(ofSession: sessionID)?.backstory } ?? nil : nil
      // What the user wrote about themselves and the facts they told are theirs; documents, notes and past
      // chats the memory brought are data, and after them nothing runs on the answer's word alone.
      let retrieved = memory.map { context in
        context.citations.filter { ![.persona, .facts].contains($0.collection) }.compactMap {
          context.passages[$0.number]
        }
      }
      let read = [
        start.continuing ? start.assistant.content : nil,
        retrieved.flatMap { $0.isEmpty ? nil : $0.joined(separator: "\n") },
        imported && drafted == nil ? earlier ?? "" : nil,
        attached.isEmpty ? nil : attached.joined(separator: "\n"),
        backstory.flatMap { $0.isEmpty ? nil : $0 },
      ].compactMap { $0 }
      // A block drafted by code from the user's request is theirs, even when they asked the same before.
      let texts = TurnTexts(
        request: text, read: read.isEmpty ? nil : read.joined(separator: "\n"),
        earlier: drafted == nil ? earlier ?? "" : "", unattended: unattended || unreadable)
      var records = final.state == .complete ? await hooks?.process(written, texts) ?? [] : []
      let facts = records.filter { $0.state == .answered }.compactMap(\.result)
      if !facts.isEmpty, !Task.isCancelled {
        var pass = SecondPass(database: database, model: model, events: continuation, now: now, logger: logger)
        pass.timeLeft = options.timeout.map { $0 - (ContinuousClock.now - generationStarted) }
        if let hooks, let instructions = hooks.tools() {
          let (grammar, trigger) = hooks.grammar()
          pass.tools = (instructions, grammar, trigger)
          pass.step = { [final] text, read in
            // A later pass is the model's own words in a turn the user started, but written after reading the
            // facts: its calls wait as after any read, save a look-up the user lets run.
            var step = final
            step.content = text
            var after = texts
            after.read = ([after.read].compactMap { $0 } + read).joined(separator: "\n")
            after.afterToolResults = true
            return await hooks.process(step, after)
          }
        }
        let more: [ActionRecord]
        (final, more) = await pass.answer(text, facts: facts, into: final)
        records += more
      }
      // Nothing reaches the user that states what the records read for this turn do not hold.
      // A timed-out answer keeps what it said as it was shown: checking it could write a new one past the limit.
      if let check = hooks?.check, final.state == .complete, !Task.isCancelled {
        let checked = await check(
          AnswerToCheck(
            request: text, answer: final.content,
            records: records, memory: memory?.text, passages: memory?.passages ?? [:], earlier: earlier ?? "",
            message: final), model)
        if let checked {
          final.content = checked.text
          final.updatedAt = now()
          records += checked.records
          do {
            try database.updateMessage(final)
          } catch {
            logger.error("a checked answer could not be saved", metadata: ["error": "\(ErrorKind.of(error))"])
          }
          continuation.yield(.replaced(checked.text, because: .notInTheData))
        }
      }
      if let memoryHooks,
        let current = logger.attempt("reading the session to remember", { try database.session(sessionID) })
      {
        await memoryHooks.remember(current)
      }
      // The session is free again before anyone hears that the turn ended.
      self.turnEnded(sessionID)
      if !records.isEmpty { continuation.yield(.actions(records)) }
      continuation.yield(.finished(final))
      continuation.finish()
    }
    activeTurns[sessionID] = task
    continuation.onTermination = { _ in task.cancel() }
    // Stopped while it waited for the model: its message and an empty answer are kept, stopped at once.
    if stopsWhileWaiting.remove(sessionID) != nil { task.cancel() }
    return events
  }

  private func turnEnded(_ sessionID: UUID) {
    activeTurns[sessionID] = nil
  }
}

/// The texts of a turn that its answer's blocks may not be taken from: a block copied from any of them is
/// recorded as not run, and after a `read` nothing runs without the user's confirmation.
public struct TurnTexts: Sendable, Hashable {
  /// The user's message.
  public var request: String
  /// What the model read for the answer that Hearth did not write: retrieved pieces, or the part of an answer
  /// it continued.
  public var read: String?
  /// The conversation before this turn.
  public var earlier: String
  /// No one started the turn (an automation ran it): nothing runs without the user's confirmation.
  public var unattended: Bool
  /// What was read includes tools' results, and the answer goes on from them: a call of a tool that only
  /// reads, and that the user lets run, still runs; anything else waits.
  public var afterToolResults = false

  public init(request: String, read: String? = nil, earlier: String = "", unattended: Bool = false) {
    self.request = request
    self.read = read
    self.earlier = earlier
    self.unattended = unattended
  }
}
