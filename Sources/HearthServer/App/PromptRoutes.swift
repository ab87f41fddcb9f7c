import Foundation
import HearthEngine
import Hummingbird

/// `/api/prompts`: the pinned prompts shown as chips above the composer — list, pin, edit, move, unpin.
struct PromptRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/prompts"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(["prompts": try engine.pinnedPrompts()]) }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        PinnedPromptInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let name = input.name, let text = input.text else {
        throw APIError.invalidRequest("name and text are required", parameter: input.name == nil ? "name" : "text")
      }
      return try AppJSON.make(try engine.pinPrompt(name: name, text: text), status: .created)
    }
    router.put(":id") { request, context in
      let input = try await RequestReader.decodeStrict(
        PinnedPromptInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(
        try engine.editPinnedPrompt(try context.parameters.require("id"), name: input.name, text: input.text))
    }
    router.post(":id/move") { request, context in
      let input = try await RequestReader.decodeStrict(
        MoveInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(
        ["prompts": try engine.movePinnedPrompt(try context.parameters.require("id"), to: input.position)])
    }
    router.delete(":id") { _, context in
      try engine.unpinPrompt(try context.parameters.require("id"))
      return Response(status: .noContent)
    }
  }
}

struct PinnedPromptInput: StrictInput {
  var name: String?
  var text: String?
  enum CodingKeys: String, CodingKey, CaseIterable { case name, text }
}

struct MoveInput: StrictInput {
  var position: Int
  enum CodingKeys: String, CodingKey, CaseIterable { case position }
}
