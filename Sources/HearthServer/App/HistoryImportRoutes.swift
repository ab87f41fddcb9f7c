import Foundation
import HearthEngine
import Hummingbird

/// `POST /api/import/chatgpt` and `/api/import/claude`: another assistant's export (`conversations.json` or its
/// `.zip`) as the body, imported into chats; `?memory=true` adds them to the memory too.
struct HistoryImportRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/api/import"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post(":assistant") { request, context in
      let name = try context.parameters.require("assistant")
      guard let assistant = AssistantHistory(rawValue: name) else {
        throw APIError.notFound("no importer for \(name): use chatgpt or claude")
      }
      let query = request.uri.queryParameters
      if let unknown = query.map({ String($0.key) }).sorted().first(where: { $0 != "memory" }) {
        throw APIError.invalidRequest("unknown parameter \(unknown)", parameter: unknown)
      }
      let remember: Bool
      switch query.get("memory") {
      case nil, "false": remember = false
      case "true": remember = true
      case let other?: throw APIError.invalidRequest("memory must be true or false, not \(other)", parameter: "memory")
      }
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let report = try await dependencies.engine.importHistory(data, from: assistant, remember: remember)
      return try AppJSON.make(report)
    }
  }
}
