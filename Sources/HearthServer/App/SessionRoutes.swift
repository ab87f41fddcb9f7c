import Foundation
import HearthCore
import HearthEngine
import HearthStore
import Hummingbird

/// The web app's sessions API: list, search, create, read, rename, pin, archive, delete, export, import.
struct SessionRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var library: SessionLibrary { dependencies.engine.sessions }

  var paths: [RouterPath] { ["/api/sessions"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let archived = request.uri.queryParameters.get("archived") == "true"
      let sessions = try library.list(includeArchived: archived).filter { archived || !$0.isArchived }
      return try AppJSON.make(SessionList(sessions: sessions))
    }
    router.get("search") { request, _ in
      let query = request.uri.queryParameters.get("q") ?? ""
      guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw APIError.invalidRequest("q (the words to search for) is required", parameter: "q")
      }
      let scopeName = request.uri.queryParameters.get("scope") ?? "all"
      guard let scope = SearchScope(rawValue: scopeName) else {
        throw APIError.invalidRequest("scope must be all, titles, bodies or pinned", parameter: "scope")
      }
      return try AppJSON.make(SearchResults(hits: try library.search(query, scope: scope, limit: 50)))
    }
    router.post { request, _ in
      let body = try await RequestReader.decodeStrict(
        NewSession.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      let session = try await dependencies.engine.newSession(
        title: body.title.map(Self.cleanTitle) ?? "New chat", persona: body.persona, template: body.template)
      let persona = try dependencies.engine.personas.persona(ofSession: session.id)
      return try AppJSON.make(
        NewSessionView(
          session: session, persona: persona.map { PersonaBrief(id: $0.id, name: $0.name) },
          instructions: try dependencies.engine.templates.instructions(ofSession: session.id)),
        status: .created)
    }
    router.post("import") { request, _ in
      let export = try await RequestReader.decode(
        SessionExport.self, from: request, limit: configuration.maxBodyBytes, what: "not a Hearth session export")
      return try AppJSON.make(try library.importSession(export), status: .created)
    }
    router.get(":id") { _, context in
      try AppJSON.make(try detail(try RouteInput.sessionID(context)))
    }
    // Which alternative a fork shows (a regenerated answer, an edited message): the chat as it then reads.
    router.put(":id/forks/:position") { request, context in
      let id = try RouteInput.sessionID(context)
      let text = try context.parameters.require("position")
      guard let position = Int(text), position >= 0 else { throw APIError.notFound("no fork at \(text)") }
      let choice = try await RequestReader.decodeStrict(
        ForkChoice.self, from: request, limit: configuration.maxBodyBytes)
      guard choice.current >= 0 else {
        throw APIError.invalidRequest("current counts from 0", parameter: "current")
      }
      _ = try library.session(id)
      _ = try await dependencies.engine.chat.showAlternative(choice.current, at: position, in: id)
      return try AppJSON.make(try detail(id))
    }
    router.patch(":id") { request, context in
      let id = try RouteInput.sessionID(context)
      let change = try await RequestReader.decodeStrict(
        SessionChange.self, from: request, limit: configuration.maxBodyBytes)
      if let title = change.title, Self.cleanTitle(title).isEmpty {
        throw APIError.invalidRequest("title must not be empty", parameter: "title")
      }
      let session = try library.modify(id) { session in
        if let title = change.title { session.title = Self.cleanTitle(title) }
        if let pinned = change.pinned { session.isPinned = pinned }
        if let archived = change.archived { session.isArchived = archived }
      }
      return try AppJSON.make(session)
    }
    router.delete(":id") { _, context in
      let id = try RouteInput.sessionID(context)
      guard await !dependencies.engine.chat.isGenerating(id) else {
        throw APIError(.conflict, "the session is answering; stop it first", code: "session_busy")
      }
      try library.delete(id)
      return Response(status: .noContent)
    }
    // Whether the chat's turns draw on the memory.
    router.put(":id/memory") { request, context in
      let id = try RouteInput.sessionID(context)
      let input = try await RequestReader.decodeStrict(
        MemorySwitch.self, from: request, limit: configuration.maxBodyBytes)
      try dependencies.engine.memory.setUsesMemory(input.enabled, in: id)
      return try AppJSON.make(MemorySwitch(enabled: try dependencies.engine.memory.usesMemory(in: id)))
    }
    // Every chat at once: JSON the import reads one by one, or Markdown that reads as the chats did.
    router.get("export") { request, _ in
      switch request.uri.queryParameters.get("format") ?? "json" {
      case "json":
        // An export is a file the import reads back, in the stored types' own spelling, not an API answer.
        var response = try JSONResponse.make(["sessions": try library.exportAll(narrated: false)])
        response.headers[.contentDisposition] = "attachment; filename=\"hearth-chats.json\""
        return response
      case "md":
        let text = try library.exportAll(narrated: true).map(\.markdown).joined(separator: "\n\n---\n\n")
        return Response(
          status: .ok,
          headers: [
            .contentType: "text/markdown; charset=utf-8",
            .contentDisposition: "attachment; filename=\"hearth-chats.md\"",
          ],
          body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
      default:
        throw APIError.invalidRequest("format must be json or md", parameter: "format")
      }
    }
    router.get(":id/export") { request, context in
      let export = try library.export(try RouteInput.sessionID(context))
      let format = request.uri.queryParameters.get("format") ?? "json"
      let fileName = Self.fileName(for: export.session)
      switch format {
      case "json":
        var response = try JSONResponse.make(export)
        response.headers[.contentDisposition] = "attachment; filename=\"\(fileName).json\""
        return response
      case "md":
        return Response(
          status: .ok,
          headers: [
            .contentType: "text/markdown; charset=utf-8",
            .contentDisposition: "attachment; filename=\"\(fileName).md\"",
          ],
          body: ResponseBody(byteBuffer: ByteBuffer(string: try library.narrated(export).markdown)))
      default:
        throw APIError.invalidRequest("format must be json or md", parameter: "format")
      }
    }
  }

  /// A chat as the web app shows it: messages, forks, memory and sources.
  private func detail(_ id: UUID) throws -> SessionDetail {
    let messages = try library.messages(in: id)
    let memory = dependencies.engine.memory
    return SessionDetail(
      session: try library.session(id), messages: messages.map(MessageView.init), forks: try library.forks(in: id),
      usesMemory: try memory.usesMemory(in: id),
      persona: try dependencies.engine.personas.persona(ofSession: id).map { PersonaBrief(id: $0.id, name: $0.name) },
      instructions: try dependencies.engine.templates.instructions(ofSession: id),
      citations: Dictionary(
        uniqueKeysWithValues: try memory.citations(for: messages.map(\.id)).map { ($0.key.uuidString, $0.value) }))
  }

  static func cleanTitle(_ title: String) -> String {
    String(title.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
  }

  /// A download name made only of safe characters.
  static func fileName(for session: ChatSession) -> String {
    let safe = session.title.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
    let collapsed = String(safe).split(separator: "-").joined(separator: "-").prefix(60)
    return collapsed.isEmpty ? "hearth-session" : "hearth-\(collapsed)"
  }
}

struct SessionList: Encodable { var sessions: [ChatSession] }
struct SearchResults: Encodable { var hits: [SearchHit] }
struct SessionDetail: Encodable {
  var session: ChatSession
  var messages: [MessageView]
  /// Where the chat went more than one way, and which way is shown.
  var forks: [MessageFork]
  /// Whether this chat's answers draw on the memory.
  var usesMemory: Bool
  /// The persona the chat was started with, which answers in it.
  var persona: PersonaBrief?
  /// The instructions the chat was started with, from a template, which answer in it.
  var instructions: String?
  /// The sources each answer drew on, by message id.
  var citations: [String: [Citation]]
}
struct NewSession: StrictInput {
  var title: String?
  /// The persona (its id or name) that answers in the chat.
  var persona: String?
  /// The template (its id or name) whose instructions answer in the chat.
  var template: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case title, persona, template }
}
struct PersonaBrief: Encodable {
  var id: UUID
  var name: String
}
/// A new chat: the session's own fields, and the persona it was started with.
struct NewSessionView: Encodable {
  var session: ChatSession
  var persona: PersonaBrief?
  var instructions: String?

  enum CodingKeys: String, CodingKey { case persona, instructions }

  func encode(to encoder: any Encoder) throws {
    try session.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(persona, forKey: .persona)
    try container.encodeIfPresent(instructions, forKey: .instructions)
  }
}
struct ForkChoice: StrictInput {
  var current: Int
  enum CodingKeys: String, CodingKey, CaseIterable { case current }
}
struct SessionChange: StrictInput {
  var title: String?
  var pinned: Bool?
  var archived: Bool?
  enum CodingKeys: String, CodingKey, CaseIterable { case title, pinned, archived }
}
