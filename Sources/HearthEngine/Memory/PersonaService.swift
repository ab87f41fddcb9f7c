public import Foundation
public import HearthCore
import HearthStore
import Logging

/// The user's personas: named assistants with their own instructions, backstory, model and sampling, each
/// chat started with one answered as it (``Engine/runTurn(_:onEvent:)``).
public struct PersonaService: Sendable {
  let database: HearthDatabase
  let memory: MemoryService
  let clock: @Sendable () -> Date
  let logger: Logger
  /// Throws when `name` is no chat model this engine can answer with.
  let checkModel: @Sendable (String) throws -> Void

  /// Every persona, by name.
  public func list() throws -> [Persona] { try database.personas() }

  /// The persona `reference` names: its id, or its name whatever the case.
  /// - Throws: ``PersonaError/notFound(_:)``.
  public func find(_ reference: String) throws -> Persona {
    let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = UUID(uuidString: trimmed), let persona = try database.persona(id) { return persona }
    if let persona = try database.persona(named: trimmed) { return persona }
    throw PersonaError.notFound(trimmed)
  }

  /// Adds a persona; its backstory is indexed for retrieval when the memory is available.
  /// - Throws: ``PersonaError`` for a field that breaks a rule, a model that is not installed or a name taken.
  @discardableResult
  public func create(_ persona: Persona) async throws -> Persona {
    var persona = persona.normalized
    let now = clock()
    (persona.createdAt, persona.updatedAt) = (now, now)
    try await save(persona)
    return persona
  }

  /// Changes the persona `reference` names with `change`; its id and creation day stay.
  /// - Throws: ``PersonaError`` as ``create(_:)`` does, or when none is found.
  @discardableResult
  public func update(_ reference: String, _ change: (inout Persona) throws -> Void) async throws -> Persona {
    let found = try find(reference)
    var persona = found
    try change(&persona)
    persona = persona.normalized
    (persona.id, persona.createdAt, persona.updatedAt) = (found.id, found.createdAt, clock())
    try await save(persona)
    return persona
  }

  /// Deletes the persona `reference` names and its backstory's place in the index; its chats stay and are
  /// answered as Hearth from then on.
  /// - Throws: ``PersonaError/notFound(_:)``.
  @discardableResult
  public func delete(_ reference: String) async throws -> Persona {
    let persona = try find(reference)
    guard try database.deletePersona(persona.id) else { throw PersonaError.notFound(reference) }
    await keepIndexInStep()
    return persona
  }

  /// The persona the chat `sessionID` was started with, or `nil`.
  public func persona(ofSession sessionID: UUID) throws -> Persona? { try database.persona(ofSession: sessionID) }

  private func save(_ persona: Persona) async throws {
    try persona.validate()
    if let model = persona.model {
      do {
        try checkModel(model)
      } catch {
        throw PersonaError.invalid(field: "model", "\(error)")
      }
    }
    guard try database.savePersona(persona) else { throw PersonaError.nameTaken(persona.name) }
    await keepIndexInStep()
  }

  /// The backstories in the index follow the personas now; when that fails, the next turn's search does it.
  private func keepIndexInStep() async {
    guard memory.isAvailable else { return }
    do {
      try await memory.syncBackstories()
    } catch {
      logger.error("the personas' backstories could not be indexed", metadata: ["error": "\(ErrorKind.of(error))"])
    }
  }
}

extension Engine {
  /// Starts an empty chat, answered by the persona `reference` names (its id or name) when one is given, or
  /// by the instructions of the template `template` names (copied into the chat, which keeps them).
  /// - Throws: ``PersonaError/notFound(_:)`` for an unknown persona, ``ChatTemplateError/notFound(_:)`` for an
  ///   unknown template, ``ChatTemplateError/invalid(field:_:)`` for both at once (no chat is made then);
  ///   `StoreError`.
  public func newSession(
    title: String = SessionTitle.placeholder, persona reference: String? = nil, template: String? = nil
  ) async throws
    -> ChatSession
  {
    if reference != nil, template != nil {
      throw ChatTemplateError.invalid(
        field: "template", "and persona were both given; a chat is answered by a persona or by a template")
    }
    if let instructions = try template.map({ try templates.find($0) })?.instructions {
      return try await chat.newSession(title: title, instructions: instructions)
    }
    let persona = try reference.map { try personas.find($0) }
    do {
      return try await chat.newSession(title: title, persona: persona?.id)
    } catch StoreError.itemNotFound(kind: "persona", _) {
      // Removed between the look-up and the write.
      throw PersonaError.notFound(reference ?? "")
    }
  }

  /// The user's personas.
  public var personas: PersonaService {
    PersonaService(
      database: database, memory: memory, clock: configuration.clock, logger: logger,
      checkModel: { [self] name in try checkChatModel(name) })
  }

  /// Throws unless `name` names a chat model a turn can be answered with: the model this engine was given,
  /// or one a turn may name (``chatModelChoice(named:)``); an engine opened without a model (the command line's
  /// `hearth personas`) asks the registry for an installed chat model by id or the start of its file name.
  func checkChatModel(_ name: String) throws {
    if host != nil {
      _ = try chatModelChoice(named: name)
      return
    }
    if let given {
      if name != given.name { throw ModelRegistryError.unknownModel(name, known: [given.name]) }
      return
    }
    let wanted = Self.stem(name)
    let chat = try ModelRegistry(folder: paths.models).installed().filter { $0.entry.role == .chat }
    guard
      name == Self.chosenModelAlias
        || chat.contains(where: { $0.entry.id == name || Self.stem($0.entry.fileName).hasPrefix(wanted) })
    else {
      throw ModelRegistryError.unknownModel(name, known: chat.map(\.entry.id))
    }
  }
}
