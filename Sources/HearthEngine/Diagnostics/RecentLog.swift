public import Foundation
public import Logging
import Synchronization

/// The latest log lines of this process, kept in memory for the Diagnostics page, the oldest dropped first.
/// The terminal's lines may name an account or a file, or quote an error's text; a line kept here holds only its
/// message and the figures and labels of an allow-list (route, status, timings, token counts, error kinds): any
/// other value is withheld, so the page never shows a name, a path, an address or what anyone wrote.
public final class RecentLog: Sendable {
  /// One line as it was logged, its values withheld but for the allow-list.
  public struct Line: Sendable, Encodable, Hashable {
    /// When it was logged.
    public var time: Date
    /// `info`, `warning`, `error`…
    public var level: String
    /// Which part logged it (`hearth.server`, `hearth.engine`…).
    public var label: String
    /// The message, a fixed text of the code's.
    public var message: String
    /// Its metadata: the allow-list's values, `(withheld)` for the rest.
    public var metadata: [String: String]
  }

  /// Metadata whose values are figures or labels of the code's own.
  static let shownKeys: Set<String> = [
    "route", "status", "ms", "method", "api", "prompt_tokens", "generated_tokens", "first_token_ms",
    "tokens_per_second", "kind", "count", "state", "claims", "vectors", "milliseconds", "bytes", "collections",
    "findings", "failed", "service",
  ]

  /// `value` of `key` as the page may show it.
  static func shown(_ key: String, _ value: String) -> String {
    if shownKeys.contains(key), value.count <= 80 { return value }
    // An error's kind ("StoreError.unavailable") is shown; its text, which may quote a path or an address, is not.
    if key == "error", value.range(of: #"^[A-Za-z]+(\.[A-Za-z]+)*$"#, options: .regularExpression) != nil {
      return value
    }
    return "(withheld)"
  }

  /// How many lines are kept.
  public let capacity: Int
  private let state: Mutex<(lines: [Line], next: Int)>

  /// A log keeping the latest `capacity` lines.
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
        metadata: Dictionary(
          uniqueKeysWithValues: merged.map { ($0.key, RecentLog.shown($0.key, $0.value.description)) })))
  }
}
