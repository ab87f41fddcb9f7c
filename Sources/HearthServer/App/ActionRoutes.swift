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
      return try AppJSON.make(
        ["actions": try actions.log(session: session, state: state, limit: limit).map(card)])
    }
    router.post(":id/confirm") { _, context in
      try AppJSON.make(card(try await engine.confirmAction(try RouteInput.id(context, of: "action"))))
    }
    router.post(":id/cancel") { _, context in
      try AppJSON.make(card(try await engine.cancelAction(try RouteInput.id(context, of: "action"))))
    }
    router.post(":id/undo") { _, context in
      try AppJSON.make(card(try await engine.undoAction(try RouteInput.id(context, of: "action"))))
    }
    // The conflict card's third choice: the event moved to one of the free times it offers.
    router.post(":id/reschedule") { request, context in
      let id = try RouteInput.id(context, of: "action")
      let body = try await RequestReader.decodeStrict(
        RescheduleInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let start = LocalDateTime(parsing: body.start) else {
        throw APIError.invalidRequest("start \(body.start) is not a local date and time", parameter: "start")
      }
      return try AppJSON.make(card(try await engine.rescheduleAction(id, to: start)))
    }
  }

  /// A record with its card's words and, when its event overlaps others, the conflict choices.
  private func card(_ record: ActionRecord) -> ActionCard {
    ActionCard(record, choices: engine.conflictChoices(for: record))
  }
}

/// Where a conflict card's event goes: the start of one of the free times it offers.
struct RescheduleInput: Decodable, StrictInput {
  var start: String

  enum CodingKeys: String, CodingKey, CaseIterable {
    case start
  }

}
