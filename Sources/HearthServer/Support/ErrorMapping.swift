import Foundation
import HTTPTypes
import HearthCore
import Hummingbird
import Logging

/// Turns what the layers below throw into API errors: each states its own sort of failure (``CategorizedError``),
/// answered here with its status; only the server's own and the framework's errors are named.
enum ErrorMapping {
  static func apiError(_ error: any Error) -> APIError {
    switch error {
    case let error as APIError: return error
    case is CancellationError:
      // The client left; nobody reads the answer, and nothing failed.
      return APIError(.init(code: 499), "the request was cancelled", code: "cancelled")
    case PersonalDataError.invalid(let field, let message):
      // The field as the API spells it (`recurrence.by_month_day`), and named as the parameter.
      let name = SnakeCaseJSON.snakeCase(field)
      var failure = APIError(PersonalDataError.invalid(field: field, message).category, "\(name): \(message)")
      failure.parameter = name
      return failure
    case let error as any CategorizedError:
      return APIError(error.category, error.description)
    case let error as HTTPError:
      return APIError(error.status, error.body ?? error.status.reasonPhrase.lowercased())
    case let error as any HTTPResponseError where error.status.code < 500:
      return APIError(error.status, "\(error)")
    default:
      return APIError(.internalServerError, "internal error: \(error)")
    }
  }
}

/// Answers every failure in the API error shape and counts every request by route and status.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger
  let metrics: ServerMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws
    -> Response
  {
    let route = Self.routeLabel(request.uri.path)
    let started = ContinuousClock.now
    do {
      let response = try await next(request, context)
      metrics.recordRequest(route: route, status: Int(response.status.code))
      // Time to the response head: a stream's body is still to come, and says its own figures when done.
      logger.info(
        "request",
        metadata: [
          "method": "\(request.method)", "route": "\(route)", "status": "\(response.status.code)",
          "ms": "\((ContinuousClock.now - started).milliseconds.rounded())",
        ])
      return response
    } catch {
      let failure = ErrorMapping.apiError(error)
      metrics.recordRequest(route: route, status: failure.status.code)
      if failure.status.code >= 500, failure.status != .serviceUnavailable {
        logger.error(
          "request failed", metadata: ["route": "\(route)", "status": "\(failure.status.code)", "error": "\(error)"])
      } else {
        logger.info("request refused", metadata: ["route": "\(route)", "status": "\(failure.status.code)"])
      }
      return try failure.response(from: request, context: context)
    }
  }

  /// A low-cardinality name for the route: ids are replaced, so labels never carry data.
  static func routeLabel(_ path: String) -> String {
    let parts = path.split(separator: "/").map { part in
      UUID(uuidString: String(part)) != nil ? ":id" : String(part)
    }
    let known = [
      "v1", "api", "sessions", "chat", "completions", "models", "turns", "stop", "export", "import", "search",
      "settings", "diagnostics", "health", "metrics", ":id", "calendar", "events", "occurrences", "free", "hours",
      "reminders", "complete", "notes", "habits", "log", "logs", "contacts", "actions", "confirm", "cancel", "undo",
    ]
    guard parts.allSatisfy({ known.contains($0) }) else { return parts.first.map { "/\($0)/…" } ?? "/" }
    return "/" + parts.joined(separator: "/")
  }
}

extension APIError {
  /// The answer to an error of `category`, with `message` as its text.
  init(_ category: ErrorCategory, _ message: String) {
    let status: HTTPResponse.Status =
      switch category.kind {
      case .invalid: .badRequest
      case .notFound: .notFound
      case .conflict: .conflict
      case .tooLarge: .contentTooLarge
      case .tooMany: .tooManyRequests
      case .unavailable: .serviceUnavailable
      case .upstream: .badGateway
      case .internalFailure: .internalServerError
      }
    // A thing that is not there says so in its code, as `notFound(_:)` does.
    self.init(
      status, message, parameter: category.parameter,
      code: category.code ?? (category.kind == .notFound ? "not_found" : nil))
  }
}
