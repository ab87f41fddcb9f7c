import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import HearthMemory
import HearthOCR
import HearthStore
import Hummingbird
import Logging

/// Turns what the layers below throw into API errors with the right status, and logs failures without
/// any of the user's content.
enum ErrorMapping {
  static func apiError(_ error: any Error) -> APIError {
    switch error {
    case let error as APIError: return error
    case is CancellationError:
      // The client left; nobody reads the answer, and nothing failed.
      return APIError(.init(code: 499), "the request was cancelled", code: "cancelled")
    case let error as ChatError:
      switch error {
      case .emptyMessage: return .invalidRequest(error.description, parameter: "text")
      case .alreadyGenerating: return APIError(.conflict, error.description, code: "session_busy")
      case .modelNotReady: return APIError(.serviceUnavailable, error.description, code: "model_not_loaded")
      case .notAnAnswer, .notAUserMessage: return .invalidRequest(error.description, parameter: "message")
      case .cannotContinue: return APIError(.conflict, error.description, code: "cannot_continue")
      case .attachmentsNeedANewMessage, .unkeptTurnTakesOneMessage:
        return .invalidRequest(error.description, parameter: "attachments")
      }
    case let error as AttachmentError:
      switch error {
      case .tooLarge: return APIError(.contentTooLarge, error.description, code: "body_too_large")
      case .unsupported, .noText: return APIError(.badRequest, error.description, code: "invalid_file")
      case .notWaiting: return .notFound(error.description)
      }
    case let error as ImageTextError:
      switch error {
      case .engineMissing: return APIError(.serviceUnavailable, error.description, code: "ocr_missing")
      case .notAnImage, .tooLarge: return APIError(.badRequest, error.description, code: "invalid_file")
      }
    case let error as PersonalDataError:
      switch error {
      case .invalid(let field, _): return .invalidRequest(error.description, parameter: field)
      case .notFound: return .notFound(error.description)
      case .duplicate: return APIError(.conflict, error.description, code: "duplicate_item")
      }
    case let error as ActionStateError: return APIError(.conflict, error.description, code: "action_state")
    case let error as ActionReferenceError: return .notFound(error.description)
    case let error as NoticeError:
      switch error {
      case .notFound: return .notFound(error.description)
      case .alreadySettled: return APIError(.conflict, error.description, code: "notice_settled")
      case .invalidSettings: return .invalidRequest(error.description)
      }
    case let error as ItemReferenceError:
      switch error {
      case .notFound: return .notFound(error.description)
      case .ambiguous: return APIError(.conflict, error.description, code: "ambiguous_id")
      }
    case let error as InterchangeError:
      switch error {
      case .tooLarge: return APIError(.contentTooLarge, error.description, code: "body_too_large")
      case .notUTF8, .wrongFormat: return APIError(.badRequest, error.description, code: "invalid_file")
      }
    case let error as StoreError:
      switch error {
      case .sessionNotFound, .messageNotFound, .itemNotFound: return .notFound(error.description)
      case .duplicateItem: return APIError(.conflict, error.description, code: "duplicate_item")
      case .invalidImport: return .invalidRequest(error.description)
      case .locked: return APIError(.serviceUnavailable, error.description, code: "database_locked")
      default: return APIError(.internalServerError, error.description, code: "database_error")
      }
    case let error as InvalidParameterError: return .invalidRequest(error.description)
    case let error as MemoryError:
      switch error {
      case .unknownSource: return .notFound(error.description)
      case .modelMismatch: return APIError(.conflict, error.description, code: "embedding_model_mismatch")
      }
    case let error as DocumentError:
      switch error {
      case .tooLarge: return APIError(.contentTooLarge, error.description, code: "body_too_large")
      case .pdfToolMissing: return APIError(.serviceUnavailable, error.description, code: "pdf_tool_missing")
      default: return APIError(.badRequest, error.description, code: "invalid_file")
      }
    case let error as EmbeddingError:
      switch error {
      case .modelMissing: return APIError(.serviceUnavailable, error.description, code: "embedding_model_missing")
      case .emptyInput: return .invalidRequest(error.description, parameter: "input")
      case .inputTooLong:
        return APIError(.badRequest, error.description, parameter: "input", code: "context_length_exceeded")
      }
    case let error as ModelRegistryError:
      switch error {
      case .unknownModel, .notInstalled:
        return APIError(.notFound, error.description, parameter: "model", code: "model_not_found")
      case .wrongRole: return APIError(.badRequest, error.description, parameter: "model", code: "wrong_model_role")
      case .invalid: return APIError(.conflict, error.description, parameter: "model", code: "model_unusable")
      default: return APIError(.internalServerError, error.description, code: "model_registry_error")
      }
    case let error as RemoteError:
      switch error {
      case .invalidSettings: return APIError(.badRequest, error.description, code: "invalid_remote_settings")
      default: return APIError(.badGateway, error.description, code: "remote_failed")
      }
    case let error as ModelDownloadError:
      switch error {
      case .invalidURL: return APIError(.badRequest, error.description, parameter: "url", code: "invalid_url")
      case .invalidHash: return APIError(.badRequest, error.description, parameter: "sha256", code: "invalid_hash")
      case .privateAddress, .unresolvable:
        return APIError(.badRequest, error.description, parameter: "url", code: "url_not_allowed")
      case .tooManyPulls: return APIError(.tooManyRequests, error.description, code: "too_many_downloads")
      default: return APIError(.badGateway, error.description, code: "download_failed")
      }
    case let error as ModelTooLargeError:
      return APIError(.serviceUnavailable, error.description, parameter: "model", code: "model_too_large")
    case let error as PinnedPromptError:
      switch error {
      case .notFound: return .notFound(error.description)
      case .duplicate: return APIError(.conflict, error.description, code: "prompt_exists")
      case .emptyName: return .invalidRequest(error.description, parameter: "name")
      case .emptyText: return .invalidRequest(error.description, parameter: "text")
      case .tooLong(let field, _): return .invalidRequest(error.description, parameter: field)
      case .tooMany, .badPosition: return .invalidRequest(error.description)
      }
    case let error as HistoryImportError:
      if case .zipToolMissing = error { return APIError(.serviceUnavailable, error.description, code: "unzip_missing") }
      return .invalidRequest(error.description)
    case let error as ReplyTargetError: return .invalidRequest(error.description, parameter: "reply_to")
    case let error as ToolServerError:
      switch error {
      case .unknownServer, .unknownTool: return .notFound(error.description)
      case .duplicate: return APIError(.conflict, error.description, code: "tool_server_exists")
      case .invalidName, .emptyCommand, .unsupportedURL: return .invalidRequest(error.description)
      case .noConnector, .unreachable, .exited, .timedOut, .refused:
        return APIError(.badGateway, error.description, code: "tool_server_failed")
      }
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
