import Foundation
import HearthEngine
import Hummingbird

/// `/api/web-search`: the SearXNG server `WEB_SEARCH` blocks search — see it, save it, test an address, forget it.
struct WebSearchRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var engine: Engine { dependencies.engine }

  var paths: [RouterPath] { ["/api/web-search"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(engine.webSearchView()) }
    router.put { request, _ in
      let input = try await RequestReader.decodeStrict(
        WebSearchInput.self, from: request, limit: configuration.maxBodyBytes)
      try refuseWhenFromTheEnvironment()
      guard let url = input.url else { throw APIError.invalidRequest("url is required", parameter: "url") }
      return try AppJSON.make(try await named { try engine.setWebSearch(url: url) })
    }
    router.delete { request, _ in
      // Read like any body, so that one beyond the limit or with fields is refused, not dropped.
      _ = try await RequestReader.decodeStrict(
        NoFields.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      try refuseWhenFromTheEnvironment()
      return try AppJSON.make(try engine.clearWebSearch())
    }
    router.post("check") { request, _ in
      let input = try await RequestReader.decodeStrict(
        WebSearchInput.self, from: request, limit: configuration.maxBodyBytes, allowingEmpty: true)
      let check = try await named { try await engine.checkWebSearch(url: input.url) }
      guard let check else {
        throw APIError.invalidRequest("web search is off: give a server's address to check", parameter: "url")
      }
      return try AppJSON.make(check)
    }
  }

  private func refuseWhenFromTheEnvironment() throws {
    try APIError.refuseChangeOfEnvironmentSetting(
      "web search", source: engine.webSearchView().source, variable: "HEARTH_SEARXNG_URL")
  }

  /// Runs `body`, naming the `url` field when the address cannot be used.
  private func named<Value>(_ body: () async throws -> Value) async throws -> Value {
    do {
      return try await body()
    } catch let error as WebSearchSettingError {
      throw APIError.invalidRequest(error.description, parameter: "url")
    }
  }
}

/// A web search server's address: required to save one, optional to check (the saved one is checked then).
struct WebSearchInput: StrictInput {
  var url: String?

  enum CodingKeys: String, CodingKey, CaseIterable { case url }
}
