import Foundation
import HearthActions
public import HearthCore
public import HearthMemory
import HearthStore
import Logging

extension MemoryService {
  /// Brings the facts collection in step with the facts that hold today: new and changed ones indexed, the
  /// forgotten, replaced and expired ones dropped, so the memory never finds a fact the user took back.
  @discardableResult
  public func syncFacts() async throws -> (indexed: Int, removed: Int) {
    let texts = try facts.holding().map { fact in
      SourceText(id: "fact:\(fact.id)", collection: .facts, title: fact.text, location: fact.id, text: fact.text)
    }
    return try await sync(.facts, to: texts)
  }

  /// Forgets a fact (with the earlier ones it replaced) and drops it from the index at once, without
  /// waiting for the next search.
  @discardableResult
  public func forget(fact reference: String) async throws -> Fact {
    let fact = try facts.forget(reference)
    try await index.removeIfPresent("fact:\(fact.id)")
    return fact
  }

  /// The facts section of the system prompt: the pinned facts, then those `question` is about, then the
  /// newest, while they fit in `tokenBudget`; those left out are found by the memory's search when a turn needs
  /// them. `nil` when no fact holds today.
  public func factsSection(
    tokenBudget: Int, question: String? = nil, countTokens: (String) -> Int
  ) throws -> FactPrompt.Section? {
    FactPrompt.section(
      for: try facts.holding(), tokenBudget: tokenBudget, question: question, countTokens: countTokens)
  }
}

extension Engine {
  /// Keeps as facts the statements about the user in `messages` (the user's own, leaving the prompt for a
  /// summary) on things no fact, kept or replaced, is about yet, each with the message it came from: an old
  /// statement never takes the place of a newer fact. An imported chat's messages are not kept: Hearth did not
  /// see them said.
  static func keepFacts(
    told messages: [StoredMessage], in facts: FactService, database: HearthDatabase, dayFirst: Bool, logger: Logger
  ) {
    guard let first = messages.first,
      logger.attempt("reading whether a chat was imported", { try database.isImported(first.sessionID) }) == false,
      let known = logger.attempt("reading the facts", { try facts.list(includingHistory: true) })
    else { return }
    // What the facts, kept or replaced, are about: a statement on one of these is not kept again.
    var subjects = Set(known.map { FactSubject.key($0.text) })
    var kept = 0
    // Newest first: of two statements on one thing, the later is the one that holds.
    for message in messages.reversed() where message.role == .user {
      guard case .remember(let text, let until)? = FactStatement.read(message.content, today: facts.today),
        TurnDrafter.tellsNoPlan(message.content, today: facts.today, dayFirst: dayFirst, explicit: false),
        !subjects.contains(FactSubject.key(text))
      else { continue }
      do {
        let fact = try facts.prepared(
          new: Fact(text: text, sessionID: message.sessionID, messageID: message.id, expires: until))
        try database.insert(fact)
        subjects.insert(FactSubject.key(fact.text))
        kept += 1
      } catch {
        logger.warning(
          "a fact from a summarised turn could not be kept", metadata: ["error": "\(ErrorKind.of(error))"])
      }
    }
    if kept > 0 { logger.info("facts kept from summarised turns", metadata: ["count": "\(kept)"]) }
  }
}
