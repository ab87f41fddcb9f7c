public import Foundation
public import HearthCore
import HearthStore

/// The user's chat templates: instructions and a first message a new chat can start from.
public struct TemplateService: Sendable {
  let database: HearthDatabase
  let clock: @Sendable () -> Date

  /// Every template, by name.
  public func list() throws -> [ChatTemplate] { try database.chatTemplates() }

  /// The template `reference` names: its id, or its name whatever the case.
  /// - Throws: ``ChatTemplateError/notFound(_:)``.
  public func find(_ reference: String) throws -> ChatTemplate {
    let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = UUID(uuidString: trimmed), let template = try database.chatTemplate(id) { return template }
    if let template = try database.chatTemplate(named: trimmed) { return template }
    throw ChatTemplateError.notFound(trimmed)
  }

  /// Adds a template.
  /// - Throws: ``ChatTemplateError`` for a field that breaks a rule or a name taken.
  @discardableResult
  public func create(_ template: ChatTemplate) throws -> ChatTemplate {
    var template = template.normalized
    let now = clock()
    (template.createdAt, template.updatedAt) = (now, now)
    try save(template)
    return template
  }

  /// Changes the template `reference` names with `change`; its id and creation day stay. Chats started from
  /// it keep the instructions they were started with.
  /// - Throws: ``ChatTemplateError`` as ``create(_:)`` does, or when none is found.
  @discardableResult
  public func update(_ reference: String, _ change: (inout ChatTemplate) throws -> Void) throws -> ChatTemplate {
    let found = try find(reference)
    var template = found
    try change(&template)
    template = template.normalized
    (template.id, template.createdAt, template.updatedAt) = (found.id, found.createdAt, clock())
    try save(template)
    return template
  }

  /// Deletes the template `reference` names; chats started from it keep its instructions.
  /// - Throws: ``ChatTemplateError/notFound(_:)``.
  @discardableResult
  public func delete(_ reference: String) throws -> ChatTemplate {
    let template = try find(reference)
    guard try database.deleteChatTemplate(template.id) else { throw ChatTemplateError.notFound(reference) }
    return template
  }

  /// The instructions the chat `sessionID` was started with, from a template, or `nil`.
  public func instructions(ofSession sessionID: UUID) throws -> String? {
    try database.instructions(ofSession: sessionID)
  }

  private func save(_ template: ChatTemplate) throws {
    try template.validate()
    guard try database.saveChatTemplate(template) else { throw ChatTemplateError.nameTaken(template.name) }
  }
}

extension Engine {
  /// The user's chat templates.
  public var templates: TemplateService { TemplateService(database: database, clock: configuration.clock) }
}
