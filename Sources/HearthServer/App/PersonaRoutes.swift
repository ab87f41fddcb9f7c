import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The personas API: named assistants with their own instructions, backstory, model and sampling; a chat is
/// started with one (`POST /api/sessions` with `persona`).
struct PersonaRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var personas: PersonaService { dependencies.engine.personas }

  var paths: [RouterPath] { ["/api/personas"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in
      try AppJSON.make(PersonaList(personas: try personas.list()))
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        PersonaFields.self, from: request, limit: configuration.maxBodyBytes)
      guard let name = input.name else { throw APIError.invalidRequest("name is required", parameter: "name") }
      var persona = Persona(name: name)
      try input.apply(to: &persona)
      return try AppJSON.make(try await personas.create(persona), status: .created)
    }
    router.get(":id") { _, context in
      try AppJSON.make(try personas.find(try context.parameters.require("id")))
    }
    router.patch(":id") { request, context in
      let reference = try context.parameters.require("id")
      let input = try await RequestReader.decodeStrict(
        PersonaFields.self, from: request, limit: configuration.maxBodyBytes)
      // A field that cannot be taken is refused before anything is written.
      return try AppJSON.make(try await personas.update(reference) { try input.apply(to: &$0) })
    }
    router.delete(":id") { _, context in
      try await personas.delete(try context.parameters.require("id"))
      return Response(status: .noContent)
    }
  }
}

struct PersonaList: Encodable { var personas: [Persona] }

/// A persona to add (`name` required) or change (any of the fields). `system_prompt`, `model` and `preset`
/// may be null to clear them.
struct PersonaFields: StrictInput {
  var name: String?
  var systemPrompt: String??
  var backstory: String?
  var model: String??
  var preset: String??

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name
    case systemPrompt = "system_prompt"
    case backstory, model, preset
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // A null name or backstory is no value: refused, not taken for "keep it".
    for key in [CodingKeys.name, .backstory] where container.contains(key) {
      if try container.decodeNil(forKey: key) {
        throw APIError.invalidRequest("\(key.rawValue) cannot be null", parameter: key.rawValue)
      }
    }
    name = try container.decodeIfPresent(String.self, forKey: .name)
    backstory = try container.decodeIfPresent(String.self, forKey: .backstory)
    func clearable(_ key: CodingKeys) throws -> String?? {
      guard container.contains(key) else { return nil }
      return .some(try container.decodeNil(forKey: key) ? nil : try container.decode(String.self, forKey: key))
    }
    systemPrompt = try clearable(.systemPrompt)
    model = try clearable(.model)
    preset = try clearable(.preset)
  }

  /// Writes the fields given into `persona`.
  /// - Throws: ``APIError`` for a preset that is not one of the three.
  func apply(to persona: inout Persona) throws {
    if let name { persona.name = name }
    if let systemPrompt { persona.systemPrompt = systemPrompt }
    if let backstory { persona.backstory = backstory }
    if let model { persona.model = model }
    if let preset {
      guard let preset else {
        persona.preset = nil
        return
      }
      guard let known = ChatSettings.Preset(rawValue: preset), known != .custom else {
        throw APIError.invalidRequest("preset must be precise, balanced, creative or null", parameter: "preset")
      }
      persona.preset = known
    }
  }
}
