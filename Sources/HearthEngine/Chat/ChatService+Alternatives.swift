public import Foundation
public import HearthCore
import HearthStore

/// What starts a turn: a new message, or another go at one already there.
public enum TurnKind: Sendable, Hashable {
  /// A new message from the user.
  case message(String)
  /// The answer with this id, answered again; the old one is kept as an alternative.
  case regenerate(UUID)
  /// The user's message with this id, sent again with new text; the old one is kept as an alternative.
  case edit(UUID, text: String)
  /// The unfinished answer with this id, carried on where it stopped.
  case continueAnswer(UUID)

  /// The words the user writes with this turn: a new message's or an edit's; `nil` for the others.
  public var newText: String? {
    switch self {
    case .message(let text), .edit(_, let text): text
    case .regenerate, .continueAnswer: nil
    }
  }
}

extension ChatService {
  /// Starts a turn of any kind; see ``send(_:to:systemPrompt:options:)``, ``regenerate(_:in:systemPrompt:options:)``,
  /// ``edit(_:to:in:systemPrompt:options:)`` and ``continueAnswer(_:in:systemPrompt:options:)``. `chosen` is a
  /// model the turn generates with in place of the chat's own (a persona's, held for the turn by its caller).
  public func start(
    _ kind: TurnKind, in sessionID: UUID, systemPrompt: String? = nil, options: GenerationOptions? = nil,
    attachments: [UUID] = [], model chosen: (any ChatModel)? = nil
  ) throws -> AsyncStream<ChatEvent> {
    if case .message = kind {} else if !attachments.isEmpty { throw ChatError.attachmentsNeedANewMessage }
    modelForStartingTurn = chosen
    defer { modelForStartingTurn = nil }
    return switch kind {
    case .message(let text):
      try send(text, to: sessionID, systemPrompt: systemPrompt, options: options, attachments: attachments)
    case .regenerate(let id): try regenerate(id, in: sessionID, systemPrompt: systemPrompt, options: options)
    case .edit(let id, let text): try edit(id, to: text, in: sessionID, systemPrompt: systemPrompt, options: options)
    case .continueAnswer(let id):
      try continueAnswer(id, in: sessionID, systemPrompt: systemPrompt, options: options)
    }
  }

  /// Throws what ``start(_:in:systemPrompt:options:)`` would throw for `kind` now, changing nothing; a server
  /// checks before it answers, so a request that cannot start gets its own status rather than a stream.
  public func check(_ kind: TurnKind, in sessionID: UUID, attachments: [UUID] = []) throws {
    _ = try database.session(sessionID)
    _ = try ready(sessionID, options: nil)
    if case .message = kind {} else if !attachments.isEmpty { throw ChatError.attachmentsNeedANewMessage }
    try checkWaiting(attachments, in: sessionID)
    switch kind {
    case .message(let text): _ = try Self.messageText(text)
    case .regenerate(let id): _ = try answerToRegenerate(id, in: try database.messages(in: sessionID))
    case .edit(let id, let text):
      _ = try Self.messageText(text)
      _ = try messageToEdit(id, in: try database.messages(in: sessionID))
    case .continueAnswer(let id): _ = try answerToContinue(id, in: try database.messages(in: sessionID))
    }
  }

  /// Answers a question again. The answer `messageID` and everything after it are kept as an alternative the
  /// user can bring back (``showAlternative(_:at:in:)``); the new answer takes their place.
  /// - Throws: ``ChatError/notAnAnswer`` unless `messageID` is an answer to a user's message; the errors of
  ///   ``send(_:to:systemPrompt:options:)``.
  public func regenerate(
    _ messageID: UUID, in sessionID: UUID, systemPrompt: String? = nil, options: GenerationOptions? = nil
  ) throws -> AsyncStream<ChatEvent> {
    let (model, options) = try ready(sessionID, options: options)
    let messages = try database.messages(in: sessionID)
    let index = try answerToRegenerate(messageID, in: messages)
    let user = messages[index - 1]
    let placeholder = try database.branch(
      sessionID, at: messages[index].index,
      replacingWith: [
        StoredMessage(
          sessionID: sessionID, index: 0, role: .assistant, content: "", state: .generating, createdAt: now())
      ])[0]
    let session = try database.modifySession(sessionID) { [name = model.name] in $0.model = name }
    return begin(
      Start(question: user.content, user: user, assistant: placeholder, session: session, systemPrompt: systemPrompt),
      model: model, options: options)
  }

  /// Sends `text` in place of the user's message `messageID`: that message and everything after it are kept as
  /// an alternative, and the edited message is answered.
  /// - Throws: ``ChatError/notAUserMessage`` unless `messageID` is the user's; the errors of
  ///   ``send(_:to:systemPrompt:options:)``.
  public func edit(
    _ messageID: UUID, to text: String, in sessionID: UUID, systemPrompt: String? = nil,
    options: GenerationOptions? = nil
  ) throws -> AsyncStream<ChatEvent> {
    let text = try Self.messageText(text)
    let (model, options) = try ready(sessionID, options: options)
    let original = try messageToEdit(messageID, in: try database.messages(in: sessionID))
    let timestamp = now()
    let stored = try database.branch(
      sessionID, at: original.index,
      replacingWith: [
        StoredMessage(sessionID: sessionID, index: 0, role: .user, content: text, createdAt: timestamp),
        StoredMessage(
          sessionID: sessionID, index: 0, role: .assistant, content: "", state: .generating, createdAt: timestamp),
      ])
    let session = try database.modifySession(sessionID) { [name = model.name] in $0.model = name }
    return begin(
      Start(question: text, user: stored[0], assistant: stored[1], session: session, systemPrompt: systemPrompt),
      model: model, options: options)
  }

  /// Carries on the answer `messageID` where it stopped (stopped by the user or the time limit, cut off by
  /// its length limit, a failure or a crash): the model continues its own text, and the answer grows in place.
  /// - Throws: ``ChatError/cannotContinue(_:)`` for anything but the chat's last answer left unfinished; the
  ///   errors of ``send(_:to:systemPrompt:options:)``.
  public func continueAnswer(
    _ messageID: UUID, in sessionID: UUID, systemPrompt: String? = nil, options: GenerationOptions? = nil
  ) throws -> AsyncStream<ChatEvent> {
    let (model, options) = try ready(sessionID, options: options)
    let messages = try database.messages(in: sessionID)
    let index = try answerToContinue(messageID, in: messages)
    var answer = messages[index]
    answer.state = .generating
    answer.error = nil
    answer.stopReason = nil
    answer.updatedAt = now()
    try database.updateMessage(answer)
    let session = try database.session(sessionID)
    return begin(
      Start(
        question: messages[index - 1].content, user: messages[index - 1], assistant: answer, session: session,
        systemPrompt: systemPrompt, continuing: true),
      model: model, options: options)
  }

  /// Shows alternative `index` (from 0, oldest first) of the fork at `position`, keeping the one shown as an
  /// alternative; returns the chat's messages as now shown.
  /// - Throws: ``ChatError/alreadyGenerating(sessionID:)`` while the chat answers; `StoreError` for an
  ///   unknown fork or alternative.
  public func showAlternative(_ index: Int, at position: Int, in sessionID: UUID) async throws -> [StoredMessage] {
    guard !isGenerating(sessionID) else { throw ChatError.alreadyGenerating(sessionID: sessionID) }
    let messages = try database.showAlternative(index, at: position, in: sessionID)
    // What the memory holds of this chat is the path shown.
    if let memoryHooks { await memoryHooks.remember(try database.session(sessionID)) }
    return messages
  }

  /// The index of the answer to regenerate: an assistant's message that follows a user's.
  private func answerToRegenerate(_ id: UUID, in messages: [StoredMessage]) throws -> Int {
    guard let index = messages.firstIndex(where: { $0.id == id }) else {
      throw StoreError.messageNotFound(id.uuidString)
    }
    guard messages[index].role == .assistant, index > 0, messages[index - 1].role == .user else {
      throw ChatError.notAnAnswer
    }
    return index
  }

  private func messageToEdit(_ id: UUID, in messages: [StoredMessage]) throws -> StoredMessage {
    guard let message = messages.first(where: { $0.id == id }) else { throw StoreError.messageNotFound(id.uuidString) }
    guard message.role == .user else { throw ChatError.notAUserMessage }
    return message
  }

  /// The index of the answer to continue: the chat's last, with words in it, left unfinished.
  private func answerToContinue(_ id: UUID, in messages: [StoredMessage]) throws -> Int {
    let index = try answerToRegenerate(id, in: messages)
    let answer = messages[index]
    guard index == messages.count - 1 else { throw ChatError.cannotContinue("only the last answer can go on") }
    guard !answer.content.isEmpty else { throw ChatError.cannotContinue("the answer is empty; regenerate it") }
    let unfinished: Set<MessageState> = [.cancelled, .timedOut, .interrupted, .failed]
    guard unfinished.contains(answer.state) || answer.stopReason == .maxTokens else {
      throw ChatError.cannotContinue("the answer is finished")
    }
    return index
  }
}
