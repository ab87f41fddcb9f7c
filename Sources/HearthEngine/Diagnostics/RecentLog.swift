public import Foundation
public import Logging
import Synchronization

/// The latest log lines of this process, kept in memory for the Diagnostics page: the same lines the server
/// writes to its standard error (which never hold what the user or the model wrote), the oldest dropped first.
public final class RecentLog: Sendable {
  /// One line as it was logged.
  public struct Line: Sendable, Encodable, Hashable {
    public var time: Date
    public var level: String
    /// Which part logged it (`hearth.server`, `hearth.engine`…).
    public var label: String
    public var message: String
    public var metadata: [String: String]
  }

  /// How many lines are kept.
  public let capacity: Int
  private let state: Mutex<(lines: [Line], next: Int)>

  public init(capacity: Int = 500) {
    self.capacity = max(1, capacity)
    state = Mutex(([], 0))
  }

  /// Keeps `line`, dropping the oldest when full.
  public func append(_ line: Line) {
    state.withLock { state in
      if state.lines.count < capacity {
        state.lines.append(line)
      } else {
        state.lines[state.next] = line
      }
      state.next = (state.next + 1) % capacity
    }
  }

  /// The latest `count` lines, oldest first.
  public func latest(_ count: Int) -> [Line] {
    let ordered = state.withLock { state in
      state.lines.count < capacity
        ? state.lines : Array(state.lines[state.next...] + state.lines[..<state.next])
    }
    return Array(ordered.suffix(max(0, count)))
  }

  /// `logger` writing here too: its own lines at its own level, and here from `info` up even when it is
  /// quieter, so a terminal kept quiet still leaves the page its lines.
  public func keeping(_ logger: Logger) -> Logger {
    var copy = logger
    var kept = RecentLogHandler(label: logger.label, log: self)
    kept.logLevel = min(logger.logLevel, .info)
    copy.handler = MultiplexLogHandler([logger.handler, kept])
    return copy
  }
}

/// A log handler that keeps each line in a ``RecentLog``.
struct RecentLogHandler: LogHandler {
  let label: String
  let log: RecentLog
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
    log.append(
      RecentLog.Line(
        time: Date(), level: event.level.rawValue, label: label, message: event.message.description,
        metadata: merged.mapValues(\.description)))
  }
}
