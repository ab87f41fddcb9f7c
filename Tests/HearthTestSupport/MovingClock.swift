public import Foundation
import Synchronization

/// A clock a test moves by hand, for an engine's `clock`.
public final class MovingClock: Sendable {
  private let now: Mutex<Date>

  public init(_ date: Date) {
    now = Mutex(date)
  }

  /// Moves the clock to `date`.
  public func set(_ date: Date) { now.withLock { $0 = date } }

  /// The time the clock shows.
  public func read() -> Date { now.withLock { $0 } }
}
