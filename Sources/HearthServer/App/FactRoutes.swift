import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The Memory page's facts: what Hearth keeps about the user, each with where it came from; added, changed,
/// pinned and forgotten here as in a chat.
struct FactRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var facts: FactService { dependencies.engine.facts }

  var paths: [RouterPath] { ["/api/memory/facts"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let history: Bool
      switch request.uri.queryParameters.get("history") {
      case nil, "false": history = false
      case "true": history = true
      default: throw APIError.invalidRequest("history must be true or false", parameter: "history")
      }
      let today = facts.today
      return try AppJSON.make(
        FactList(facts: try facts.list(includingHistory: history).map { FactView($0, today: today) }))
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(FactInput.self, from: request, limit: configuration.maxBodyBytes)
      guard let text = input.text else { throw APIError.invalidRequest("text is required", parameter: "text") }
      let (fact, replacing) = try facts.remember(
        text, until: try input.expiry() ?? nil, pinned: input.isPinned ?? false)
      let today = facts.today
      return try AppJSON.make(
        RememberedFact(fact: FactView(fact, today: today), replaced: replacing.map { FactView($0, today: today) }),
        status: .created)
    }
    router.patch(":id") { request, context in
      let id = try context.parameters.require("id")
      let input = try await RequestReader.decodeStrict(FactInput.self, from: request, limit: configuration.maxBodyBytes)
      let fact = try facts.edit(id, text: input.text, until: try input.expiry(), pinned: input.isPinned)
      return try AppJSON.make(FactView(fact, today: facts.today))
    }
    router.delete(":id") { _, context in
      let fact = try await dependencies.engine.memory.forget(fact: try context.parameters.require("id"))
      return try AppJSON.make(FactView(fact, today: facts.today))
    }
  }
}

/// A fact as the page shows it: whether it still holds, and where it came from.
struct FactView: Encodable {
  var fact: Fact
  var holds: Bool
  var origin: String

  init(_ fact: Fact, today: LocalDate) {
    self.fact = fact
    holds = fact.holds(on: today)
    origin = fact.origin
  }

  enum CodingKeys: String, CodingKey {
    case id, text, sessionID, messageID, expires, isPinned, replaces, createdAt, updatedAt, holds, origin
  }

  func encode(to encoder: any Encoder) throws {
    try fact.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(holds, forKey: .holds)
    try container.encode(origin, forKey: .origin)
  }
}

struct FactList: Encodable {
  var facts: [FactView]
}

struct RememberedFact: Encodable {
  var fact: FactView
  /// The fact it took the place of, kept as history.
  var replaced: FactView?
}

/// A fact to add (`text` required) or change (any of the fields). `expires` is a day (`YYYY-MM-DD`), or null
/// to clear it.
struct FactInput: StrictInput {
  var text: String?
  var expires: String??
  var isPinned: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable { case text, expires, isPinned = "is_pinned" }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    text = try container.decodeIfPresent(String.self, forKey: .text)
    isPinned = try container.decodeIfPresent(Bool.self, forKey: .isPinned)
    if container.contains(.expires) {
      expires = .some(
        try container.decodeNil(forKey: .expires) ? nil : try container.decode(String.self, forKey: .expires))
    }
  }

  /// The last day asked for: `nil` when not given, `.some(nil)` to clear it.
  func expiry() throws -> LocalDate?? {
    guard let expires else { return nil }
    guard let text = expires else { return .some(nil) }
    guard let day = LocalDate(parsing: text) else {
      throw APIError.invalidRequest("expires must be a day, YYYY-MM-DD", parameter: "expires")
    }
    return .some(day)
  }
}
