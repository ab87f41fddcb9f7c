import Foundation
import HearthCore
import HearthMemory
import HearthStore
import Logging

/// The personas' backstories: each indexed as a source of its own (`backstory:` + the persona's id) and read
/// only in the chats started with its persona, never by the memory's search for another chat.
extension MemoryService {
  /// What the system prompt holds of a backstory, in the model's tokens; a longer one is retrieved in parts.
  public static let backstoryBudget = 200

  /// The source id of `persona`'s backstory in the index.
  static func backstoryID(_ persona: UUID) -> String { "backstory:\(persona.uuidString)" }

  /// Brings the backstories collection in step with the personas: a changed backstory indexed again (an
  /// unchanged one costs nothing), a removed one or one of a deleted persona dropped.
  @discardableResult
  public func syncBackstories() async throws -> (indexed: Int, removed: Int) {
    let texts = try database.personas().filter { !$0.backstory.isEmpty }.map { persona in
      SourceText(
        id: Self.backstoryID(persona.id), collection: .backstories, title: "\(persona.name)'s backstory",
        location: persona.id.uuidString, text: persona.backstory)
    }
    return try await sync(.backstories, to: texts)
  }

  /// The three pieces of `persona`'s backstory nearest `question`, whatever their similarity (as the seeds'
  /// companions retrieve theirs), cut to their sentences that speak to it when any does; none for a backstory
  /// that fits the system prompt whole, or without the embedding model (the prompt then holds its start).
  func backstoryPieces(of persona: Persona, for question: String, countTokens: (String) -> Int) async -> [MemoryHit] {
    guard isAvailable, !persona.backstory.isEmpty, countTokens(persona.backstory) > Self.backstoryBudget else {
      return []
    }
    do {
      try await syncBackstories()
      let own = Self.backstoryID(persona.id)
      let others = try database.memorySources(in: .backstories).map(\.id).filter { $0 != own }
      return try await nearestPieces(
        to: question, options: RetrievalOptions(k: 3, collections: [.backstories], excludedSources: Set(others)))
    } catch {
      logger.error("a persona's backstory could not be searched", metadata: ["error": "\(ErrorKind.of(error))"])
      return []
    }
  }
}
