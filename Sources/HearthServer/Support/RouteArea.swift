import Foundation
import Hummingbird

/// One area of the API (the sessions, the calendar, the OpenAI-compatible routes…): its routes, written relative
/// to where the area is mounted, collected once and added to the router under each of its paths.
protocol RouteArea<Context>: Sendable {
  associatedtype Context: RequestContext
  /// Where the area is mounted; it answers under each (the OpenAI-compatible routes under `/v1` and at the
  /// root, as llama-server does).
  var paths: [RouterPath] { get }
  /// Adds the area's routes to `routes`, their paths relative to the area's.
  func addRoutes(to routes: RouteCollection<Context>)
}

extension Router {
  /// Adds `area`'s routes under each of its paths.
  func mount<Area: RouteArea>(_ area: Area) where Area.Context == Context {
    let routes = RouteCollection(context: Context.self)
    area.addRoutes(to: routes)
    for path in area.paths { addRoutes(routes, atPath: path) }
  }
}

/// What a route's path and query name, read the same way in every area: a malformed value is the client's
/// error naming the parameter, an id that cannot exist is "not found".
enum RouteInput {
  /// The whole number the query names `name`, `value` when it names none.
  /// - Throws: ``APIError`` naming `name` when it is no whole number within `range`.
  static func integer(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int
  {
    guard let text = request.uri.queryParameters.get(name) else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw APIError.invalidRequest(
        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", parameter: name)
    }
    return number
  }

  /// The id in the path's `parameter`; `what` names the kind in the "not found" answer.
  static func id(_ context: some RequestContext, _ parameter: String = "id", of what: String) throws -> UUID {
    let text = try context.parameters.require(parameter)
    guard let id = UUID(uuidString: text) else { throw APIError.notFound("no \(what) \(text)") }
    return id
  }

  /// The session a `/api/sessions/:id/…` route names.
  static func sessionID(_ context: some RequestContext) throws -> UUID { try id(context, of: "session") }
}
