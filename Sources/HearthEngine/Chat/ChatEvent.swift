public import Foundation
public import HearthCore

/// What happens during one turn, in order, for any front end to render.
public enum ChatEvent: Sendable, Hashable {
  /// The user's message was saved and the answer's placeholder created.
  case started(user: StoredMessage, assistant: StoredMessage)
  /// Older messages no longer fit the context and were replaced by a summary.
  case trimmed(droppedMessages: Int)
  /// What the turn does before it answers — "Checking your calendar…" — while it reads the request and prepares
  /// an action or a tool call; sent before the answer, only for a request that asks for one.
  case preparing(String)
  /// The notes, documents and past chats retrieved for the question, numbered as the answer cites them;
  /// sent before the answer, only when the memory found something.
  case sources([Citation])
  /// Answer text.
  case answer(String)
  /// Thinking text.
  case thinking(String)
  /// The answer's action blocks and what became of them (created, pending confirmation, answered, …);
  /// sent before `finished`, only when the answer had blocks.
  case actions([ActionRecord])
  /// The answer written so far is replaced by this text, for the reason given: it stated something about the
  /// user's data that no record read in the turn holds, so what was found (or "I couldn't find …") stands in
  /// for it; or it began repeating itself, and what it said once stands.
  case replaced(String, because: Replacement)
  /// The turn ended; the final stored message (state, stop reason, figures).
  case finished(StoredMessage)
}

/// Why a turn could not start.
public enum ChatError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Nothing to send.
  case emptyMessage
  /// The session is already answering.
  case alreadyGenerating(sessionID: UUID)
  /// No model is loaded yet.
  case modelNotReady
  /// Only an answer to a user's message can be answered again or continued.
  case notAnAnswer
  /// Only the user's own messages can be edited.
  case notAUserMessage
  /// The answer cannot go on, for the reason given.
  case cannotContinue(String)
  /// Files go with a new message only, not with a regenerate, edit or continue.
  case attachmentsNeedANewMessage
  /// A turn that is not kept answers one new message, with no files and nothing before it to regenerate,
  /// edit or continue.
  case unkeptTurnTakesOneMessage

  public var description: String {
    switch self {
    case .emptyMessage: "the message is empty"
    case .alreadyGenerating: "this session is already answering; wait for it or stop it first"
    case .modelNotReady: "no model is loaded yet"
    case .notAnAnswer: "only an answer to a message can be regenerated or continued"
    case .notAUserMessage: "only your own messages can be edited"
    case .cannotContinue(let reason): "this answer cannot be continued: \(reason)"
    case .attachmentsNeedANewMessage: "files can be attached to a new message only"
    case .unkeptTurnTakesOneMessage: "an answer that is not saved takes one new message, without files"
    }
  }
}

/// How the chat service behaves.
public struct ChatConfiguration: Sendable, Hashable {
  /// Generation settings for answers.
  public var generation: GenerationOptions
  /// Show thinking to the user (it is stored either way).
  public var showsThinking: Bool
  /// How often a streaming answer is saved.
  public var persistInterval: Duration
  /// Summarise trimmed turns with the model (once per trim, cached); otherwise, or when that fails, an
  /// extractive summary is used.
  public var summarizesWithModel: Bool
  /// Let answers act on the user's data through action blocks: the system prompt teaches them, generation
  /// is constrained by their grammar once a block starts, and a finished answer's blocks run.
  public var actions: Bool
  /// Let answers draw on the memory (notes, documents, past chats) when the embedding model is installed;
  /// each chat can still turn it off.
  public var memory: Bool
  /// Where a local model keeps each chat's evaluated state between turns and restarts; `nil` keeps none.
  public var conversationStates: URL?

  public init(
    generation: GenerationOptions = .init(), showsThinking: Bool = true, persistInterval: Duration = .milliseconds(250),
    summarizesWithModel: Bool = true, actions: Bool = true, memory: Bool = true
  ) {
    self.actions = actions
    self.memory = memory
    self.generation = generation
    self.showsThinking = showsThinking
    self.persistInterval = persistInterval
    self.summarizesWithModel = summarizesWithModel
  }
}

/// Why an answer shown so far was replaced (``ChatEvent/replaced(_:because:)``).
public enum Replacement: String, Sendable, Hashable {
  /// It stated what the records read for the turn do not hold.
  case notInTheData = "not_in_the_data"
  /// It began repeating itself; one copy is kept.
  case repeating
}
