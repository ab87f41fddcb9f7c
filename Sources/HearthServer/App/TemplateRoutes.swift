import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The chat templates API: instructions and a first message a new chat starts from (`POST /api/sessions` with
/// `template`).
struct TemplateRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var templates: TemplateService { dependencies.engine.templates }

  var paths: [RouterPath] { ["/api/templates"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(TemplateList(templates: try templates.list())) }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        TemplateFields.self, from: request, limit: configuration.maxBodyBytes)
      guard let name = input.name else { throw APIError.invalidRequest("name is required", parameter: "name") }
      var template = ChatTemplate(name: name)
      input.apply(to: &template)
      return try AppJSON.make(try templates.create(template), status: .created)
    }
    router.get(":id") { _, context in
      try AppJSON.make(try templates.find(try context.parameters.require("id")))
    }
    router.patch(":id") { request, context in
      let reference = try context.parameters.require("id")
      let input = try await RequestReader.decodeStrict(
        TemplateFields.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try templates.update(reference) { input.apply(to: &$0) })
    }
    router.delete(":id") { _, context in
      try templates.delete(try context.parameters.require("id"))
      return Response(status: .noContent)
    }
  }
}

struct TemplateList: Encodable { var templates: [ChatTemplate] }

/// A template to add (`name` required) or change (any of the fields); `instructions` and `first_message` may be
/// null or empty to clear them.
struct TemplateFields: StrictInput {
  var name: String?
  var instructions: String??
  var firstMessage: String??

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name, instructions
    case firstMessage = "first_message"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.name), try container.decodeNil(forKey: .name) {
      throw APIError.invalidRequest("name cannot be null", parameter: "name")
    }
    name = try container.decodeIfPresent(String.self, forKey: .name)
    func clearable(_ key: CodingKeys) throws -> String?? {
      guard container.contains(key) else { return nil }
      return .some(try container.decodeNil(forKey: key) ? nil : try container.decode(String.self, forKey: key))
    }
    instructions = try clearable(.instructions)
    firstMessage = try clearable(.firstMessage)
  }

  func apply(to template: inout ChatTemplate) {
    if let name { template.name = name }
    if let instructions { template.instructions = instructions }
    if let firstMessage { template.firstMessage = firstMessage }
  }
}
