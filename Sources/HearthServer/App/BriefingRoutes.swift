import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// `/api/briefing`: the day at a glance for the web app's Briefing card, from the user's data alone.
struct BriefingRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies

  var paths: [RouterPath] { ["/api/briefing"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let date = try request.uri.queryParameters.get("date").map { text in
        guard let date = LocalDate(parsing: String(text)) else {
          throw APIError.invalidRequest("date must be a date, 2026-12-01", parameter: "date")
        }
        return date
      }
      return try AppJSON.make(try dependencies.engine.briefing(for: date))
    }
  }
}
