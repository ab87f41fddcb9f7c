import Foundation
import HearthCore
import HearthEngine
import HearthStore
import Hummingbird

/// Many chats at once: the drawer's selection and Settings' "Clear all history". A chat that is answering is
/// skipped, with the reason, and the rest are done.
struct SessionBulkRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/api/sessions/bulk"] }

  /// The most chats one request names.
  static var maximumCount: Int { 5_000 }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        BulkSessionInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let action = BulkSessionAction(rawValue: input.action) else {
        throw APIError.invalidRequest(
          "action must be one of \(BulkSessionAction.allCases.map(\.rawValue).joined(separator: ", "))",
          parameter: "action")
      }
      guard input.ids.count <= Self.maximumCount else {
        throw APIError.invalidRequest("ids names at most \(Self.maximumCount) chats", parameter: "ids")
      }
      var ids: [UUID] = []
      for text in input.ids {
        guard let id = UUID(uuidString: text) else {
          throw APIError.invalidRequest("ids holds \(text), which is no chat id", parameter: "ids")
        }
        ids.append(id)
      }
      let outcome = try await apply(action, to: ids)
      return try AppJSON.make(outcome)
    }
  }

  private func apply(_ action: BulkSessionAction, to ids: [UUID]) async throws -> BulkSessionOutcome {
    let engine = dependencies.engine
    var outcome = BulkSessionOutcome()
    var seen: Set<UUID> = []
    for id in ids where seen.insert(id).inserted {
      do {
        if action == .delete, await engine.chat.isGenerating(id) {
          outcome.skipped.append(.init(id: id, reason: "answering; stop it first"))
          continue
        }
        switch action {
        case .delete: try engine.sessions.delete(id)
        case .archive, .unarchive: try engine.sessions.modify(id) { $0.isArchived = action == .archive }
        case .pin, .unpin: try engine.sessions.modify(id) { $0.isPinned = action == .pin }
        }
        outcome.done.append(id)
      } catch StoreError.sessionNotFound {
        outcome.skipped.append(.init(id: id, reason: "no such chat"))
      } catch {
        // One chat that cannot be changed leaves the others done; the answer says which and why.
        outcome.skipped.append(.init(id: id, reason: ErrorMapping.apiError(error).message))
      }
    }
    return outcome
  }
}

/// What can be done to many chats at once.
enum BulkSessionAction: String, CaseIterable, Sendable {
  case delete, archive, unarchive, pin, unpin
}

/// `{"ids": [...], "action": "delete"}`.
struct BulkSessionInput: StrictInput {
  var ids: [String]
  var action: String
  enum CodingKeys: String, CodingKey, CaseIterable { case ids, action }
}

/// The chats done, and those skipped with why.
struct BulkSessionOutcome: Encodable {
  struct Skipped: Encodable {
    var id: UUID
    var reason: String
  }
  var done: [UUID] = []
  var skipped: [Skipped] = []
}
