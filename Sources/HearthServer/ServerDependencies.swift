public import Foundation
public import HearthEngine
public import Logging

/// What the server works with: the engine opened on the user's profile (tests open one on a scratch
/// profile and run the very same app), a logger and the start time.
public struct ServerDependencies: Sendable {
  /// The assistant: sessions, chat turns, settings, the model and its line of requests.
  public var engine: Engine
  /// Log output; never given user content.
  public var logger: Logger
  /// When the server started, for health and diagnostics.
  public var startedAt: Date
  /// The latest lines `logger` (and the engine's logger, when the caller gave it this too) wrote, for the
  /// Diagnostics page.
  public var recentLog: RecentLog

  public init(
    engine: Engine, logger: Logger = Logger(label: "hearth.server"), recentLog: RecentLog = RecentLog(),
    startedAt: Date = Date()
  ) {
    self.engine = engine
    self.logger = recentLog.keeping(logger)
    self.recentLog = recentLog
    self.startedAt = startedAt
  }
}
