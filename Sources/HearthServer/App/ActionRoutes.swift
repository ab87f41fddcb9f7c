import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The web app's actions API: the cards of a session's answers, and the user's confirm, cancel and undo.
struct ActionRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var actions: ActionService { dependencies.engine.actions }

  func register(on router: Router<Context>) {
    router.get("/api/actions") { request, _ in
      let session = try request.uri.queryParameters.get("session").map { text in
        guard let id = UUID(uuidString: text) else {
          throw APIError.invalidRequest("session must be a session id", parameter: "session")
        }
        return id
      }
      let limit = try CalendarRoutes<Context>.integer(request, "limit", default: 200, in: 1...1000)
      return try JSONResponse.make(["actions": try actions.log(session: session, limit: limit)])
    }
    router.post("/api/actions/:id/confirm") { _, context in
      try JSONResponse.make(try await actions.confirm(try Self.id(context)))
    }
    router.post("/api/actions/:id/cancel") { _, context in
      try JSONResponse.make(try actions.cancel(try Self.id(context)))
    }
    router.post("/api/actions/:id/undo") { _, context in try JSONResponse.make(try actions.undo(try Self.id(context))) }
  }

  static func id(_ context: Context) throws -> UUID {
    let text = try context.parameters.require("id")
    guard let id = UUID(uuidString: text) else { throw APIError.notFound("no action \(text)") }
    return id
  }
}
