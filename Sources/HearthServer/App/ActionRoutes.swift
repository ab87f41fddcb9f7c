import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The web app's actions API: the cards of a session's answers, and the user's confirm, cancel and undo.
struct ActionRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }
  private var actions: ActionService { engine.actions }

  var paths: [RouterPath] { ["/api/actions"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let session = try request.uri.queryParameters.get("session").map { text in
        guard let id = UUID(uuidString: text) else {
          throw APIError.invalidRequest("session must be a session id", parameter: "session")
        }
        return id
      }
      let state = try request.uri.queryParameters.get("state").map { text in
        guard let state = ActionRecord.State(rawValue: String(text)) else {
          throw APIError.invalidRequest(
            "state must be one of \(ActionRecord.State.allCases.map(\.rawValue).joined(separator: ", "))",
            parameter: "state")
        }
        return state
      }
      let limit = try RouteInput.integer(request, "limit", default: 200, in: 1...1000)
      return try JSONResponse.make(
        ["actions": try actions.log(session: session, state: state, limit: limit).map(ActionCard.init)])
    }
    router.post(":id/confirm") { _, context in
      try JSONResponse.make(ActionCard(try await engine.confirmAction(try RouteInput.id(context, of: "action"))))
    }
    router.post(":id/cancel") { _, context in
      try JSONResponse.make(ActionCard(try await engine.cancelAction(try RouteInput.id(context, of: "action"))))
    }
    router.post(":id/undo") { _, context in
      try JSONResponse.make(ActionCard(try await engine.undoAction(try RouteInput.id(context, of: "action"))))
    }
  }

}
