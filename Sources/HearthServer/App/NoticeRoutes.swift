import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// `/api/notices`: what Hearth tells the user unasked, for the web app, and the user's answers to it — done,
/// snooze (10 minutes, an hour, tomorrow) or dismiss.
struct NoticeRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var notices: NoticeService { dependencies.engine.notices }

  var paths: [RouterPath] { ["/api/notices"] }

  func addRoutes(to router: RouteCollection<Context>) {
    // A look records what has come due since the scheduler's last one, so a page sees it at once.
    router.get { _, _ in try AppJSON.make(["notices": try notices.check()]) }
    router.post(":id/done") { _, context in try AppJSON.make(try notices.done(try noticeID(context))) }
    router.post(":id/dismiss") { _, context in try AppJSON.make(try notices.dismiss(try noticeID(context))) }
    router.post(":id/snooze") { request, context in
      let input = try await RequestReader.decodeStrict(
        SnoozeInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let snooze = Snooze(rawValue: input.for) else {
        throw APIError.invalidRequest("for must be 10m, 1h or tomorrow", parameter: "for")
      }
      return try AppJSON.make(try notices.snooze(try noticeID(context), snooze))
    }
  }

  private func noticeID(_ context: some RequestContext) throws -> String {
    try context.parameters.require("id")
  }
}

struct SnoozeInput: StrictInput {
  var `for`: String
  enum CodingKeys: String, CodingKey, CaseIterable { case `for` }
}
