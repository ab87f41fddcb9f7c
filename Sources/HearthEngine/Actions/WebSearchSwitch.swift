import Foundation
import Synchronization

/// Where web searches go while the engine runs: set at start from the configuration or the profile, and
/// changed from the Settings page without a restart.
final class WebSearchSwitch: Sendable {
  struct State: Sendable {
    var provider: (any WebSearchProvider)?
    /// `environment` (`$HEARTH_SEARXNG_URL` or the configuration), `profile` (saved from the web app) or `none`.
    var source: String
  }

  private let state: Mutex<State>

  init(_ initial: State) { state = Mutex(initial) }

  var current: State { state.withLock { $0 } }

  /// Saves and sets a new state together (`save` writes it to the profile), so that two changes at once leave
  /// the profile and the running value the same.
  func change(to new: State, saving save: () throws -> Void) throws {
    try state.withLock { current in
      try save()
      current = new
    }
  }
}
