public import Foundation
public import HearthCore
public import HearthStore

/// The life of a chat turn, independent of any user interface: guards, persistence of the user message
/// and of the answer as it streams, the context budget, thinking, stop handling and crash repair.
public actor ChatService {
  private let database: HearthDatabase
  private var model: (any ChatModel)?
  private let configuration: ChatConfiguration
  private let now: @Sendable () -> Date
  private var activeTurns: [UUID: Task<Void, Never>] = [:]

  /// Creates the service. `model` may be set later, once loaded.
  public init(
    database: HearthDatabase, model: (any ChatModel)?, configuration: ChatConfiguration = .init(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.database = database
    self.model = model
    self.configuration = configuration
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

  /// Starts an empty session.
  public func newSession(title: String = SessionTitle.placeholder) throws -> ChatSession {
    try database.createSession(ChatSession(title: title, createdAt: now(), model: model?.name))
  }

  /// Whether `sessionID` is answering right now.
  public func isGenerating(_ sessionID: UUID) -> Bool { activeTurns[sessionID] != nil }

  /// Stops the answer being generated in `sessionID`, keeping what was said so far.
  public func stop(_ sessionID: UUID) {
    activeTurns[sessionID]?.cancel()
  }

  /// Sends a user message and streams the turn's events. The user message and an empty answer are saved
  /// before this returns; the answer is saved as it grows and once more when it ends, whatever the reason.
  /// Stopping the iteration stops the answer.
  /// - Throws: ``ChatError`` for an empty message, a session already answering or no model;
  ///   `StoreError` when the session does not exist or the database fails.
  public func send(
    _ text: String, to sessionID: UUID, systemPrompt: String? = nil, options: GenerationOptions? = nil
  ) throws -> AsyncStream<ChatEvent> {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw ChatError.emptyMessage }
    guard activeTurns[sessionID] == nil else { throw ChatError.alreadyGenerating(sessionID: sessionID) }
    guard let model else { throw ChatError.modelNotReady }
    let options = options ?? configuration.generation
    try options.validate()

    var session = try database.session(sessionID)
    let timestamp = now()
    let user = try database.appendMessage(
      StoredMessage(sessionID: sessionID, index: 0, role: .user, content: text, createdAt: timestamp))
    let placeholder = try database.appendMessage(
      StoredMessage(
        sessionID: sessionID, index: 0, role: .assistant, content: "", state: .generating, createdAt: timestamp))
    session = try database.modifySession(sessionID) { [name = model.name] session in
      if session.title == SessionTitle.placeholder { session.title = SessionTitle.from(text) }
      session.model = name
    }

    let (events, continuation) = AsyncStream.makeStream(of: ChatEvent.self)
    continuation.yield(.started(user: user, assistant: placeholder))
    let turn = Turn(
      database: database, model: model, session: session, assistant: placeholder, systemPrompt: systemPrompt,
      options: options, configuration: configuration, now: now, events: continuation)
    let task = Task {
      let final = await turn.run()
      // The session is free again before anyone hears that the turn ended.
      self.turnEnded(sessionID)
      continuation.yield(.finished(final))
      continuation.finish()
    }
    activeTurns[sessionID] = task
    continuation.onTermination = { _ in task.cancel() }
    return events
  }

  private func turnEnded(_ sessionID: UUID) {
    activeTurns[sessionID] = nil
  }
}
