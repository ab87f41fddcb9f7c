import Synchronization

/// A setting the engine reads while it runs and the user changes without a restart (the web search server, the
/// vision projector): set at start from the configuration or the profile, then saved and set together.
final class LiveSetting<Value: Sendable>: Sendable {
  private let value: Mutex<Value>

  init(_ initial: Value) { value = Mutex(initial) }

  var current: Value { value.withLock { $0 } }

  /// Saves and sets a new value together (`save` writes it to the profile), so that two changes at once leave
  /// the profile and the running value the same.
  func change(to new: Value, saving save: () throws -> Void) throws {
    try value.withLock { current in
      try save()
      current = new
    }
  }
}

/// Where web searches go, and where that came from.
struct WebSearchState: Sendable {
  var provider: (any WebSearchProvider)?
  /// `environment` (`$HEARTH_SEARXNG_URL` or the configuration), `profile` (saved from the web app) or `none`.
  var source: String
}

/// The vision projector images are read with, and where that came from.
struct ProjectorState: Sendable {
  var path: String?
  /// `environment` (`$HEARTH_MMPROJ`), `profile` (chosen on the Models page) or `none`.
  var source: String
}
