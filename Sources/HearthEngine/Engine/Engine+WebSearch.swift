import Foundation
import HearthCore
import HearthStore

/// The web search server as the Settings page shows it.
public struct WebSearchView: Sendable, Hashable, Encodable {
  /// `environment` (`$HEARTH_SEARXNG_URL`), `profile` (saved from the web app) or `none` (web search off).
  public var source: String
  /// The SearXNG server's address; absent when web search is off or done by a provider of the app's own.
  public var url: String?
}

/// What a test search found: whether the server answered with SearXNG's JSON, how fast, and how many results.
public struct WebSearchCheck: Sendable, Hashable, Encodable {
  public var reachable: Bool
  public var milliseconds: Double
  public var results: Int
  /// Why the server could not be used, in words; absent when it answered.
  public var problem: String?
}

/// A web search address that cannot be used.
public struct WebSearchSettingError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
}

/// The web search server as kept in the profile.
struct StoredWebSearch: Codable, Sendable, Hashable {
  var url: String
}

extension Engine {
  static let webSearchKey = "web_search"

  /// Where a new engine's web searches go: the configuration's provider (from `$HEARTH_SEARXNG_URL`), else the
  /// server saved in the profile, else nowhere.
  /// - Throws: ``WebSearchSettingError`` naming `HEARTH_SEARXNG_URL` when it is set to something that is no web
  ///   address (it is refused, not passed over for the profile's server).
  static func initialWebSearch(
    _ configuration: EngineConfiguration, database: HearthDatabase
  ) throws(WebSearchSettingError) -> WebSearchState {
    if let given = configuration.webSearch { return .init(provider: given, source: "environment") }
    // The configuration drops an address that is no web address; it is refused here rather than passed over.
    if let text = configuration.environment["HEARTH_SEARXNG_URL"], !text.isEmpty, URL(webAddress: text) == nil {
      throw WebSearchSettingError(description: "HEARTH_SEARXNG_URL \(text) is not an http:// or https:// address")
    }
    let stored =
      configuration.logger.attempt("reading the saved web search server") {
        try database.setting(webSearchKey, as: StoredWebSearch.self)
      } ?? nil
    guard let stored, let url = URL(string: stored.url) else { return .init(provider: nil, source: "none") }
    return .init(provider: SearXNGClient(base: url), source: "profile")
  }

  /// The web search server in use, if any.
  public func webSearchView() -> WebSearchView {
    let state = webSearch.current
    return WebSearchView(source: state.source, url: (state.provider as? SearXNGClient)?.base.absoluteString)
  }

  /// Checks and saves a SearXNG server's address in the profile; the next search goes to it.
  /// - Throws: ``WebSearchSettingError`` for an address that is not http(s) with a host; `StoreError` when
  ///   saving fails.
  @discardableResult
  public func setWebSearch(url text: String) throws -> WebSearchView {
    let url = try Self.searchServer(text)
    try webSearch.change(to: .init(provider: SearXNGClient(base: url), source: "profile")) {
      try database.setSetting(Self.webSearchKey, to: StoredWebSearch(url: url.absoluteString))
    }
    return webSearchView()
  }

  /// Forgets the saved server: web search is off (until a restart reads `$HEARTH_SEARXNG_URL`, if it is set).
  @discardableResult
  public func clearWebSearch() throws -> WebSearchView {
    try webSearch.change(to: .init(provider: nil, source: "none")) { try database.removeSetting(Self.webSearchKey) }
    return webSearchView()
  }

  /// Runs one search for "hearth" on `url` (one typed but not saved yet), else on the server in use; `nil`
  /// when neither is there. Nothing of the user's is sent.
  /// - Throws: ``WebSearchSettingError`` for an address that cannot be used.
  public func checkWebSearch(url text: String? = nil) async throws -> WebSearchCheck? {
    let provider: any WebSearchProvider
    if let text {
      provider = SearXNGClient(base: try Self.searchServer(text), timeout: .seconds(5))
    } else if let current = webSearch.current.provider {
      provider = current
    } else {
      return nil
    }
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let found = try await provider.search("hearth", limit: 5)
      return WebSearchCheck(reachable: true, milliseconds: (clock.now - start).milliseconds, results: found.count)
    } catch {
      return WebSearchCheck(
        reachable: false, milliseconds: (clock.now - start).milliseconds, results: 0, problem: "\(error)")
    }
  }

  private static func searchServer(_ text: String) throws(WebSearchSettingError) -> URL {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let url = URL(webAddress: trimmed) else {
      throw WebSearchSettingError(description: "url \(text) is not an http:// or https:// address")
    }
    return url
  }
}
