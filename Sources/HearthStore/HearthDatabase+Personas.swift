public import Foundation
import GRDB
public import HearthCore

/// A `persona` row: one named assistant.
struct PersonaRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "persona"
  var id: String
  var name: String
  var systemPrompt: String?
  var backstory: String
  var model: String?
  var preset: String?
  var createdAt: Double
  var updatedAt: Double

  init(_ persona: Persona) {
    id = persona.id.uuidString
    name = persona.name
    systemPrompt = persona.systemPrompt
    backstory = persona.backstory
    model = persona.model
    preset = persona.preset?.rawValue
    createdAt = persona.createdAt.timeIntervalSince1970
    updatedAt = persona.updatedAt.timeIntervalSince1970
  }

  func persona() throws(StoreError) -> Persona {
    guard let uuid = UUID(uuidString: id) else { throw .corrupt(path: "persona", detail: "persona id \(id)") }
    var chosen: ChatSettings.Preset?
    if let preset {
      guard let known = ChatSettings.Preset(rawValue: preset) else {
        throw .corrupt(path: "persona", detail: "persona \(name) has an unknown preset \(preset)")
      }
      chosen = known
    }
    return Persona(
      id: uuid, name: name, systemPrompt: systemPrompt, backstory: backstory, model: model, preset: chosen,
      createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt))
  }

  static func create(_ db: Database) throws {
    try db.create(table: "persona") { t in
      t.primaryKey("id", .text)
      t.column("name", .text).notNull().unique().collate(.nocase)
      t.column("systemPrompt", .text)
      t.column("backstory", .text).notNull()
      t.column("model", .text)
      t.column("preset", .text)
      t.column("createdAt", .double).notNull()
      t.column("updatedAt", .double).notNull()
    }
    // The persona a chat was started with; the chat stays when the persona goes, answered as Hearth again.
    try db.create(table: "sessionPersona") { t in
      t.primaryKey("sessionID", .text).references("session", onDelete: .cascade)
      t.column("personaID", .text).notNull().indexed().references("persona", onDelete: .cascade)
    }
  }
}

extension HearthDatabase {
  /// Every persona, by name.
  public func personas() throws(StoreError) -> [Persona] {
    let rows = try read { db in try PersonaRow.order(sql: "name COLLATE NOCASE").fetchAll(db) }
    return try rows.map { row throws(StoreError) in try row.persona() }
  }

  /// The persona with `id`, or `nil`.
  public func persona(_ id: UUID) throws(StoreError) -> Persona? {
    try read { db in try PersonaRow.fetchOne(db, key: id.uuidString) }.map { row throws(StoreError) in
      try row.persona()
    }
  }

  /// The persona named `name` (whatever the case), or `nil`.
  public func persona(named name: String) throws(StoreError) -> Persona? {
    try read { db in
      try PersonaRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db)
    }.map { row throws(StoreError) in try row.persona() }
  }

  /// Adds `persona`, or replaces the one with its id; `false` when another persona has its name (nothing is
  /// written then).
  public func savePersona(_ persona: Persona) throws(StoreError) -> Bool {
    let row = PersonaRow(persona)
    return try write { db in
      let taken = try PersonaRow.filter(sql: "name = ? COLLATE NOCASE AND id != ?", arguments: [row.name, row.id])
        .fetchCount(db)
      guard taken == 0 else { return false }
      try row.save(db)
      return true
    }
  }

  /// Deletes the persona with `id`; its chats stay, answered as Hearth from then on. `false` when there was none.
  public func deletePersona(_ id: UUID) throws(StoreError) -> Bool {
    try write { db in try PersonaRow.deleteOne(db, key: id.uuidString) }
  }

  /// The persona `sessionID` was started with, or `nil`.
  public func persona(ofSession sessionID: UUID) throws(StoreError) -> Persona? {
    try read { db in
      try PersonaRow.fetchOne(
        db,
        sql: "SELECT persona.* FROM persona JOIN sessionPersona ON sessionPersona.personaID = persona.id "
          + "WHERE sessionPersona.sessionID = ?",
        arguments: [sessionID.uuidString])
    }.map { row throws(StoreError) in try row.persona() }
  }

  /// Creates `session`, started with the persona `personaID`, in one transaction: no chat is made when the
  /// persona is not there (a chat keeps the persona it was started with).
  /// - Throws: ``StoreError/itemNotFound(kind:id:)`` for the persona.
  @discardableResult
  public func createSession(_ session: ChatSession, persona personaID: UUID) throws(StoreError) -> ChatSession {
    let found = try write { db in
      guard try PersonaRow.exists(db, key: personaID.uuidString) else { return false }
      try SessionRow(session).insert(db)
      try db.execute(
        sql: "INSERT INTO sessionPersona (sessionID, personaID) VALUES (?, ?)",
        arguments: [session.id.uuidString, personaID.uuidString])
      return true
    }
    guard found else { throw .itemNotFound(kind: "persona", id: personaID.uuidString) }
    return session
  }
}
