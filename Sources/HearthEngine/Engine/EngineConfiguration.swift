public import Foundation
public import HearthStore

/// Which chat model an engine runs.
public enum ModelChoice: Sendable, Hashable {
  /// None: the engine serves the profile's data only (listing, searching, exporting sessions).
  case none
  /// The model at `path` when given, else `$HEARTH_MODEL`, else the default model installed in the profile.
  case file(path: String?, contextSize: Int? = nil, threads: Int? = nil, chatTemplate: String? = nil)
}

/// How ``Engine/open(_:)`` opens a profile.
public struct EngineConfiguration: Sendable {
  /// The data directory.
  public var paths: HearthPaths
  /// The chat model to load.
  public var model: ModelChoice
  /// How chat turns behave (default generation settings, thinking, summaries).
  public var chat: ChatConfiguration
  /// Old sessions to prune when a generating engine opens; `nil` keeps them all.
  public var historyPolicy: HistoryPolicy?
  /// Where `HEARTH_MODEL` is read from.
  public var environment: [String: String]
  /// The user's clock: floating and all-day times in their calendar are read on it. `$TZ` when it names a
  /// zone, else the system's.
  public var timeZone: TimeZone
  /// Where `WEB_SEARCH` blocks search: a SearXNG server from `$HEARTH_SEARXNG_URL`; `nil` (the default)
  /// keeps web search off.
  public var webSearch: (any WebSearchProvider)?

  /// Creates a configuration; the history policy comes from `HEARTH_KEEP_SESSIONS` / `HEARTH_KEEP_DAYS`.
  public init(
    paths: HearthPaths? = nil, model: ModelChoice = .none, chat: ChatConfiguration = .init(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.paths = paths ?? HearthPaths(environment: environment)
    self.model = model
    self.chat = chat
    self.historyPolicy = HistoryPolicy(environment: environment)
    self.environment = environment
    self.webSearch = environment["HEARTH_SEARXNG_URL"].flatMap(URL.init(string:)).map { SearXNGClient(base: $0) }
    self.timeZone =
      environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) } ?? .current
  }
}
